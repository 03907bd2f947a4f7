// The operator libraries: Logical, Equality, Relational, Conditional, Bitwise,
// and Boolean and Null. Each is the JavaScript operator of the same name.
import { MethodArgumentError } from '../errors';
import type { MethodTable } from './types';

type Bin = (a: never, b: never) => unknown;
// An operator reads its two operands alone: its direct form (library/types.ts) takes them one by one.
const bin = (summary: string, f: Bin) => ({ summary, fn: (args: unknown[]) => f(args[0] as never, args[1] as never), direct: (a: unknown, b: unknown) => f(a as never, b as never) });

function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(Reflect.get(a, k), Reflect.get(b, k)));
}

export const logicalMethods: MethodTable = {
  and: { summary: 'a && b (each argument in turn)', fn: (args: unknown[]) => args.reduce((acc, v) => acc && v) },
  or: { summary: 'a || b (each argument in turn)', fn: (args: unknown[]) => args.reduce((acc, v) => acc || v) },
  not: { summary: '!a', fn: (args: unknown[]) => !args[0] },
  xor: { summary: 'exactly one of a and b is truthy', fn: (args: unknown[]) => Boolean(args[0]) !== Boolean(args[1]) },
  nand: { summary: '!(a && b)', fn: (args: unknown[]) => !(args[0] && args[1]) },
  nor: { summary: '!(a || b)', fn: (args: unknown[]) => !(args[0] || args[1]) },
  xnor: { summary: 'a and b are both truthy or both falsy', fn: (args: unknown[]) => Boolean(args[0]) === Boolean(args[1]) },
  nullish: { summary: 'a ?? b', fn: (args: unknown[]) => args[0] ?? args[1] },
};

export const equalityMethods: MethodTable = {
  // JST's equality and inequality are JavaScript's loose == and != (its method reference), on purpose.
  // eslint-disable-next-line eqeqeq
  equality: bin('a == b', (a, b) => a == b),
  // eslint-disable-next-line eqeqeq
  inequality: bin('a != b', (a, b) => a != b),
  identity: bin('a === b', (a, b) => a === b),
  nonidentity: bin('a !== b', (a, b) => a !== b),
  'strict equality': bin('a === b', (a, b) => a === b),
  'strict inequality': bin('a !== b', (a, b) => a !== b),
  deepEquals: bin('a and b hold the same values, deeply', (a, b) => deepEqual(a, b)),
};

export const relationalMethods: MethodTable = {
  greaterThan: bin('a > b', (a, b) => a > b),
  lessThan: bin('a < b', (a, b) => a < b),
  greaterThanOrEqual: bin('a >= b', (a, b) => a >= b),
  lessThanOrEqual: bin('a <= b', (a, b) => a <= b),
  greaterThanOrEqualTo: bin('a >= b', (a, b) => a >= b),
  lessThanOrEqualTo: bin('a <= b', (a, b) => a <= b),
  in: {
    summary: 'key in object',
    fn: (args: unknown[]) => {
      const target = args[1];
      if (target === null || typeof target !== 'object') throw new MethodArgumentError(`Relational.in needs an object as its second argument`);
      return Object.prototype.hasOwnProperty.call(target, String(args[0])) || (Array.isArray(target) && String(args[0]) === 'length');
    },
  },
  instanceof: {
    summary: 'whether a value is an Array, Object, String, Number, Boolean or Date (named by the second argument)',
    fn: (args: unknown[]) => {
      const v = args[0];
      switch (String(args[1])) {
        case 'Array': return Array.isArray(v);
        case 'Object': return v !== null && typeof v === 'object';
        case 'Date': return v instanceof Date;
        case 'RegExp': return v instanceof RegExp;
        default: return false;
      }
    },
  },
};

export const conditionalMethods: MethodTable = {
  ternary: { summary: 'condition ? a : b', fn: (args: unknown[]) => (args[0] ? args[1] : args[2]) },
  'if...else': { summary: 'condition ? a : b', fn: (args: unknown[]) => (args[0] ? args[1] : args[2]) },
  switch: {
    summary: 'The result paired with the first case equal (===) to the value: (value, case1, result1, ..., default)',
    fn: (args: unknown[]) => {
      const [value, ...rest] = args;
      for (let i = 0; i + 1 < rest.length; i += 2) if (rest[i] === value) return rest[i + 1];
      return rest.length % 2 === 1 ? rest[rest.length - 1] : undefined;
    },
  },
};

export const bitwiseMethods: MethodTable = {
  // The operators read their operands as numbers (JSON holds no BigInt), as Number() does.
  AND: bin('a & b', (a, b) => Number(a) & Number(b)),
  OR: bin('a | b', (a, b) => Number(a) | Number(b)),
  XOR: bin('a ^ b', (a, b) => Number(a) ^ Number(b)),
  NOT: { summary: '~a', fn: (args: unknown[]) => ~Number(args[0]) },
  leftShift: bin('a << b', (a, b) => Number(a) << Number(b)),
  rightShift: bin('a >> b', (a, b) => Number(a) >> Number(b)),
  unsignedRightShift: bin('a >>> b', (a, b) => Number(a) >>> Number(b)),
};

export const booleanMethods: MethodTable = {
  'new Boolean': { summary: 'The value as a boolean (Boolean(value))', fn: (args: unknown[]) => Boolean(args[0]) },
  toString: { summary: '"true" or "false"', fn: (args: unknown[]) => String(Boolean(args[0])) },
  valueOf: { summary: 'The boolean', fn: (args: unknown[]) => Boolean(args[0]) },
};

export const nullMethods: MethodTable = {
  'new Null': { summary: 'null', fn: () => null },
};
