// MongoDB's sort order in SQL. MongoDB orders values of different types by BSON type (missing
// and null < numbers < strings < objects < arrays < booleans < dates), compares objects field
// by field, and sorts a document by the smallest item of an array (ascending) or its largest
// (descending), an empty array before null. SQLite orders NULL < numbers < text, reads a boolean
// as 1/0 and an object or array as its JSON text: the same order only while the sorted values
// are null, numbers, strings and dates (codec.ts's marked text) alone.
//
// So a sorted find on indexed fields first asks whether any document holds something else at a
// sort field (`impureSql`: a few range probes on the fields' columns, or on the rows the filter
// matches when a field leads no index); when none does, the plain
// ORDER BY stands and keeps its index; otherwise, and for a field without a column, the rows are
// ordered by `mongo_sort_key`, a text whose binary order is MongoDB's order. A claim (a findOneAndUpdate's `first` row) keeps the plain
// order: the engine sorts its claims on fields it writes as numbers only.
import type { Sort } from '../port';
import { decodeDoc } from './codec';
import { jsonPath, type Fields } from './sql';

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;
const MARK = '\uFDD0';
const DATE = `${MARK}D`;

/** Type brackets, as characters below every character a key holds in them (0 ends an object or array). */
const EMPTY_ARRAY = '\u0001';
const NULL = '\u0002';
const NUMBER = '\u0003';
const STRING = '\u0004';
const OBJECT = '\u0005';
const ARRAY = '\u0006';
const BOOLEAN = '\u0008';
const DATE_KEY = '\u0009';

