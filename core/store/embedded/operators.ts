// The query operators the embedded store answers (sql.ts, match.ts), and their operands checked:
// any other is refused with a StoreError naming it, never answered differently from MongoDB.
import { StoreError } from '../errors';

/** Operators whose operand mongo_match may read from the plain term's own bound parameter. */
export const REUSABLE: ReadonlySet<string> = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte']);
/** Operators on arrays only, answered by mongo_match alone. */
export const ARRAY_OPERATORS: ReadonlySet<string> = new Set(['$all', '$elemMatch', '$size']);
const SUPPORTED: ReadonlySet<string> = new Set(['$eq', '$ne', '$in', '$nin', '$lt', '$lte', '$gt', '$gte', '$exists', '$regex', ...ARRAY_OPERATORS]);

/** A $regex operand (a RegExp, or a pattern with `$options`) as one RegExp. */
export function regexOperand(field: string, pattern: unknown, options: unknown): RegExp {
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  const flags = pattern instanceof RegExp ? pattern.flags : (options ?? '');
  if (typeof source !== 'string' || typeof flags !== 'string') throw new StoreError('invalid', `$regex on ${field} takes a pattern string and $options a string`);
  try {
    return new RegExp(source, flags.replace(/[^ims]/g, ''));
  } catch (error) {
    throw new StoreError('invalid', `$regex on ${field}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The operands MongoDB accepts, or a StoreError naming the operator. */
export function checkOperand(field: string, op: string, operand: unknown) {
  if (!SUPPORTED.has(op)) throw new StoreError('invalid', `unsupported query operator ${op} on ${field}`);
  if ((op === '$in' || op === '$nin' || op === '$all') && !Array.isArray(operand)) throw new StoreError('invalid', `${op} on ${field} takes an array`);
  if (op === '$size' && (typeof operand !== 'number' || !Number.isInteger(operand) || operand < 0)) throw new StoreError('invalid', `$size on ${field} takes a whole number`);
  if (op === '$elemMatch' && (operand === null || typeof operand !== 'object' || Array.isArray(operand))) throw new StoreError('invalid', `$elemMatch on ${field} takes an object`);
  if (op === '$elemMatch') for (const key of Object.keys(operand as object)) if (key.startsWith('$') && !SUPPORTED.has(key) && key !== '$and' && key !== '$or' && key !== '$options') throw new StoreError('invalid', `unsupported query operator ${key} in $elemMatch on ${field}`);
  if (op === '$all' && (operand as unknown[]).some((item) => item !== null && typeof item === 'object' && !(item instanceof Date) && !(item instanceof RegExp) && '$elemMatch' in item)) throw new StoreError('invalid', `unsupported query operator $all with $elemMatch on ${field}`);
}
