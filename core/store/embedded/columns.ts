// Indexed fields as real columns. Each field an index of a collection names has a column
// `"k:<field>"` in the collection's table holding what `json_extract(doc, '$."<field>"')` gives,
// and the indexes are built on those columns. SQLite rewrites the entries of every index whose
// columns an UPDATE sets: with expression indexes on `doc` that is every index at every update,
// with columns only the indexes of the fields the update can touch (known from its keys).
//
// Which columns a table has is read from the table and kept per connection. Every write names
// the table's marker column `"v:<n>"`, renamed whenever a column is added: a statement of a
// connection that has not seen the new column fails to run ("no such column"), and the
// collection reads the table again and retries it (collection.ts), instead of leaving the
// new column stale.
import type { IndexSpec, Update } from '../port';
import type { SqliteDatabase } from './database';
import { ArrayFreeAnswers } from './array-free';
import { encodeScalar } from './codec';
import { fieldExpr, jsonPath, type SqlParam } from './sql';

/** The column holding a field's value. */
export const columnName = (field: string) => {
  jsonPath(field);
  return `"k:${field}"`;
};

// Process-wide on purpose: only tells Layout objects apart.
let layoutIds = 0;

/** The columns of one table as this connection last read them. */
export class Layout {
  /** Tells layouts apart in the filter compiler's cache. */
  readonly id = ++layoutIds;
  /** The SETs of the updates of this table, by shape (updateSet). */
  readonly plans = new Map<string, SetPlan>();
  /**
   * The fields that lead an index without a partial filter (a sorted find's probe, collection.ts),
   * read once per layout. Stale after another connection's index change, it only changes which rows
   * the probe reads (the filter's or all), never the order a find gives.
   */
  leadingIndexFields: ReadonlySet<string> | undefined;

  constructor(
    readonly fields: ReadonlySet<string>,
    /** The marker column's name (unquoted); undefined for a table that does not exist yet. */
    readonly marker: string | undefined,
    /** The database and table the layout was read from: arrayFree asks it. */
    private readonly source?: { database: SqliteDatabase; table: string },
    /** Whether the table reads its `_id` from the document (identity.ts's ID_COLUMN): a write gives the document only. */
    readonly generatedId = false,
  ) {}

  /** The SQL reading a field: its column when it has one. */
  expr(field: string): string {
    if (field === '_id') return '_id';
    return this.fields.has(field) ? columnName(field) : fieldExpr(field);
  }

  /** Fields found array-free in a write transaction (array-free.ts). */
  private readonly found = new ArrayFreeAnswers();

  /**
   * Which of `fields` no document of the table holds an array anywhere on the path of now (each
   * part asked of its partial index, arrayIndexSql; all of them in one statement): their filters
   * are then answered by the column and its index alone (sql.ts). False for a field without a column.
   * An answer found before, with no other connection's commit since, is not asked again, in a write transaction or out of one (a claim).
   */
  arrayFree(fields: readonly string[]): boolean[] {
    // A field without a column is answered false at once (it never has one in this layout): only columns are asked or kept.
    const columns = fields.filter((field) => this.fields.has(field));
    const version = columns.length ? (this.source && (this.source.database.writeVersion() ?? this.source.database.readVersion())) : undefined;
    const answers = this.found.known(columns, version) ?? this.found.keep(columns, version, this.askArrayFree(columns));
    return fields.map((field) => answers[columns.indexOf(field)] ?? false);
  }

  /** This connection wrote `doc` (inserted) or an update's `$set`: a field it may have put an array on the path of is asked again. */
  wrote(doc: Readonly<Record<string, unknown>> | undefined, set?: Readonly<Record<string, unknown>>) {
    this.found.wrote(doc, set);
  }

  private askArrayFree(fields: readonly string[]): boolean[] {
    const asked = fields.filter((field) => this.source && this.fields.has(field));
    if (!this.source || asked.length === 0) return fields.map(() => false);
    const { database, table } = this.source;
    // INDEXED BY: the planner, without statistics, would rather scan another index holding the column.
    const exists = (field: string) =>
      arrayTerms(field)
        .map((term, i) => `EXISTS (SELECT 1 FROM ${table} INDEXED BY ${arrayIndexName(table, field, i)} WHERE ${term})`)
        .join(' OR ');
    let row: Record<string, unknown> | undefined;
    try {
      row = database.statement(`SELECT ${asked.map((field, i) => `(${exists(field)}) AS "${i}"`).join(', ')}`).get();
    } catch (error) {
      // A file not upgraded yet (opened read-only): without the index, the field is read as it may hold arrays.
      if (error instanceof Error && /no such index/.test(error.message)) return fields.map(() => false);
      throw error;
    }
    return fields.map((field) => {
      const i = asked.indexOf(field);
      return i >= 0 && Number(row?.[String(i)]) === 0;
    });
  }
}

