// MongoDB's query semantics for a field whose path may cross an array: the SQL function
// mongo_match (sql.ts). SQL alone reads one value per path (json_extract); MongoDB reads every
// value the path reaches through arrays (`{tags: 'a'}` matches `tags: ['a', 'b']`, `{'items.k': 2}`
// matches `items: [{k: 1}, {k: 2}]`). sql.ts calls this only for rows where some part of the
// path holds an array, so the plain rows keep their columns and indexes.
import { decodeDoc, encodeScalar } from './codec';
import { StoreError } from '../errors';

const MISSING = Symbol('missing');
type Reached = unknown;

const INDEX = /^(0|[1-9][0-9]*)$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date) && !(v instanceof RegExp);

/** Every value `segments` reach from `value`, MongoDB's way: through arrays of documents, by an array's index too; MISSING where a path ends. */
export function reach(value: unknown, segments: readonly string[]): Reached[] {
  const out: Reached[] = [];
  walk(value, segments, { from: 0, item: false }, out);
  return out;
}

/** `at.item`: `value` is a document item of an array (its missing field reaches nothing). */
function walk(value: unknown, segments: readonly string[], at: { from: number; item: boolean }, out: Reached[]) {
  const { from, item } = at;
  if (from === segments.length) {
    out.push(value);
    return;
  }
  const segment = segments[from]!;
  if (Array.isArray(value)) {
    // An index names the array's item (as mingo reads it): past the end, a missing field.
    if (INDEX.test(segment)) {
      if (Number(segment) < value.length) walk(value[Number(segment)], segments, { from: from + 1, item: false }, out);
      else out.push(MISSING);
      return;
    }
    // A field name reaches into the items that are documents; the others reach nothing, not even a missing field (`{"a.b": null}` does not match `a: [1]`).
    for (const each of value) if (isObject(each)) walk(each, segments, { from, item: true }, out);
    return;
  }
  if (isObject(value) && Object.hasOwn(value, segment)) return walk(value[segment], segments, { from: from + 1, item: false }, out);
  // A document item of an array without the field reaches nothing (as mingo answers: `{'a.k': null}` does not match `a: [{}]`).
  if (!item) out.push(MISSING);
}

/** BSON's equality: numbers by value, dates by time, documents by their fields in order, arrays item by item. */
export function bsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => bsonEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && bsonEqual(a[k], b[k]));
  }
  return false;
}

/** A comparison within MongoDB's type brackets: numbers with numbers, strings with strings, dates with dates; undefined otherwise. */
function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return undefined;
}

/** A value or, when it is an array, any of its items (MongoDB's implicit array traversal). */
const anyOf = (value: unknown, test: (v: unknown) => boolean) => test(value) || (Array.isArray(value) && value.some(test));

function equals(values: Reached[], operand: unknown): boolean {
  if (operand === null) return values.some((v) => v === MISSING || v === null || (Array.isArray(v) && v.some((item) => item === null)));
  return values.some((v) => v !== MISSING && anyOf(v, (item) => bsonEqual(item, operand)));
}

function regexOf(operand: unknown): RegExp {
  if (operand instanceof RegExp) return operand;
  if (isObject(operand) && typeof operand.$regex === 'string') return new RegExp(operand.$regex, String(operand.$options ?? '').replace(/[^ims]/g, ''));
  throw new StoreError('invalid', 'unsupported query operator $regex form');
}

/** Whether the values a path reached satisfy one operator with its operand. */
export function matchOperator(values: Reached[], op: string, operand: unknown): boolean {
  switch (op) {
    case '$eq':
      return operand instanceof RegExp ? matchOperator(values, '$regex', operand) : equals(values, operand);
    case '$ne':
      return !equals(values, operand);
    case '$in':
      return (operand as unknown[]).some((item) => matchOperator(values, '$eq', item));
    case '$nin':
      return !matchOperator(values, '$in', operand);
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte': {
      const holds = (item: unknown) => {
        const order = compare(item, operand);
        if (order === undefined) return false;
        return op === '$lt' ? order < 0 : op === '$lte' ? order <= 0 : op === '$gt' ? order > 0 : order >= 0;
      };
      return values.some((v) => v !== MISSING && anyOf(v, holds));
    }
    case '$exists':
      return values.some((v) => v !== MISSING) === Boolean(operand);
    case '$size':
      return values.some((v) => Array.isArray(v) && v.length === operand);
    case '$all': {
      const all = operand as unknown[];
      // MongoDB's documentation: `{f: {$all: [x, y]}}` is `{$and: [{f: x}, {f: y}]}`, on an array field or not.
      return all.length > 0 && all.every((item) => matchOperator(values, '$eq', item));
    }
    case '$elemMatch':
      return values.some((v) => Array.isArray(v) && v.some((item) => elementMatches(item, operand)));
    case '$regex': {
      const regex = regexOf(operand);
      return values.some((v) => v !== MISSING && anyOf(v, (item) => typeof item === 'string' && regex.test(item)));
    }
    default:
      throw new StoreError('invalid', `unsupported query operator ${op}`);
  }
}

