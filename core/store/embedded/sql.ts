// MongoDB filters and sorts as SQL over JSON documents. A field reads as its column
// when the collection has one (columns.ts), otherwise as `json_extract(doc, '$."a"."b"')`:
// the same text the indexes are declared with (index-specs.ts), so SQLite's planner
// matches them to queries.
// Comparisons follow MongoDB's type brackets: a range on a number never matches
// a string, a range on a string never matches a number or a date.
import type { Filter, Sort } from '../port';
import { StoreError } from '../errors';
import { encodeDoc, encodeScalar } from './codec';
import { operandJson } from './match';
import { ARRAY_OPERATORS, checkOperand, regexOperand, REUSABLE } from './operators';
import { inShape, JSON_LIKE, RANGE_SIGNS, rangeShape } from './filter-shapes';

export interface Sql {
  sql: string;
  params: SqlParam[];
}
export type SqlParam = string | number | null;

/** How the fields of one collection read in SQL (columns.ts's Layout). */
export interface Fields {
  readonly id: number;
  expr(field: string): string;
  /** Which of the fields no document holds an array anywhere on the path of now (a column's partial indexes say so): the plain SQL then answers alone. */
  arrayFree?(fields: readonly string[]): boolean[];
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The JSON path of a dotted field: `metrics.start_time` → `$."metrics"."start_time"`. */
export function jsonPath(field: string): string {
  const segments = field.split('.');
  for (const segment of segments) {
    if (segment === '' || segment.includes('"')) throw new StoreError('invalid', `field ${JSON.stringify(field)} cannot be queried: empty segment or a double quote`);
  }
  return `$${segments.map((s) => `."${s}"`).join('')}`;
}

/** The SQL expression reading a field. */
export function fieldExpr(field: string): string {
  if (field === '_id') return '_id';
  return `json_extract(doc, ${quote(jsonPath(field))})`;
}

/**
 * A field with a numeric segment (`ancestors.0`) names an array's element as MongoDB reads it, or
 * an object's key of that name: both paths are read, the array's element first.
 */
const INDEX_SEGMENT = /^(0|[1-9][0-9]{0,8})$/;
const hasIndexSegment = (field: string) => field.split('.').some((s) => INDEX_SEGMENT.test(s));
function elementPath(field: string): string {
  jsonPath(field);
  return `$${field.split('.').map((s) => (INDEX_SEGMENT.test(s) ? `[${s}]` : `."${s}"`)).join('')}`;
}
const eitherPath = (fn: string, field: string) => `COALESCE(${fn}(doc, ${quote(elementPath(field))}), ${fn}(doc, ${quote(jsonPath(field))}))`;

const typeExpr = (field: string) =>
  field === '_id' ? `'text'` : hasIndexSegment(field) ? eitherPath('json_type', field) : `json_type(doc, ${quote(jsonPath(field))})`;

/** A string, or NULL so that a comparison in a negation counts as not matched. */
const not = (sql: string) => `NOT COALESCE((${sql}), 0)`;

/**
 * Field values written into the SQL as literals, not bound: those a partial index's condition
 * names (`{ status: 'queued' }`), which SQLite matches against a query's literal only. A few
 * values per field, so the statements they make stay few.
 */
export type InlinedValues = ReadonlyMap<string, ReadonlySet<string>>;

export const sqlLiteral = (text: string) => quote(text);

class Compiler {
  readonly params: SqlParam[] = [];

  constructor(
    private readonly inlined: InlinedValues,
    private readonly fields: Fields,
    private readonly free: (field: string) => boolean,
  ) {}

  /** The SQL reading a field in a filter: an array's element by its index too (`ancestors.0`). */
  private expr(field: string): string {
    const expr = this.fields.expr(field);
    return expr.startsWith('json_extract(') && hasIndexSegment(field) ? eitherPath('json_extract', field) : expr;
  }

  bind(value: unknown): string {
    const v = encodeScalar(value);
    if (typeof v === 'string' || typeof v === 'number') {
      this.params.push(v);
      return '?';
    }
    if (typeof v === 'bigint') {
      this.params.push(Number(v));
      return '?';
    }
    throw new StoreError('invalid', `cannot compare with a value of type ${typeof v}`);
  }

