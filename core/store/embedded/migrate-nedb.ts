// Converts a profile's `db` folder from the previous embedded format (one
// newline-delimited JSON file per collection, `<name>.db`, appended to on every
// write, plus `indexes.json`) into the SQLite file, once, at the first open:
//   - each file is replayed as its datastore did: the last line of an _id wins,
//     `{"$$deleted": true}` removes it, `$$indexCreated`/`$$indexRemoved` lines are
//     the datastore's own and skipped (the index specs come from indexes.json),
//     `{"$$date": ms}` is a date;
//   - a damaged line stops the conversion, naming the file and line (nothing is
//     converted, and the files are left as they are);
//   - everything is written in one transaction, with the documents counted back per
//     collection before it commits;
//   - the old files are then moved to `nedb-backup-<time>/` in the same folder.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Doc, IndexSpec } from '../port';
import { StoreError } from '../errors';
import { encodeDoc } from './codec';
import type { SqliteDatabase } from './database';
import { createIndexSql, indexedFields, indexFile, readIndexFile, tableName } from './index-specs';
import { addColumns } from './columns';
import { errorMessage, systemErrorCode } from '../../errors';

export interface MigrationProgress {
  phase: 'reading' | 'writing' | 'done';
  collection?: string;
  /** Collections handled so far, of `collections`. */
  done: number;
  collections: number;
  /** Documents converted so far. */
  documents: number;
  message: string;
}

const MIGRATED = 'migrated-from-nedb';

/** NeDB's `{ $$date: ms }` as a Date, at any depth. */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$$date') {
      const at: unknown = Reflect.get(value, '$$date');
      return new Date(typeof at === 'number' || typeof at === 'string' ? at : NaN);
    }
    return reviveFields(value);
  }
  return value;
}

function reviveFields(record: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) out[key] = revive(item);
  return out;
}

/** The documents a datastore file holds, replayed in order. */
export async function readNedbFile(file: string): Promise<Doc[]> {
  const text = await fs.readFile(file, 'utf8');
  const docs = new Map<string, Doc>();
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const damaged = (why: string) =>
      new StoreError('damaged', `damaged store file ${file}, line ${i + 1}: ${why}. Nothing was converted; restore the file from a backup or remove the damaged line, then start again.`);
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw damaged(`not valid JSON (${errorMessage(error)})`);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw damaged('not a document');
    const r = reviveFields(record);
    if (r.$$indexCreated !== undefined || r.$$indexRemoved !== undefined) continue;
    if (typeof r._id !== 'string' || r._id === '') throw damaged('a document without a string _id');
    if (r.$$deleted === true) docs.delete(r._id);
    else docs.set(r._id, { ...r, _id: r._id });
  }
  return [...docs.values()];
}

/** The collection files of a folder in the previous format (none once converted). */
export async function nedbFiles(dir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(dir);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return [];
    throw error;
  }
  return entries.filter((f) => f.endsWith('.db') && !f.startsWith('.')).sort();
}

export async function migrateNedbFolder(dir: string, database: SqliteDatabase, onProgress?: (p: MigrationProgress) => void): Promise<void> {
  const files = await nedbFiles(dir);
  if (!files.length) return;
  const meta = database.statement(`SELECT value FROM _meta WHERE key = ?`).get(MIGRATED);
  if (!meta) {
    const report = (p: Omit<MigrationProgress, 'collections'>) => onProgress?.({ ...p, collections: files.length });
    const specs = await readIndexFile(dir);
    const collections: { name: string; docs: Doc[] }[] = [];
    let documents = 0;
    for (const [i, f] of files.entries()) {
      const name = f.slice(0, -3);
      report({ phase: 'reading', collection: name, done: i, documents, message: `reading ${f} (${i + 1} of ${files.length})` });
      const docs = await readNedbFile(path.join(dir, f));
      collections.push({ name, docs });
      documents += docs.length;
    }
    let written = 0;
    database.writeSync(() => {
      for (const [i, { name, docs }] of collections.entries()) {
        report({ phase: 'writing', collection: name, done: i, documents: written, message: `converting ${name}: ${docs.length} documents` });
        writeCollection(database, name, docs, specs[name] ?? []);
        const counted = Number(database.statement(`SELECT count(*) AS n FROM ${tableName(name)}`).get()?.n);
        if (counted < docs.length) {
          throw new StoreError('failed', `converting ${name}: ${docs.length} documents read, ${counted} written; nothing was converted`);
        }
        written += docs.length;
      }
      database.statement(`INSERT INTO _meta (key, value) VALUES (?, ?)`).run(MIGRATED, JSON.stringify({ at: new Date().toISOString(), dir, collections: files.length, documents }));
    });
    report({ phase: 'done', done: files.length, documents, message: `converted ${files.length} collections, ${documents} documents, into ${database.file}` });
  }
  await backUp(dir, files);
}

function writeCollection(database: SqliteDatabase, name: string, docs: Doc[], specs: IndexSpec[]) {
  const table = tableName(name);
  database.ensureTable(name, table);
  const insert = database.statement(database.layouts.get(database, table).generatedId ? `INSERT INTO ${table} (doc) VALUES (?2)` : `INSERT INTO ${table} (_id, doc) VALUES (?1, ?2)`);
  for (const doc of docs) insert.run(String(doc._id), encodeDoc(doc));
  const layout = addColumns(database, table, specs.flatMap(indexedFields));
  for (const [seq, spec] of specs.entries()) {
    database.db.exec(createIndexSql(name, spec, layout));
    database.statement(`INSERT OR REPLACE INTO _indexes (collection, name, seq, spec) VALUES (?, ?, ?, ?)`).run(name, spec.name, seq + 1, JSON.stringify(spec));
  }
}

/** Moves the converted files (and indexes.json) aside, kept as they were. */
async function backUp(dir: string, files: string[]) {
  const backup = path.join(dir, `nedb-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await fs.mkdir(backup, { recursive: true });
  for (const f of [...files, path.basename(indexFile(dir))]) {
    await fs.rename(path.join(dir, f), path.join(backup, f)).catch((error: NodeJS.ErrnoException) => {
      // indexes.json is absent when no index was ever declared.
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