function isOperators(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

/** One field's condition (a value, a RegExp, or operators) on the values its path reached. */
export function matchCondition(values: Reached[], condition: unknown): boolean {
  if (condition instanceof RegExp) return matchOperator(values, '$regex', condition);
  if (!isOperators(condition)) return matchOperator(values, '$eq', condition);
  return Object.entries(condition).every(([op, operand]) => {
    if (op === '$options') return true;
    if (op === '$regex') return matchOperator(values, '$regex', { $regex: operand instanceof RegExp ? operand.source : operand, $options: operand instanceof RegExp ? operand.flags : condition.$options });
    return matchOperator(values, op, operand);
  });
}

/** $elemMatch's condition on one item: operators on the item itself, or a filter on an item that is a document. */
function elementMatches(item: unknown, condition: unknown): boolean {
  if (condition instanceof RegExp) return matchCondition([item], condition);
  if (isOperators(condition) && !('$and' in condition) && !('$or' in condition)) return matchCondition([item], condition);
  return isObject(item) && matchDocument(item, condition as Record<string, unknown>);
}

/** A whole filter on a document ($and, $or and fields), as MongoDB matches it. */
export function matchDocument(doc: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === '$and') return (condition as Record<string, unknown>[]).every((f) => matchDocument(doc, f));
    if (key === '$or') return (condition as Record<string, unknown>[]).some((f) => matchDocument(doc, f));
    if (key.startsWith('$')) throw new StoreError('invalid', `unsupported query operator ${key}`);
    return matchCondition(reach(doc, key.split('.')), condition);
  });
}

/** A pattern as operandJson writes it (`{$regex, $options}` alone) back to a RegExp: an item of $in, $nin or $all. */
function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (isObject(value) && typeof value.$regex === 'string' && Object.keys(value).every((k) => k === '$regex' || k === '$options')) return regexOf(value);
  return value;
}

/** A bound scalar operand (a date as its encoded text) as the value it stands for. */
function scalarOperand(operand: unknown): unknown {
  if (typeof operand === 'bigint') return Number(operand);
  if (typeof operand === 'string') return decodeDoc<{ v: unknown }>(`{"v":${JSON.stringify(operand)}}`).v;
  return operand;
}

/** Whether the field's values satisfy `op` with `operand`: `first` the JSON of the path's first field (`doc -> '$."a"'`, NULL when missing), `rest` the rest of the path ('' for none). */
function test(first: unknown, rest: unknown, op: unknown, operand: unknown): number {
  const value = first === null || first === undefined ? MISSING : decodeDoc(String(first));
  const path = String(rest);
  const values = value === MISSING ? [MISSING] : path === '' ? [value] : reach(value, path.split('.'));
  return matchOperator(values, String(op), operand) ? 1 : 0;
}

/** The SQL functions mongo_match (an operand as operandJson's text, decoded once per text) and mongo_match_value (a bound scalar). */
export class MatchCache {
  private readonly operands = new Map<string, unknown>();

  readonly json = (first: unknown, rest: unknown, op: unknown, operand: unknown): number => test(first, rest, op, this.operand(String(operand)));

  readonly value = (first: unknown, rest: unknown, op: unknown, operand: unknown): number => test(first, rest, op, scalarOperand(operand));

  private operand(text: string): unknown {
    if (this.operands.has(text)) return this.operands.get(text);
    if (this.operands.size >= 200) this.operands.clear();
    const value = revive(decodeDoc<{ v: unknown }>(text).v);
    this.operands.set(text, value);
    return value;
  }
}

/** The JSON text mongo_match reads an operand from (dates kept by the codec's mark). */
export const operandJson = (operand: unknown) => JSON.stringify({ v: encodeForJson(operand) });

function encodeForJson(value: unknown): unknown {
  if (value instanceof RegExp) return { $regex: value.source, $options: value.flags };
  if (value instanceof Date || typeof value === 'string') return encodeScalar(value);
  if (Array.isArray(value)) return value.map(encodeForJson);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encodeForJson(v)]));
  return value;
}