  filter(filter: Filter): string {
    const terms: string[] = [];
    for (const [key, condition] of Object.entries(filter ?? {})) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(condition) || condition.length === 0) throw new StoreError('invalid', `${key} takes a non-empty array of filters`);
        const parts = condition.map((f) => `(${this.filter(f)})`);
        terms.push(`(${parts.join(key === '$and' ? ' AND ' : ' OR ')})`);
      } else if (key.startsWith('$')) {
        throw new StoreError('invalid', `unsupported query operator ${key}`);
      } else {
        terms.push(this.field(key, condition));
      }
    }
    return terms.length ? terms.join(' AND ') : '1';
  }

  private field(field: string, condition: unknown): string {
    if (field === '_id') return this.plainField(field, condition);
    const ops: [string, unknown][] =
      condition instanceof RegExp
        ? [['$regex', condition]]
        : isOperatorObject(condition)
          ? Object.entries(condition)
              .filter(([op]) => op !== '$options')
              .map(([op, operand]) => [op, op === '$regex' ? regexOperand(field, operand, condition.$options) : operand])
          : [['$eq', condition]];
    // $all, $elemMatch and $size read arrays only: MongoDB's semantics alone, by mongo_match.
    if (ops.some(([op]) => ARRAY_OPERATORS.has(op))) return `(${ops.map(([op, operand]) => this.match(field, op, operand)).join(' AND ')})`;
    const plain: string[] = [];
    const bound: (string | undefined)[] = [];
    for (const [op, operand] of ops) {
      const before = this.params.length;
      plain.push(op === '$regex' ? this.regex(field, operand, undefined) : this.operator(field, op, operand));
      // The operand bound once for the plain term is read again by its number (the filter cache binds it once).
      const reused = this.params.length === before + 1 && REUSABLE.has(op) && (typeof operand === 'string' || typeof operand === 'number' || operand instanceof Date);
      const inlined = op === '$eq' && this.params.length === before && typeof operand === 'string';
      bound.push(reused ? `?${before + 1}` : inlined ? quote(operand) : undefined);
    }
    // No document holds an array on the path: the plain SQL answers, with the column's index.
    if (this.free(field)) return plain.join(' AND ');
    const matches = ops.map(([op, operand], i) => this.match(field, op, operand, bound[i]));
    // Where no part of the path holds an array the plain SQL answers; elsewhere MongoDB's semantics.
    const { some, none } = this.arrays(field);
    // A lone $eq of a scalar on a one-part path: its plain SQL holds only where the field is that scalar, never an array.
    if (scalarEq(field, ops)) return `((${plain[0]}) OR (${some} AND ${matches[0]}))`;
    return `((${none} AND ${plain.join(' AND ')}) OR (${some} AND ${matches.join(' AND ')}))`;
  }

  /** A field's condition for _id (a scalar, never an array). */
  private plainField(field: string, condition: unknown): string {
    if (condition instanceof RegExp) return this.regex(field, condition.source, condition.flags);
    if (isOperatorObject(condition)) {
      const terms = Object.entries(condition)
        .filter(([op]) => op !== '$options')
        .map(([op, operand]) => (op === '$regex' ? this.regex(field, operand, condition.$options) : this.operator(field, op, operand)));
      return terms.join(' AND ');
    }
    return this.eq(field, condition);
  }

  /** mongo_match on a field for one operator; `bound` the SQL of an operand already bound as a scalar. */
  private match(field: string, op: string, operand: unknown, bound?: string): string {
    checkOperand(field, op, operand);
    const [first, ...rest] = field.split('.');
    const value = `doc -> ${quote(jsonPath(first!))}`;
    if (bound) return `mongo_match_value(${value}, ${quote(rest.join('.'))}, '${op}', ${bound})`;
    this.params.push(operandJson(operand));
    return `mongo_match(${value}, ${quote(rest.join('.'))}, '${op}', ?)`;
  }

  /** SQL telling whether some part of a field's path holds an array (`some`), and its negation (`none`); never NULL. */
  private arrays(field: string): { some: string; none: string } {
    const expr = this.fields.expr(field);
    if (!field.includes('.') && !expr.startsWith('json_extract(')) {
      // A column holds an array as its JSON text: a range of the column's index finds it.
      return { some: `(${expr} >= '[' AND ${expr} < '\\')`, none: `(${expr} IS NULL OR ${expr} < '[' OR ${expr} >= '\\')` };
    }
    const segments = field.split('.');
    const types = segments.map((_, i) => `COALESCE(json_type(doc, ${quote(jsonPath(segments.slice(0, i + 1).join('.')))}), '')`);
    return { some: `(${types.map((t) => `${t} = 'array'`).join(' OR ')})`, none: `(${types.map((t) => `${t} <> 'array'`).join(' AND ')})` };
  }

  /** MongoDB's $regex on a string field (a RegExp, or a pattern with `$options`), by the database's mongo_regex. */
  private regex(field: string, pattern: unknown, options: unknown): string {
    const regex = regexOperand(field, pattern, options);
    this.params.push(regex.source, regex.flags);
    return `mongo_regex(${this.expr(field)}, ?, ?)`;
  }

  private operator(field: string, op: string, operand: unknown): string {
    switch (op) {
      case '$eq':
        return this.eq(field, operand);
      case '$ne':
        return not(this.eq(field, operand));
      case '$in':
        return this.in(field, operand, op);
      case '$nin':
        return not(this.in(field, operand, op));
      case '$lt':
      case '$lte':
      case '$gt':
      case '$gte':
        return this.range(field, op, operand);
      case '$exists':
        return `${typeExpr(field)} IS ${operand ? 'NOT NULL' : 'NULL'}`;
      case '$size':
        if (typeof operand !== 'number' || !Number.isInteger(operand) || operand < 0) throw new StoreError('invalid', `$size on ${field} takes a whole number`);
        return `(${typeExpr(field)} = 'array' AND json_array_length(doc, ${quote(hasIndexSegment(field) ? elementPath(field) : jsonPath(field))}) = ${operand})`;
      default:
        throw new StoreError('invalid', `unsupported query operator ${op} on ${field}`);
    }
  }

  private eq(field: string, value: unknown): string {
    const expr = this.expr(field);
    if (value === null || value === undefined) return `${expr} IS NULL`;
    // json_extract reads true and false as 1 and 0: the JSON type tells them from numbers.
    if (typeof value === 'boolean') return `${expr} = ${value ? 1 : 0} AND ${typeExpr(field)} = '${value}'`;
    if (typeof value === 'number') return `${expr} = ${this.bind(value)} AND ${typeExpr(field)} IN ('integer', 'real')`;
    if (typeof value === 'object' && !(value instanceof Date)) {
      this.params.push(encodeDoc(value));
      return `${expr} = ? AND ${typeExpr(field)} IN ('object', 'array')`;
    }
    if (typeof value === 'string' && this.inlined.get(field)?.has(value)) return `${expr} = ${quote(value)}`;
    // An object or an array reads as its JSON text: a string like one is told apart by its type.
    if (typeof value === 'string' && JSON_LIKE.test(value)) return `${expr} = ${this.bind(value)} AND ${typeExpr(field)} = 'text'`;
    return `${expr} = ${this.bind(value)}`;
  }

  private in(field: string, values: unknown, op: string): string {
    if (!Array.isArray(values)) throw new StoreError('invalid', `${op} on ${field} takes an array`);
    if (values.length === 0) return '0';
    if (values.every((v) => (typeof v === 'string' && !JSON_LIKE.test(v)) || v instanceof Date)) {
      return `${this.expr(field)} IN (${values.map((v) => this.bind(v)).join(', ')})`;
    }
    return `(${values.map((v) => `(${this.eq(field, v)})`).join(' OR ')})`;
  }

  private range(field: string, op: '$lt' | '$lte' | '$gt' | '$gte' | string, value: unknown): string {
    const expr = this.expr(field);
    const sign = RANGE_SIGNS[op];
    if (!sign) throw new StoreError('invalid', `unsupported comparison ${op}`);
    const term = `${expr} ${sign} ${this.bind(value)}`;
    const upward = op === '$gt' || op === '$gte';
    // SQLite orders numbers < strings (dates are strings starting with U+FDD0 "D"): bound the other side.
    // json_extract reads true and false as 1 and 0, an object or an array as JSON text: the JSON type tells them apart.
    if (typeof value === 'number') return `${upward ? `${term} AND ${expr} < ''` : term} AND ${typeExpr(field)} IN ('integer', 'real')`;
    if (value instanceof Date) return upward ? `${term} AND ${expr} < '\uFDD0E'` : `${term} AND ${expr} >= '\uFDD0D'`;
    // A string: not a date nor a reference, the texts from U+FDD0 to U+FDD0 "S" (codec.ts), but one past them (U+FFFD, a lone surrogate as stored).
    if (typeof value === 'string') return `${upward ? term : `${term} AND ${expr} >= ''`} AND NOT (${expr} >= '\uFDD0' AND ${expr} < '\uFDD0S') AND ${typeExpr(field)} = 'text'`;
    throw new StoreError('invalid', `${op} on ${field} takes a number, a string or a date`);
  }
}

