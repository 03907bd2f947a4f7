// The Number and Math libraries: Number.*, Number.prototype.* with the number as
// the first argument, Math.*, and the arithmetic operators the designer offers as Math methods.
import { MethodArgumentError } from '../errors';
import type { MethodTable } from './types';
import { callByName } from './reflect';
import { errorMessage } from '../../errors';

/** The number a prototype method works on: a number, or a value JavaScript's Number() reads as one. */
function numberArg(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

function guard<T>(method: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new MethodArgumentError(`${method}: ${errorMessage(error)}`);
  }
}


export const numberMethods: MethodTable = {
  'new Number': { summary: 'The value as a number (Number(value))', fn: (args: unknown[]) => (args.length === 0 ? 0 : Number(args[0])) },
  parseInt: { summary: 'A whole number read from a string (radix 10 when none)', fn: (args: unknown[]) => Reflect.apply(Number.parseInt, undefined, [String(args[0]), ...args.slice(1, 2)]) },
  parseFloat: { summary: 'A number read from a string', fn: (args: unknown[]) => Number.parseFloat(String(args[0])) },
  isNaN: { summary: 'Number.isNaN', fn: (args: unknown[]) => Number.isNaN(args[0]) },
  isFinite: { summary: 'Number.isFinite', fn: (args: unknown[]) => Number.isFinite(args[0]) },
  isInteger: { summary: 'Number.isInteger', fn: (args: unknown[]) => Number.isInteger(args[0]) },
  isSafeInteger: { summary: 'Number.isSafeInteger', fn: (args: unknown[]) => Number.isSafeInteger(args[0]) },
  toFixed: { summary: 'Fixed-point text', fn: (args: unknown[]) => guard('Number.toFixed', () => callByName(Number.prototype, 'toFixed', numberArg(args[0]), args.slice(1, 2))) },
  toPrecision: { summary: 'Text with a number of significant digits', fn: (args: unknown[]) => guard('Number.toPrecision', () => callByName(Number.prototype, 'toPrecision', numberArg(args[0]), args.slice(1, 2))) },
  toExponential: { summary: 'Exponential text', fn: (args: unknown[]) => guard('Number.toExponential', () => callByName(Number.prototype, 'toExponential', numberArg(args[0]), args.slice(1, 2))) },
  toString: { summary: 'Text in a radix (10 when none)', fn: (args: unknown[]) => guard('Number.toString', () => callByName(Number.prototype, 'toString', numberArg(args[0]), args.slice(1, 2))) },
  toLocaleString: { summary: 'Text for a locale', fn: (args: unknown[]) => guard('Number.toLocaleString', () => callByName(Number.prototype, 'toLocaleString', numberArg(args[0]), args.slice(1, 3))) },
  valueOf: { summary: 'The number', fn: (args: unknown[]) => numberArg(args[0]) },
  EPSILON: { summary: 'Number.EPSILON', fn: () => Number.EPSILON },
  MAX_SAFE_INTEGER: { summary: 'Number.MAX_SAFE_INTEGER', fn: () => Number.MAX_SAFE_INTEGER },
  MIN_SAFE_INTEGER: { summary: 'Number.MIN_SAFE_INTEGER', fn: () => Number.MIN_SAFE_INTEGER },
  MAX_VALUE: { summary: 'Number.MAX_VALUE', fn: () => Number.MAX_VALUE },
  MIN_VALUE: { summary: 'Number.MIN_VALUE', fn: () => Number.MIN_VALUE },
};

const MATH_FUNCTIONS = [
  'abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'cbrt', 'ceil', 'clz32', 'cos', 'cosh', 'exp', 'expm1',
  'floor', 'fround', 'hypot', 'imul', 'log', 'log10', 'log1p', 'log2', 'max', 'min', 'pow', 'random', 'round', 'sign', 'sin',
  'sinh', 'sqrt', 'tan', 'tanh', 'trunc',
] as const;

const MATH_CONSTANTS = ['E', 'LN10', 'LN2', 'LOG10E', 'LOG2E', 'PI', 'SQRT1_2', 'SQRT2'] as const;

const num = (v: unknown) => v as number;

export const mathMethods: MethodTable = {
  // Operators, as JavaScript applies them (`+` joins strings).
  add: { summary: 'a + b', fn: (args: unknown[]) => (num(args[0]) + num(args[1])) },
  addition: { summary: 'a + b', fn: (args: unknown[]) => (num(args[0]) + num(args[1])) },
  subtract: { summary: 'a - b', fn: (args: unknown[]) => num(args[0]) - num(args[1]) },
  subtraction: { summary: 'a - b', fn: (args: unknown[]) => num(args[0]) - num(args[1]) },
  multiply: { summary: 'a * b', fn: (args: unknown[]) => num(args[0]) * num(args[1]) },
  multiplication: { summary: 'a * b', fn: (args: unknown[]) => num(args[0]) * num(args[1]) },
  divide: { summary: 'a / b', fn: (args: unknown[]) => num(args[0]) / num(args[1]) },
  division: { summary: 'a / b', fn: (args: unknown[]) => num(args[0]) / num(args[1]) },
  remainder: { summary: 'a % b', fn: (args: unknown[]) => num(args[0]) % num(args[1]) },
  modulo: { summary: 'a % b', fn: (args: unknown[]) => num(args[0]) % num(args[1]) },
  exponentiation: { summary: 'a ** b', fn: (args: unknown[]) => num(args[0]) ** num(args[1]) },
  increment: { summary: 'a + 1', fn: (args: unknown[]) => Number(args[0]) + 1 },
  decrement: { summary: 'a - 1', fn: (args: unknown[]) => Number(args[0]) - 1 },
  negation: { summary: '-a', fn: (args: unknown[]) => -num(args[0]) },
  'unary plus': { summary: '+a', fn: (args: unknown[]) => Number(args[0]) },
};
for (const name of MATH_FUNCTIONS) {
  mathMethods[name] = { summary: `Math.${name}`, fn: (args: unknown[]) => callByName(Math, name, Math, args) };
}
for (const name of MATH_CONSTANTS) {
  mathMethods[name] = { summary: `Math.${name}`, fn: () => Math[name] };
}
