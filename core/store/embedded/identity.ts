// The store's identity, kept inside its own file: `_identity` (one row: the store's id, when it
// was created, the schema version of its tables and a generation that only grows) and
// `_high_water` (per collection, the most documents the console has seen it hold, lowered only by
// the console's own deletes). Wherever the file is copied or moved, it says which store it is; a
// copy opened elsewhere is the same store, and a file that holds fewer documents than its
// high-water lost them outside the console.
//
// The high-water and the generation are raised with the writes, not per write: at open, at close,
// and inside a group commit at most every RAISE_EVERY_MS. A raise per write would add a page
// (`_high_water`'s) to every commit, and a commit's cost is the pages it writes (docs/performance.md).
// Raising late never reports a loss that did not happen: documents inserted since the last raise
// are simply not yet counted. The console's own deletes lower the high-water in the transaction that
// deletes (a connection-local TEMP trigger, so a delete made outside the console does not).
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from './sqlite';

/**
 * The `_id` column of a collection's table made by this version: read from the document (a virtual generated column,
 * stored nowhere but in its UNIQUE index), where an earlier version stored it a second time beside the document. Not
 * NOT NULL: PRAGMA quick_check at open would then read every document's _id (the store always writes one).
 */
export const ID_COLUMN = `_id TEXT AS (json_extract(doc, '$."_id"')) VIRTUAL UNIQUE`;

/** The newest layout of the console's tables this console reads (`_indexes`, `_meta`, `_counts`, `_identity`, `_high_water`, `_shared`, `c:<name>`): a file of a higher one is refused (open-guard.ts). */
export const SCHEMA_VERSION = 3;
/** The schema a new file is given: a file is raised to SHARED_SCHEMA when it first holds a shared value (shared-values.ts). */
export const BASE_SCHEMA = 1;
/** Documents may hold references to values of `_shared` (shared-values.ts): a console of schema 1 would misread them. */
export const SHARED_SCHEMA = 2;
/**
 * A collection's table may read its `_id` from the document (ID_COLUMN, a generated column): a console of schema 2
 * would write the column and fail. A file is raised to it when it first makes such a table (createTable).
 */
export const ID_SCHEMA = 3;
/** How often, at most, a group commit raises the high-water and the generation. */
export const RAISE_EVERY_MS = 5_000;

export interface StoreIdentity {
  /** The store's id (a UUID), given when the console first opened the file. */
  id: string;
  /** When the store was created (ISO time); for a file of an earlier version, when it was first recorded. */
  createdAt: string;
  schemaVersion: number;
  /** Raised with the high-water: an older copy of the file has a lower one. */
  generation: number;
  /** Per collection, the most documents the console has seen it hold (less its own deletes). */
  highWater: Record<string, number>;
}

const CREATE = [
  `CREATE TABLE IF NOT EXISTS _identity (one INTEGER PRIMARY KEY CHECK (one = 1), id TEXT NOT NULL, createdAt TEXT NOT NULL, schemaVersion INTEGER NOT NULL, generation INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS _high_water (collection TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
];

/** The identity a file holds (read with any connection), or undefined when it has none (a file of an earlier version, or not the console's). */
export function readIdentity(db: DatabaseSync): StoreIdentity | undefined {
  const tables = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map((row) => String(row.name)));
  if (!tables.has('_identity')) return undefined;
  const row = db.prepare(`SELECT id, createdAt, schemaVersion, generation FROM _identity WHERE one = 1`).get();
  if (!row) return undefined;
  const highWater = tables.has('_high_water')
    ? Object.fromEntries(db.prepare(`SELECT collection, n FROM _high_water ORDER BY collection`).all().map((r) => [String(r.collection), Number(r.n)]))
    : {};
  return { id: String(row.id), createdAt: String(row.createdAt), schemaVersion: Number(row.schemaVersion), generation: Number(row.generation), highWater };
}

/** Documents per collection as the file's triggers count them (`_counts`), none when it has no such table. */
export function countsOf(db: DatabaseSync): Record<string, number> {
  const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_counts'`).get();
  if (!has) return {};
  return Object.fromEntries(db.prepare(`SELECT collection, n FROM _counts ORDER BY collection`).all().map((row) => [String(row.collection), Number(row.n)]));
}

/** Collections holding fewer documents than their high-water: `jobs: 3 of 5`. */
export function shrunken(identity: StoreIdentity, counts: Record<string, number>): string[] {
  return Object.entries(identity.highWater)
    .filter(([collection, n]) => (counts[collection] ?? 0) < n)
    .map(([collection, n]) => `${collection}: ${counts[collection] ?? 0} of ${n}`);
}

/**
 * Gives the file its identity when it has none (a new file, or one of an earlier version), inside
 * the caller's write transaction; answers the identity and whether it was given now.
 */