/** One SQL condition per part of a column's path, each true where that part holds an array (a column's array reads as its JSON text). */
export function arrayTerms(field: string): string[] {
  const segments = field.split('.');
  const column = columnName(field);
  return segments.map((_, i) =>
    i === segments.length - 1 ? `${column} >= '[' AND ${column} < '\\'` : `json_type(doc, '${jsonPath(segments.slice(0, i + 1).join('.')).replaceAll("'", "''")}') = 'array'`,
  );
}

/** The partial indexes holding the rows where a part of a column's path is an array (empty, and free to keep, while there are none). */
export function arrayIndexSql(table: string, field: string): string[] {
  return arrayTerms(field).map((term, i) => `CREATE INDEX IF NOT EXISTS ${arrayIndexName(table, field, i)} ON ${table} (_id) WHERE ${term}`);
}

/** The name of the partial index of the `i`th part of a column's path (arrayIndexSql), quoted. */
const arrayIndexName = (table: string, field: string, i: number) => `"a:${table.slice(1, -1)}:${field.replaceAll('"', '""')}:${i}"`;

/** Whether a table has the array indexes of all its columns. */
export function hasArrayIndexes(database: SqliteDatabase, table: string, fields: Iterable<string>): boolean {
  const has = (name: string) => database.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?`).get(name) !== undefined;
  return [...fields].every((field) => arrayTerms(field).every((_, i) => has(`a:${table.slice(1, -1)}:${field}:${i}`)));
}

export const NO_COLUMNS = new Layout(new Set(), undefined);

/** Reads a table's columns (NO_COLUMNS when it does not exist). */
export function readLayout(database: SqliteDatabase, table: string): Layout {
  const rows = database.statement(`SELECT name FROM pragma_table_info(?)`).all(table.slice(1, -1));
  if (rows.length === 0) return NO_COLUMNS;
  const names = rows.map((row) => String(row.name));
  const fields = new Set(names.filter((n) => n.startsWith('k:')).map((n) => n.slice(2)));
  // table_info leaves out generated columns: a table without an _id of its own reads it from the document.
  return new Layout(fields, names.find((n) => n.startsWith('v:')), { database, table }, !names.includes('_id'));
}

/** The layouts of a connection's tables, read at first use. */
export class Layouts {
  private readonly known = new Map<string, Layout>();

  get(database: SqliteDatabase, table: string): Layout {
    let layout = this.known.get(table);
    if (!layout) {
      layout = readLayout(database, table);
      // A table that does not exist yet is read again once it does (another connection may create it).
      if (layout !== NO_COLUMNS) this.known.set(table, layout);
    }
    return layout;
  }

  /** Read again at next use: one table's, or every one's (a transaction that may have changed them rolled back). */
  forget(table?: string) {
    if (table === undefined) this.known.clear();
    else this.known.delete(table);
  }
}

/**
 * The unique index a failed UNIQUE constraint on columns is of: SQLite names the columns
 * (`UNIQUE constraint failed: c:<collection>.k:a, c:<collection>._id`), not the index.
 */
export function uniqueIndexOf(message: string, collection: string, specs: IndexSpec[]): string | undefined {
  const failed = /UNIQUE constraint failed: (.*)$/.exec(message)?.[1];
  if (failed === undefined) return undefined;
  const prefix = `c:${collection}.`;
  const fields = failed.split(', ').map((column) => {
    const name = column.startsWith(prefix) ? column.slice(prefix.length) : column;
    return name.startsWith('k:') ? name.slice(2) : name;
  });
  return specs.find((spec) => spec.unique && JSON.stringify(Object.keys(spec.key)) === JSON.stringify(fields))?.name;
}

/** Whether an error is a statement naming a marker column that was renamed meanwhile (another connection added a column). */
export const isStaleLayout = (error: unknown) => error instanceof Error && /no such column: "?v:\d+/.test(error.message);

/**
 * Adds a column for each of `fields` the table lacks, filled from the documents, and renames
 * the marker (or adds one). Runs inside the caller's write transaction; returns the new layout.
 */
export function addColumns(database: SqliteDatabase, table: string, fields: Iterable<string>): Layout {
  const now = readLayout(database, table);
  const missing = [...new Set(fields)].filter((f) => f !== '_id' && !now.fields.has(f));
  if (missing.length === 0 && now.marker) return now;
  for (const field of missing) database.db.exec(`ALTER TABLE ${table} ADD COLUMN ${columnName(field)}`);
  if (missing.length) database.db.exec(`UPDATE ${table} SET ${missing.map((f) => `${columnName(f)} = ${fieldExpr(f)}`).join(', ')}`);
  if (now.marker) database.db.exec(`ALTER TABLE ${table} RENAME COLUMN "${now.marker}" TO "v:${Number(now.marker.slice(2)) + 1}"`);
  else database.db.exec(`ALTER TABLE ${table} ADD COLUMN "v:0"`);
  database.layouts.forget(table);
  const layout = database.layouts.get(database, table);
  guardColumns(database, table, layout);
  return layout;
}

/** The names of a table's two guard triggers (guardColumns), as sqlite_master holds them. */
export const guardNames = (table: string) => [`k+:${table.slice(1, -1)}`, `k~:${table.slice(1, -1)}`];

/**
 * Triggers that keep the columns right when a writer that does not know them (an earlier
 * version of the console opening the file again, a SQLite shell) inserts a row or changes a
 * document: this store's writes set the marker (0 on insert, flipped on update), so a row
 * written without it has its columns read again from its document. A write of this store
 * only has the marker compared. Runs inside the caller's write transaction.
 */
export function guardColumns(database: SqliteDatabase, table: string, layout: Layout) {
  const [inserted, updated] = guardNames(table) as [string, string];
  database.db.exec(`DROP TRIGGER IF EXISTS "${inserted}"; DROP TRIGGER IF EXISTS "${updated}"`);
  if (layout.fields.size === 0 || !layout.marker) return;
  for (const field of layout.fields) for (const sql of arrayIndexSql(table, field)) database.db.exec(sql);
  const marker = `"${layout.marker}"`;
  const columns = [...layout.fields].map((f) => `${columnName(f)} = ${fieldExpr(f).replace('(doc,', '(NEW.doc,')}`).join(', ');
  const reread = `BEGIN UPDATE ${table} SET ${columns}, ${marker} = 0 WHERE rowid = NEW.rowid; END`;
  database.db.exec(`CREATE TRIGGER "${inserted}" AFTER INSERT ON ${table} WHEN NEW.${marker} IS NULL ${reread}`);
  database.db.exec(`CREATE TRIGGER "${updated}" AFTER UPDATE OF doc ON ${table} WHEN NEW.${marker} IS OLD.${marker} ${reread}`);
}

/**
 * Each layout's INSERT, made at its first insert: built again per insert it cost 8 us of a
 * one-task job's 185 (two inserts), and a string made once keeps the hash the statement cache
 * looks it up by. Keyed by the layout object (a table's columns as read), checked by table:
 * NO_COLUMNS stands for every table not read yet.
 */
const inserts = new WeakMap<Layout, { table: string; sql: string }>();

/** The INSERT of a document (`?` the _id, `?` its text): the columns are read from the text as json_extract reads them. */
export function insertSql(table: string, layout: Layout): string {
  const kept = inserts.get(layout);
  if (kept?.table === table) return kept.sql;
  const sql = insertText(table, layout);
  inserts.set(layout, { table, sql });
  return sql;
}

function insertText(table: string, layout: Layout): string {
  const fields = [...layout.fields];
  const id = layout.generatedId ? [] : ['_id'];
  const columns = [...id, 'doc', ...fields.map(columnName), ...(layout.marker ? [`"${layout.marker}"`] : [])];
  // The marker written (0): the row's columns are this store's (guardColumns).
  const values = [...id.map(() => '?1'), '?2', ...fields.map((f) => fieldExpr(f).replace('(doc,', '(?2,')), ...(layout.marker ? ['0'] : [])];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')})`;
}

