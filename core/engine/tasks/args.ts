// Reading a task's incoming arguments: a bad argument is a task error naming the
// argument and what it got, so the workflow's error transition can be taken.

/** Thrown by argument readers; the library turns it into `{ state: 'error' }`. */
export class TaskArgumentError extends Error {}

export function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** Absent means undefined or null: optional arguments take their default then. */
export const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

export function requiredString(incoming: Record<string, unknown>, name: string): string {
  const value = incoming[name];
  if (typeof value !== 'string') throw new TaskArgumentError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

export function optionalString(incoming: Record<string, unknown>, name: string): string | undefined {
  const value = incoming[name];
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw new TaskArgumentError(`${name} must be a string, got ${describe(value)}`);
  return value;
}

function toNumber(name: string, value: unknown): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || Number.isNaN(number)) {
    throw new TaskArgumentError(`${name} must be a number, got ${describe(value)}`);
  }
  return number;
}

export function requiredNumber(incoming: Record<string, unknown>, name: string): number {
  return toNumber(name, incoming[name]);
}

/** A number, a numeric string, or absent (undefined / null → undefined). */
export function optionalNumber(incoming: Record<string, unknown>, name: string): number | undefined {
  const value = incoming[name];
  return isAbsent(value) ? undefined : toNumber(name, value);
}

export function optionalBoolean(incoming: Record<string, unknown>, name: string): boolean | undefined {
  const value = incoming[name];
  if (isAbsent(value)) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (typeof value !== 'boolean') throw new TaskArgumentError(`${name} must be true or false, got ${describe(value)}`);
  return value;
}
