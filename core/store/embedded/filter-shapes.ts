// The shapes of filter values the filter cache (sql.ts's FilterCompiler) keeps compiled SQL for:
// the values bound in the order the compiler binds them, only the shape naming the SQL.

/** A bound value (sql.ts's SqlParam). */
type Bound = string | number | null;

/** A string that reads like an object's or an array's JSON text. */
export const JSON_LIKE = /^[[{]/;

export const RANGE_SIGNS: Record<string, string> = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' };

/**
 * The shape of a range on plain values (`{ $lte: 5 }`, `{ $gt: 'a', $lt: 'b' }`: one bound value
 * each, pushed to `params` in the order the compiler binds them), or undefined for any other value.
 */
export function rangeShape(value: unknown, params: Bound[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return undefined;
  let shape = '';
  const operands: Bound[] = [];
  for (const [op, operand] of Object.entries(value)) {
    if (!(op in RANGE_SIGNS)) return undefined;
    if (typeof operand === 'number') shape += `${op}n`;
    else if (typeof operand === 'string' && !operand.startsWith('\uFDD0')) shape += `${op}s`;
    else return undefined;
    operands.push(operand);
  }
  if (!shape) return undefined;
  params.push(...operands);
  return shape;
}

/**
 * The shape of `{ $in: [...] }` on plain strings (`{ status: { $in: ['running', 'paused'] } }`: each
 * bound, pushed to `params` in order, as the compiler binds them on a field no document holds an
 * array on), or undefined for any other value.
 */
export function inShape(value: unknown, params: Bound[]): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const values: unknown = Reflect.get(value, '$in');
  if (keys.length !== 1 || !Array.isArray(values)) return undefined;
  const operands: string[] = [];
  for (const v of values) {
    if (typeof v !== 'string' || v.startsWith('\uFDD0') || JSON_LIKE.test(v)) return undefined;
    operands.push(v);
  }
  params.push(...operands);
  return `$in${values.length}`;
}