/** Whether an update of `key` can change the value at `field`: the same path, a path above it, or one below it. */
const touches = (key: string, field: string) => key === field || field.startsWith(`${key}.`) || key.startsWith(`${field}.`);

/**
 * The value json_extract reads after a top-level field is set to `value`, when it is a plain
 * value (a string, a safe integer, a boolean, null or a date); undefined otherwise.
 */
function literal(value: unknown): { value: SqlParam | bigint } | undefined {
  if (value === null) return { value: null };
  if (typeof value === 'boolean') return { value: value ? 1n : 0n };
  // JSON writes a safe integer as digits, read as an INTEGER. Not another number: SQLite's reading of
  // its decimal text (json_extract) can differ from JavaScript's double in the last bit.
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { value: BigInt(value) } : undefined;
  if (typeof value === 'string' || value instanceof Date) return { value: encodeScalar(value) as string };
  return undefined;
}

/**
 * A column of an UPDATE's SET: bound to the value its field is set to (or null: unset), when the
 * update sets that field alone to a plain value; otherwise read from the updated document.
 */
type SetColumn = { field: string; from: '$set' | '$unset'; guarded: boolean } | 'doc';

export interface SetPlan {
  sql: string;
  columns: SetColumn[];
  /** The whole UPDATE statements of this SET, by their WHERE (kept by the filter compiler) and then by what else shapes them (collection.ts). */
  readonly statements: Map<string, Map<string, string>>;
}