export function ensureIdentity(db: DatabaseSync, createdAt = new Date().toISOString()): { identity: StoreIdentity; created: boolean } {
  for (const sql of CREATE) db.exec(sql);
  const known = readIdentity(db);
  if (known) return { identity: known, created: false };
  db.prepare(`INSERT INTO _identity (one, id, createdAt, schemaVersion, generation) VALUES (1, ?, ?, ?, 1)`).run(randomUUID(), createdAt, schemaOf(db));
  raiseHighWater(db);
  const identity = readIdentity(db);
  if (!identity) throw new Error('the store identity just written cannot be read back');
  return { identity, created: true };
}

/**
 * The schema of a file's tables as they are (written before its identity: a conversion at first open): ID_SCHEMA once a
 * collection's table reads its `_id` from the document, SHARED_SCHEMA once it holds `_shared`.
 */
function schemaOf(db: DatabaseSync): number {
  if (db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%' AND sql LIKE ?`).get(`%${ID_COLUMN}%`)) return ID_SCHEMA;
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_shared'`).get() ? SHARED_SCHEMA : BASE_SCHEMA;
}

/** Makes a collection's table (`"c:<name>"`) when the file has none: "v:0" the marker of its indexed columns (columns.ts), its _id read from the document. */
export function createTable(db: DatabaseSync, table: string): void {
  if (db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table.slice(1, -1))) return;
  db.exec(`CREATE TABLE ${table} (${ID_COLUMN}, doc TEXT NOT NULL, "v:0")`);
  raiseSchema(db, ID_SCHEMA);
}

/** Raises the file's schema to `schema` (inside the caller's write transaction), when it has an identity yet. */
export function raiseSchema(db: DatabaseSync, schema: number): void {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_identity'`).get()) return;
  db.prepare('UPDATE _identity SET schemaVersion = ? WHERE one = 1 AND schemaVersion < ?').run(schema, schema);
}

/** Raises the high-water to the counts now and the generation by one (inside the caller's write transaction). */
export function raiseHighWater(db: DatabaseSync): void {
  db.exec(
    `INSERT INTO _high_water (collection, n) SELECT collection, n FROM _counts WHERE true ON CONFLICT (collection) DO UPDATE SET n = max(n, excluded.n)`,
  );
  db.exec(`UPDATE _identity SET generation = generation + 1 WHERE one = 1`);
}

/**
 * Writes `identity` (its id and creation) with `generation` into a file about to be put in place
 * (a restore's copy): a backup restored is the same store, newer than every backup of it.
 */
export function stampIdentity(db: DatabaseSync, identity: Pick<StoreIdentity, 'id' | 'createdAt'>, generation: number): void {
  for (const sql of CREATE) db.exec(sql);
  db.prepare(
    `INSERT INTO _identity (one, id, createdAt, schemaVersion, generation) VALUES (1, ?, ?, ?, ?) ON CONFLICT (one) DO UPDATE SET id = excluded.id, createdAt = excluded.createdAt, generation = excluded.generation`,
  ).run(identity.id, identity.createdAt, schemaOf(db), generation);
  const hasCounts = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_counts'`).get();
  if (hasCounts) db.exec(`INSERT INTO _high_water (collection, n) SELECT collection, n FROM _counts WHERE true ON CONFLICT (collection) DO UPDATE SET n = excluded.n`);
}

/**
 * The TEMP trigger (this connection's only) that lowers a collection's high-water with each
 * document the console deletes from it, in the same transaction.
 */
export function deleteTriggerSql(collection: string): string {
  const name = `c:${collection}`;
  return `CREATE TEMP TRIGGER IF NOT EXISTS "hw-:${name}" AFTER DELETE ON main."${name}" BEGIN UPDATE _high_water SET n = n - 1 WHERE collection = '${collection}' AND n > 0; END`;
}

/** The raises of one connection: due inside a group commit at most every RAISE_EVERY_MS, once the file has its identity. */
export class HighWater {
  /** Set once the file has its identity (a file opened read-only has none written). */
  identity: StoreIdentity | undefined;
  private raisedAt = 0;
  private readonly watched = new Set<string>();

  /** Inside a write transaction about to commit: raises when due. */
  due(db: DatabaseSync, now = Date.now()): void {
    if (!this.identity || now - this.raisedAt < RAISE_EVERY_MS) return;
    this.raisedAt = now;
    raiseHighWater(db);
  }

  /** Raises now (at open and at close, in the caller's write transaction). */
  raise(db: DatabaseSync): void {
    if (!this.identity) return;
    this.raisedAt = Date.now();
    raiseHighWater(db);
  }

  /** Before a delete from `collection`: its deletes lower its high-water (throws "no such table" when it has no table yet). */
  watchDeletes(db: DatabaseSync, collection: string): void {
    if (!this.identity || this.watched.has(collection)) return;
    db.exec(deleteTriggerSql(collection));
    this.watched.add(collection);
  }
}