const buffer = new DataView(new ArrayBuffer(8));
/** A number as 16 hex digits whose text order is the numbers' order (-0 as 0). */
function numberKey(n: number): string {
  buffer.setFloat64(0, n === 0 ? 0 : n);
  let hi = buffer.getUint32(0);
  let lo = buffer.getUint32(4);
  if (hi >>> 31) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else hi = (hi | 0x80000000) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** One value's key: its type bracket first, then what orders it within the bracket. */
export function valueKey(value: unknown): string {
  if (value === null || value === undefined) return NULL;
  if (typeof value === 'number') return NUMBER + numberKey(value);
  if (typeof value === 'string') return `${STRING}${value}\u0000`;
  if (typeof value === 'boolean') return BOOLEAN + (value ? '1' : '0');
  if (value instanceof Date) return DATE_KEY + numberKey(value.getTime());
  if (Array.isArray(value)) return `${ARRAY}${value.map(valueKey).join('')}\u0000`;
  if (typeof value === 'object') {
    // MongoDB compares the fields in order: each by its value's type, then its name, then its value.
    let key = OBJECT;
    for (const [name, field] of Object.entries(value)) {
      if (field === undefined) continue;
      const inner = valueKey(field);
      key += `${inner[0]}${name}\u0000${inner}`;
    }
    return `${key}\u0000`;
  }
  return NULL;
}

/** The values a dotted path reaches, through arrays of documents as MongoDB reads them (a missing one as null). */
function reach(node: unknown, segments: string[], out: unknown[]): void {
  if (segments.length === 0) {
    if (Array.isArray(node)) {
      if (node.length === 0) out.push(EMPTY);
      else out.push(...node);
    } else out.push(node);
    return;
  }
  const [segment = '', ...rest] = segments;
  if (Array.isArray(node)) {
    // A path through an empty array reads as the empty array (before null), as MongoDB's sort key.
    if (node.length === 0) return void out.push(EMPTY);
    if (/^\d+$/.test(segment) && Number(segment) < node.length) return reach(node[Number(segment)], rest, out);
    const before = out.length;
    for (const item of node) {
      if (item !== null && typeof item === 'object' && !(item instanceof Date)) reach(item, segments, out);
    }
    // No item a path goes on through: read as the empty array (as mingo does, MongoDB's undefined).
    if (out.length === before) out.push(EMPTY);
    return;
  }
  if (node === null || typeof node !== 'object' || node instanceof Date) return void out.push(null);
  reach(Reflect.get(node, segment), rest, out);
}
/** Stands for an empty array in what `reach` gathers. */
const EMPTY = Symbol('empty array');

/**
 * SQL's mongo_sort_key(type, value, rest, direction): the key of a document for one sort field,
 * given `json_type` and `json_extract` of the field's first segment and the segments after it.
 */
export function sortKey(type: unknown, value: unknown, rest: unknown, direction: unknown): string {
  let top: unknown = value;
  if (type === 'true' || type === 'false') top = type === 'true';
  else if (type === 'object' || type === 'array') top = decodeDoc(String(value));
  else if (typeof value === 'string' && value.startsWith(MARK)) top = decodeDoc(JSON.stringify(value));
  const found: unknown[] = [];
  reach(top, rest ? String(rest).split('.') : [], found);
  return bestKey(found, direction);
}

/** Orders documents by `sort` as MongoDB does (each field's key as mongo_sort_key makes it). */
export function bySort(sort: Sort): (a: object, b: object) => number {
  const fields = Object.entries(sort);
  const key = (doc: object, field: string, direction: number) => {
    const found: unknown[] = [];
    reach(doc, field.split('.'), found);
    return bestKey(found, direction);
  };
  return (a, b) => {
    for (const [field, direction] of fields) {
      const [ka, kb] = [key(a, field, direction), key(b, field, direction)];
      if (ka !== kb) return (ka < kb ? -1 : 1) * (direction === -1 ? -1 : 1);
    }
    return 0;
  };
}

/** The key a sort reads of the values a path reaches: the smallest (ascending) or the largest (descending). */
function bestKey(found: unknown[], direction: unknown): string {
  if (found.length === 0) return NULL;
  let best: string | undefined;
  for (const item of found) {
    const key = item === EMPTY ? EMPTY_ARRAY : valueKey(item);
    if (best === undefined || (Number(direction) < 0 ? key > best : key < best)) best = key;
  }
  return best ?? NULL;
}

/** The SQL of the plain ORDER BY (SQLite's order; an index on the fields serves it). */
export function plainSort(sort: Sort | undefined, fields: Fields): string {
  const entries = Object.entries(sort ?? {});
  if (!entries.length) return '';
  return ` ORDER BY ${entries.map(([field, direction]) => `${fields.expr(field)} ${direction === -1 ? 'DESC' : 'ASC'}`).join(', ')}`;
}

/** The SQL of MongoDB's ORDER BY (by mongo_sort_key). */
export function exactSort(sort: Sort): string {
  const terms = Object.entries(sort).map(([field, direction]) => {
    const order = direction === -1 ? 'DESC' : 'ASC';
    if (field === '_id') return `_id ${order}`;
    const [first, ...rest] = field.split('.');
    const path = quote(jsonPath(first ?? field));
    return `mongo_sort_key(json_type(doc, ${path}), json_extract(doc, ${path}), ${quote(rest.join('.'))}, ${direction === -1 ? -1 : 1}) ${order}`;
  });
  return ` ORDER BY ${terms.join(', ')}`;
}

/**
 * How a sort is answered: undefined when SQLite's order is MongoDB's whatever the values (a sort on
 * `_id` alone), 'exact' when only mongo_sort_key can tell (a field without a column, or one a
 * document holds an array on the path of), else one SELECT of `table` whose answer says whether any
 * document holds, at a sort field, a value SQLite orders otherwise: a boolean, an object, an array,
 * a string past the date mark. With `where` unset, each of its EXISTS is a range on the field's
 * column over the whole collection, for fields that lead an index (a few index probes); a field
 * that does not (runAfter, third in the claim's index) would make each a scan of the collection,
 * so the probes are asked of the rows the find's filter `where` matches only (as the find reads them).
 */
export function impureSql(sort: Sort | undefined, fields: Fields, table: string, where?: string): string | 'exact' | undefined {
  const keys = Object.keys(sort ?? {}).filter((field) => field !== '_id');
  if (keys.length === 0) return undefined;
  const arrayFree = fields.arrayFree?.(keys) ?? [];
  const probes: string[] = [];
  for (const [i, field] of keys.entries()) {
    const e = fields.expr(field);
    // A column reads as its quoted name ("k:field", columns.ts); any other field as json_extract of the document.
    if (!e.startsWith('"k:') || !arrayFree[i]) return 'exact';
    const path = quote(jsonPath(field));
    probes.push(
      `${e} IN (0, 1) AND json_type(doc, ${path}) IN ('true', 'false')`,
      `${e} >= '{' AND ${e} < '|' AND json_type(doc, ${path}) = 'object'`,
      `${e} >= ${quote(MARK)} AND ${e} < ${quote(DATE)}`,
      `${e} >= ${quote(`${MARK}E`)}`,
    );
  }
  if (where !== undefined) return `SELECT EXISTS (SELECT 1 FROM ${table} WHERE (${where}) AND (${probes.map((p) => `(${p})`).join(' OR ')})) AS mixed`;
  return `SELECT (${probes.map((p) => `EXISTS (SELECT 1 FROM ${table} WHERE ${p})`).join(' OR ')}) AS mixed`;
}
