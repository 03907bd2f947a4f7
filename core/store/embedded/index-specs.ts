// MongoDB index specifications (key order, direction, name, options) in the
// embedded store: kept as written in the `_indexes` table, and served by SQLite
// expression indexes on the same fields. `indexes.json` is where the previous
// file format kept them (read by the migration).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { IndexSpec } from '../port';
import { StoreError } from '../errors';
import { jsonPath, sqlLiteral, type Fields } from './sql';
import { errorMessage, systemErrorCode } from '../../errors';

export const ID_INDEX: IndexSpec = { key: { _id: 1 }, name: '_id_' };

type IndexFile = { collections: Record<string, IndexSpec[]> };

export const indexFile = (dir: string) => path.join(dir, 'indexes.json');

export async function readIndexFile(dir: string): Promise<Record<string, IndexSpec[]>> {
  const file = indexFile(dir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as IndexFile;
    return parsed.collections ?? {};
  } catch (error) {
    throw new StoreError('damaged', `damaged index file ${file}: ${errorMessage(error)}. Restore it from a backup or remove it (the indexes are then created again by indexing).`);
  }
}


/** The spec as listed: only options that are set, like MongoDB's listIndexes. */
export function normalizeSpec(spec: IndexSpec): IndexSpec {
  const out: IndexSpec = { key: { ...spec.key }, name: spec.name };
  if (spec.unique) out.unique = true;
  if (spec.sparse) out.sparse = true;
  if (spec.expireAfterSeconds !== undefined) out.expireAfterSeconds = spec.expireAfterSeconds;
  if (spec.partialFilterExpression !== undefined) out.partialFilterExpression = spec.partialFilterExpression;
  return out;
}

const sameKey = (a: IndexSpec, b: IndexSpec) => JSON.stringify(Object.entries(a.key)) === JSON.stringify(Object.entries(b.key));
export const sameSpec = (a: IndexSpec, b: IndexSpec) =>
  JSON.stringify(normalizeSpec(a)) === JSON.stringify(normalizeSpec(b));

/** MongoDB's rules: a name is one definition, and one key has one name. */
export function checkNewSpec(collection: string, existing: IndexSpec[], spec: IndexSpec): 'exists' | 'new' {
  if (Object.keys(spec.key).length === 0) throw new StoreError('invalid', `index ${spec.name} on ${collection} has an empty key`);
  const byName = existing.find((s) => s.name === spec.name);
  if (byName) {
    if (sameSpec(byName, spec)) return 'exists';
    throw new StoreError('index-conflict', `index ${spec.name} on ${collection} already exists with another definition`);
  }
  const byKey = existing.find((s) => sameKey(s, spec));
  if (byKey) {
    throw new StoreError('index-conflict', `an index on ${collection} with the same key already exists with another name: ${byKey.name}`);
  }
  return 'new';
}

/** The SQLite name of a collection's table and of one of its indexes. */
export const tableName = (collection: string) => `"c:${collection}"`;
export const sqlIndexName = (collection: string, index: string) => `"i:${collection}:${index.replaceAll('"', '""')}"`;

/**
 * A partial index's condition in SQL. The embedded store takes, for one or more fields,
 * `{ field: { $exists: true } }` as `json_extract(...) IS NOT NULL`, `{ field: true|false }` as
 * `json_extract(...) = 1|0` and `{ field: 'text' }` as `json_extract(...) = 'text'`: the
 * expressions its queries compare (a boolean is compared as that literal, and so is a string a
 * partial index names: `partialLiterals`), so SQLite uses the index for a query that implies
 * the condition (`field = ?` and `field < ?` imply the field is not null), and for no other
 * query. An `$exists` index leaves out documents where the field holds null too, and a boolean
 * one takes in documents holding 0 or 1: no query it is used for tells otherwise.
 */
function partialWhere(collection: string, spec: IndexSpec, layout: Fields): string | undefined {
  const filter = spec.partialFilterExpression;
  if (filter === undefined) return undefined;
  const unsupported = (why: string) =>
    new StoreError('invalid', `index ${spec.name} on ${collection}: partialFilterExpression ${why}; the embedded store takes { "<field>": { "$exists": true } }, { "<field>": true | false } and { "<field>": "<text>" } conditions`);
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) throw unsupported('must be an object');
  const fields = Object.entries(filter);
  if (fields.length === 0) throw unsupported('is empty');
  return fields
    .map(([field, condition]) => {
      if (field.startsWith('$') || field === '_id') throw unsupported(`has ${JSON.stringify({ [field]: condition })}`);
      if (typeof condition === 'boolean') return `${layout.expr(field)} = ${condition ? 1 : 0}`;
      if (typeof condition === 'string' && !condition.startsWith('\uFDD0')) return `${layout.expr(field)} = ${sqlLiteral(condition)}`;
      const exists = condition !== null && typeof condition === 'object' && JSON.stringify(condition) === '{"$exists":true}';
      if (!exists) throw unsupported(`has ${JSON.stringify({ [field]: condition })}`);
      return `${layout.expr(field)} IS NOT NULL`;
    })
    .join(' AND ');
}

/** The text values a partial index compares fields with: queries write them as literals (sql.ts). */
export function partialLiterals(spec: IndexSpec): [string, string][] {
  return Object.entries(spec.partialFilterExpression ?? {}).flatMap(([field, condition]): [string, string][] =>
    typeof condition === 'string' && !field.startsWith('$') ? [[field, condition]] : [],
  );
}

/** The fields an index reads: its key's and its partial filter's (each gets a column, columns.ts). */
export function indexedFields(spec: IndexSpec): string[] {
  return [...Object.keys(spec.key), ...Object.keys(spec.partialFilterExpression ?? {}).filter((f) => !f.startsWith('$'))].filter((f) => f !== '_id');
}

/**
 * The index serving a spec, on the fields' columns. A unique sparse index leaves out documents
 * without its first field (a partial index), as MongoDB's sparse index does: one holding null
 * is in it, so that condition reads the document's JSON type, not the column.
 *
 * Its columns ascend whatever the key's directions (`descending`: as an earlier version built them,
 * which column-upgrade.ts leaves as they are). SQLite reads an index either way: a key of one
 * direction, and one whose fields before the descending one a query gives equal (`{ status: 1,
 * 'metrics.start_time': -1 }` for a status, newest first), serve as before; only a sort in mixed
 * directions with no such equality is sorted by SQLite instead. Built descending, an index of rising
 * values (start times) took each new entry at its first page, which split half empty.
 */
export function createIndexSql(collection: string, spec: IndexSpec, fields: Fields, descending = false): string {
  const columns = Object.entries(spec.key).map(([field, direction]) => `${fields.expr(field)}${descending && direction === -1 ? ' DESC' : ''}`);
  const first = Object.keys(spec.key)[0]!;
  const partial = partialWhere(collection, spec, fields);
  const where = partial ? ` WHERE ${partial}` : spec.unique && spec.sparse ? ` WHERE json_type(doc, '${jsonPath(first).replaceAll("'", "''")}') IS NOT NULL` : '';
  return `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${sqlIndexName(collection, spec.name)} ON ${tableName(collection)} (${columns.join(', ')})${where}`;
}