const quotedPath = (field: string) => `'${jsonPath(field).replaceAll("'", "''")}'`;

/**
 * Whether setting a nested field makes json_extract read the value set: each field above it is an
 * object, or missing or null (applyUpdate creates it). Not so under an array or a scalar (the
 * update then fails, or leaves a field JSON does not write).
 */
function objectsAbove(field: string): string {
  const segments = field.split('.');
  let sql = 'TRUE';
  for (let i = segments.length - 1; i >= 1; i--) {
    const type = `json_type(doc, ${quotedPath(segments.slice(0, i).join('.'))})`;
    sql = `(COALESCE(${type}, 'null') = 'null' OR (${type} = 'object' AND ${sql}))`;
  }
  return sql.replaceAll(' AND TRUE)', ')');
}

/** The plan of an update's SET, made once per shape (operators, fields, and which set values are plain). */
function planSet(layout: Layout, update: Update): SetPlan {
  const parts = ['doc = mongo_update(doc, ?)'];
  const columns: SetColumn[] = [];
  const keys = [...Object.keys(update.$set ?? {}), ...Object.keys(update.$unset ?? {}), ...Object.keys(update.$inc ?? {})];
  for (const field of layout.fields) {
    const touching = keys.filter((key) => touches(key, field));
    if (touching.length === 0) continue;
    const fromDoc = `json_extract(mongo_apply(doc, ?), ${quotedPath(field)})`;
    const from = update.$unset && field in update.$unset ? '$unset' : update.$set && field in update.$set && literal(update.$set[field]) ? '$set' : undefined;
    if (touching.length > 1 || touching[0] !== field || !from) {
      parts.push(`${columnName(field)} = ${fromDoc}`);
      columns.push('doc');
    } else if (field.includes('.') && from === '$set') {
      parts.push(`${columnName(field)} = CASE WHEN ${objectsAbove(field)} THEN ? ELSE ${fromDoc} END`);
      columns.push({ field, from, guarded: true });
    } else {
      // Unset, a field reads null whatever held it.
      parts.push(`${columnName(field)} = ?`);
      columns.push({ field, from, guarded: false });
    }
  }
  // The marker flipped: this store wrote the columns (guardColumns).
  if (layout.marker) parts.push(`"${layout.marker}" = (COALESCE("${layout.marker}", 0) = 0)`);
  return { sql: parts.join(', '), columns, statements: new Map() };
}

const PLANS_KEPT = 200;

/**
 * The SET of an UPDATE applying `update` (bound as `updateParam`: update-function.ts), and its
 * parameters before the WHERE's: `doc`, the columns of the fields the update can touch and the
 * marker. A field set alone to a plain value, or unset, is written as that value; any other
 * touched column reads the updated document
 * (mongo_apply: the same document mongo_update made for this row, kept by update-function.ts).
 */
export function updateSet(layout: Layout, update: Update, updateParam: SqlParam): { sql: string; params: (SqlParam | bigint)[]; plan: SetPlan } {
  let shape = '';
  for (const op of ['$set', '$unset', '$inc'] as const) {
    const fields = update[op];
    if (!fields) continue;
    shape += op;
    for (const key in fields) {
      shape += `\u0000${key}`;
      if (op === '$set' && layout.fields.has(key)) shape += literal(fields[key]) ? '\u0000l' : '\u0000d';
    }
  }
  let plan = layout.plans.get(shape);
  if (!plan) {
    plan = planSet(layout, update);
    if (layout.plans.size >= PLANS_KEPT) layout.plans.clear();
    layout.plans.set(shape, plan);
  }
  const params: (SqlParam | bigint)[] = [updateParam];
  for (const column of plan.columns) {
    if (column === 'doc') params.push(updateParam);
    else params.push(column.from === '$unset' ? null : literal(update.$set?.[column.field])!.value);
    if (column !== 'doc' && column.guarded) params.push(updateParam);
  }
  return { sql: plan.sql, params, plan };
}
