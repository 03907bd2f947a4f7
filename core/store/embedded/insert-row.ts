// The INSERT of a document and its indexed fields' columns (columns.ts). A column is bound to the
// value JavaScript reads at its field when that value is plain (a string, a safe integer, a boolean,
// null, a date, or nothing: what json_extract reads from the stored text, as an update's SET binds
// it: columns.ts's `literal`); otherwise SQLite reads it from the text (json_extract), as it does
// for an array or an object on the field's path. SQLite then parses no document text to fill the
// columns of a document the engine writes (a job, a task record): 2-3 us of a start's two inserts.
import { columnName, literal, type Layout } from './columns';
import { fieldExpr, type SqlParam } from './sql';

/** Keyed by the layout object (a table's columns as read), checked by table; by which columns are bound. */
const inserts = new WeakMap<Layout, { table: string; fields: string[][]; byBound: Map<number, string> }>();

/** A layout's fields as paths, and its statements by which columns are bound (made once per layout). */
function insertsOf(table: string, layout: Layout) {
  let kept = inserts.get(layout);
  if (kept?.table !== table) inserts.set(layout, (kept = { table, fields: [...layout.fields].map((field) => field.split('.')), byBound: new Map() }));
  return kept;
}

/**
 * The INSERT of a document (`?1` the _id, `?2` its text, then the bound columns' values in the
 * layout's order): `bound` has a bit set for each column bound (1 << its index), the others read
 * from the text. Built once per layout and `bound`: a string made once keeps the hash the statement
 * cache looks it up by.
 */
export function insertSql(table: string, layout: Layout, bound = 0): string {
  const kept = insertsOf(table, layout);
  let sql = kept.byBound.get(bound);
  if (sql === undefined) kept.byBound.set(bound, (sql = insertText(table, layout, bound)));
  return sql;
}

function insertText(table: string, layout: Layout, bound: number): string {
  const fields = [...layout.fields];
  const columns = ['_id', 'doc', ...fields.map(columnName), ...(layout.marker ? [`"${layout.marker}"`] : [])];
  let param = 2;
  const read = (field: string, i: number) => (bound & (1 << i) ? `?${++param}` : fieldExpr(field).replace('(doc,', '(?2,'));
  // The marker written (0): the row's columns are this store's (guardColumns).
  const values = ['?1', '?2', ...fields.map(read), ...(layout.marker ? ['0'] : [])];
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')})`;
}

/** An object JSON.stringify writes as its own keys: a plain object without a toJSON of its own. */
function plainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof Reflect.get(value, 'toJSON') !== 'function';
}

/** What json_extract reads at `path` of the text `doc` is stored as, when JavaScript can tell it at once; undefined otherwise. */
function plainAt(doc: Record<string, unknown>, path: readonly string[]): { value: SqlParam | bigint } | undefined {
  let node: unknown = doc;
  for (const segment of path) {
    // Below a missing field, null or a plain value, json_extract reads null; an array, a date or another object: SQLite reads it.
    if (!plainObject(node)) return node === undefined || node === null || typeof node === 'string' || typeof node === 'boolean' ? { value: null } : undefined;
    node = Object.prototype.propertyIsEnumerable.call(node, segment) ? node[segment] : undefined;
  }
  // JSON.stringify leaves a field holding undefined out: json_extract reads null. A string with a
  // UTF-16 surrogate: SQLite reads it (a lone one is written as an escape JavaScript does not bind alike).
  if (node === undefined) return { value: null };
  return typeof node === 'string' && SURROGATE.test(node) ? undefined : literal(node);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The insert of `doc` into a table of `layout`: its statement and the bound columns' values (after the _id and the text). */
export function insertRow<D extends Record<string, unknown>>(table: string, layout: Layout, doc: D): { doc: D; sql: string; values: (SqlParam | bigint)[] } {
  const { fields } = insertsOf(table, layout);
  let bound = 0;
  const values: (SqlParam | bigint)[] = [];
  // More columns than bits: every one read from the text.
  if (fields.length <= 30 && plainObject(doc)) {
    for (const [i, path] of fields.entries()) {
      const plain = plainAt(doc, path);
      if (!plain) continue;
      bound |= 1 << i;
      values.push(plain.value);
    }
  }
  return { doc, sql: insertSql(table, layout, bound), values };
}