/** Whether `ops` is one $eq on a one-part path of a number, a boolean or a string not read as JSON text (eq's SQL checks the type). */
function scalarEq(field: string, ops: [string, unknown][]): boolean {
  const [op, operand] = ops.length === 1 ? ops[0]! : [];
  if (op !== '$eq' || field.includes('.')) return false;
  return typeof operand === 'number' || typeof operand === 'boolean' || (typeof operand === 'string' && !JSON_LIKE.test(operand));
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

const FLAT_KEPT = 500;

/** A filter compiled to SQL; kept by each database (database.ts), which compiles the same filters again and again. */
export class FilterCompiler {
  /** The SQL of filters whose every condition is a plain string or number, or a range on one (a lookup by id, a claim's fence, the claim), by fields and types. */
  private readonly flatFilters = new Map<string, string>();
  private readonly inlined = new Map<string, Set<string>>();

  /** Equality with `value` on `field` is written as a literal from now on (a partial index names it). */
  inline(field: string, value: string) {
    if (value.startsWith('\uFDD0')) return;
    const values = this.inlined.get(field) ?? new Set<string>();
    values.add(value);
    this.inlined.set(field, values);
    this.flatFilters.clear();
  }

  compile(filter: Filter, fields: Fields): Sql {
    // The same fields with values of the same types compile to the same SQL: only the values differ.
    let shape = `${fields.id}\u0000`;
    const params: SqlParam[] = [];
    // Asked once per field and compile; part of the shape, since it changes the SQL.
    const keys = Object.keys(filter).filter((key) => !key.startsWith('$'));
    const answers = fields.arrayFree?.(keys) ?? [];
    const freeFields = new Map<string, boolean>(keys.map((key, i) => [key, answers[i] ?? false]));
    const free = (field: string) => {
      let known = freeFields.get(field);
      if (known === undefined) freeFields.set(field, (known = fields.arrayFree?.([field])[0] ?? false));
      return known;
    };
    for (const key in filter) {
      shape += free(key) ? 'f' : 'a';
      const value = filter[key];
      if (typeof value === 'number') shape += `${key}\u0000n\u0000`;
      else if (typeof value === 'string' && this.inlined.get(key)?.has(value)) {
        shape += `${key}\u0000l${value}\u0000`;
        continue;
      } else if (typeof value === 'string' && !value.startsWith('\uFDD0') && !JSON_LIKE.test(value)) shape += `${key}\u0000s\u0000`;
      else {
        const range = rangeShape(value, params) ?? (free(key) || key === '_id' ? inShape(value, params) : undefined);
        if (range === undefined) {
          shape = '';
          break;
        }
        shape += `${key}\u0000${range}\u0000`;
        continue;
      }
      params.push(value);
    }
    const known = shape && this.flatFilters.get(shape);
    if (known) return { sql: known, params };
    const c = new Compiler(this.inlined, fields, free);
    const sql = c.filter(filter);
    if (shape) {
      if (this.flatFilters.size >= FLAT_KEPT) this.flatFilters.clear();
      this.flatFilters.set(shape, sql);
    }
    return { sql, params: c.params };
  }
}

export function compileSort(sort: Sort | undefined, fields: Fields): string {
  const entries = Object.entries(sort ?? {});
  if (!entries.length) return '';
  return ` ORDER BY ${entries.map(([field, direction]) => `${fields.expr(field)} ${direction === -1 ? 'DESC' : 'ASC'}`).join(', ')}`;
}

/**
 * A filter's `?N` (an operand it reads again by its number) counts from the filter's first
 * parameter; in an UPDATE the SET's `offset` parameters come first, so the numbers move past them.
 * Quoted literals and names are left as they are.
 */
const NUMBERED = /\?\d/;

export function shiftNumbered(where: string, offset: number): string {
  if (!offset || !NUMBERED.test(where)) return where;
  return where.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?(\d+)/g, (text, n: string | undefined) => (n === undefined ? text : `?${Number(n) + offset}`));
}
