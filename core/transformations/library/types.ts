// What a library method is: a typed entry of the one method table (library/index.ts).
// `args` are the step's argument values in order (static ones from the document,
// the others as wired); an instance method takes its receiver as the first one.

export interface CallContext {
  /** A nested function of the document, by name, as a callback (Array.map and the like). */
  callback(name: unknown, constants: unknown[]): (...args: unknown[]) => unknown;
  /** Which variant of an overloaded method the designer chose (`polymorphIndex`). */
  polymorphIndex?: number;
}

export interface MethodEntry {
  /** What it does, for people (the Transformations page lists it). */
  summary: string;
  fn: (args: unknown[], ctx: CallContext) => unknown;
  /** Made from the JavaScript built-in of the same name (library/builtins.ts), not written out. */
  builtIn?: true;
}

export type MethodTable = Record<string, MethodEntry>;

/** Refuses a result too big to build, so a bad document ends with an error instead of eating the memory. */
export const MAX_BUILT_LENGTH = 10_000_000;

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing (undefined)';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? String(value)}`;
}
