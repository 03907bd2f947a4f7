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
  /** A method that uses its context declares it as its second parameter: the compiled form makes none for one declared with `args` alone. */
  fn: (args: unknown[], ctx: CallContext) => unknown;
  /** Made from the JavaScript built-in of the same name (library/builtins.ts), not written out. */
  builtIn?: true;
  /**
   * The same method on its first three arguments one by one, for a method that reads no other
   * argument, not their count and not its context: the compiled form calls it without building
   * the arguments' array. It answers and throws exactly as `fn` does.
   */
  direct?: (a: unknown, b: unknown, c: unknown) => unknown;
  /** Its answer is a new value no one else holds (a copy, a new object), whatever it is given. */
  fresh?: true;
  /**
   * `direct` on a first argument that nothing else can see (the fresh answer of a step read by
   * this step alone): it may change it in place and answer it, where `direct` would answer a
   * changed copy. The compiled form uses it only then.
   */
  inPlace?: (a: unknown, b: unknown, c: unknown) => unknown;
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
