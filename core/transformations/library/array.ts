// The Array library: Array.* and Array.prototype.* with the array as the first
// argument. Methods that change an array in JavaScript (push, sort, splice, ...)
// change a copy, so a value wired to two steps is never changed under one; most return
// the copy, pop, shift and splice return { value | spliced, array } as the service does.
import { MethodArgumentError } from '../errors';
import { MAX_BUILT_LENGTH, describeValue, type CallContext, type MethodTable } from './types';
import { callByName, isArrayLike, iteratorToArray } from './reflect';

/** An optional position: null or undefined is none; anything else read as a number, as JavaScript would. */

function arrayArg(value: unknown, method: string): unknown[] {
  if (Array.isArray(value)) return value;
  throw new MethodArgumentError(`Array.${method} needs an array as its first argument, got ${describeValue(value)}`, 0);
}

type Callback = (...args: unknown[]) => unknown;

function getIndex(target: unknown, index: unknown): unknown {
  if (target === null || target === undefined) throw new MethodArgumentError(`Array.getIndex needs an array as its first argument, got ${describeValue(target)}`, 0);
  return Reflect.get(Object(target), Number(index));
}

/** The callback of a higher-order method: the named function, with the step's later arguments as its constants. */
function cb(ctx: CallContext, args: unknown[], at: number): Callback {
  return ctx.callback(args[at], args.slice(at + 1));
}

const withCallback = (name: string, summary: string, run: (array: unknown[], fn: Callback, args: unknown[]) => unknown) => ({
  [name]: {
    summary,
    fn: (args: unknown[], ctx: CallContext) => run(arrayArg(args[0], name), cb(ctx, args, 1), args),
  },
});

/** Read-only prototype methods whose JavaScript meaning is kept as is. */
const READERS = ['at', 'includes', 'indexOf', 'lastIndexOf', 'join', 'slice', 'concat', 'flat', 'toString', 'toLocaleString', 'entries', 'keys', 'values', 'toReversed', 'toSorted', 'with'] as const;

export const arrayMethods: MethodTable = {
  'new Array': {
    summary: 'An array of the arguments (one whole number alone, in the length variant, makes an empty array of that length)',
    fn: (args: unknown[], ctx: CallContext) => {
      if (ctx.polymorphIndex === 1 && args.length === 1 && typeof args[0] === 'number') {
        const length = args[0];
        if (!Number.isInteger(length) || length < 0 || length > MAX_BUILT_LENGTH) throw new MethodArgumentError(`new Array length ${length} is not a length up to ${MAX_BUILT_LENGTH}`);
        return Array.from({ length }, () => null);
      }
      return [...args];
    },
  },
  isArray: { summary: 'Whether the value is an array', fn: (args: unknown[]) => Array.isArray(args[0]) },
  of: { summary: 'An array of the arguments', fn: (args: unknown[]) => [...args] },
  from: {
    summary: 'An array from an array, a string or an object with a length; a function maps each item',
    fn: (args: unknown[], ctx: CallContext) => {
      const source = args[0];
      // JavaScript's Array.from: an iterable's items (a string's characters, a set's values), an array-like's
      // indexes, nothing of another value; null and undefined are its TypeError.
      if (source === null || source === undefined) throw new MethodArgumentError(`Array.from needs an iterable or an array-like as its first argument, got ${describeValue(source)}`, 0);
      if (isArrayLike(source) && !Array.isArray(source) && !(Number(source.length) <= MAX_BUILT_LENGTH)) throw new MethodArgumentError(`Array.from of a length over ${MAX_BUILT_LENGTH}`, 0);
      const items: unknown[] = Array.isArray(source) ? source : Array.from(source as Iterable<unknown>);
      if (typeof args[1] === 'string' && args[1] !== '') {
        const fn = cb(ctx, args, 1);
        return items.map((item, index) => fn(item, index));
      }
      return items.slice();
    },
  },
  length: { summary: 'The number of items', fn: (args: unknown[]) => arrayArg(args[0], 'length').length },
  getIndex: { summary: 'The item at an index (undefined past the end)', fn: (args: unknown[]) => getIndex(args[0], args[1]), direct: getIndex },
  setIndex: {
    summary: 'A copy with the item at an index replaced',
    fn: (args: unknown[]) => {
      const copy = arrayArg(args[0], 'setIndex').slice();
      const index = Number(args[1]);
      if (!Number.isInteger(index) || index < 0 || index > copy.length + MAX_BUILT_LENGTH) throw new MethodArgumentError(`Array.setIndex index ${String(args[1])} is not an index`);
      copy[index] = args[2];
      return copy;
    },
  },
  push: { summary: 'A copy with the items appended', fn: (args: unknown[]) => [...arrayArg(args[0], 'push'), ...args.slice(1)] },
  unshift: { summary: 'A copy with the items prepended', fn: (args: unknown[]) => [...args.slice(1), ...arrayArg(args[0], 'unshift')] },
  // pop, shift and splice give what the service gives, an object real documents read as
  // `/return/value` (or `/return/spliced`) and `/return/array`: the removed item(s) and the array after.
  pop: {
    summary: '{ value, array }: the last item (undefined when empty) and a copy without it',
    fn: (args: unknown[]) => {
      const array = arrayArg(args[0], 'pop');
      return { value: array[array.length - 1], array: array.slice(0, -1) };
    },
  },
  shift: {
    summary: '{ value, array }: the first item (undefined when empty) and a copy without it',
    fn: (args: unknown[]) => {
      const array = arrayArg(args[0], 'shift');
      return { value: array[0], array: array.slice(1) };
    },
  },
  reverse: { summary: 'A reversed copy', fn: (args: unknown[]) => arrayArg(args[0], 'reverse').slice().reverse() },
  splice: {
    summary: '{ spliced, array }: the items removed at an index and a copy with them removed (and the further arguments inserted)',
    fn: (args: unknown[]) => {
      const array = arrayArg(args[0], 'splice').slice();
      // JavaScript's splice on the arguments given (an unset one is not given: unset-args.ts).
      const spliced: unknown[] = Reflect.apply(Array.prototype.splice, array, args.slice(1));
      return { spliced, array };
    },
  },
  fill: {
    summary: 'A copy with a range set to one value',
    fn: (args: unknown[]) => Reflect.apply(Array.prototype.fill, arrayArg(args[0], 'fill').slice(), args.slice(1)),
  },
  copyWithin: {
    summary: 'A copy with a range copied to another index',
    fn: (args: unknown[]) => Reflect.apply(Array.prototype.copyWithin, arrayArg(args[0], 'copyWithin').slice(), args.slice(1)),
  },
  sort: {
    summary: 'A sorted copy (by a compare function when one is named, else as strings)',
    fn: (args: unknown[], ctx: CallContext) => {
      const copy = arrayArg(args[0], 'sort').slice();
      if (typeof args[1] === 'string' && args[1] !== '') {
        const fn = cb(ctx, args, 1);
        return copy.sort((a, b) => Number(fn(a, b)) || 0);
      }
      return copy.sort();
    },
  },
  ...withCallback('map', 'Each item through a function', (array, fn) => array.map((item, index) => fn(item, index, array))),
  ...withCallback('flatMap', 'Each item through a function, flattened one level', (array, fn) => array.flatMap((item, index) => fn(item, index, array))),
  ...withCallback('filter', 'The items a function keeps', (array, fn) => array.filter((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('find', 'The first item a function accepts', (array, fn) => array.find((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('findIndex', 'The index of the first item a function accepts, or -1', (array, fn) => array.findIndex((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('findLast', 'The last item a function accepts', (array, fn) => array.findLast((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('findLastIndex', 'The index of the last item a function accepts, or -1', (array, fn) => array.findLastIndex((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('some', 'Whether a function accepts any item', (array, fn) => array.some((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('every', 'Whether a function accepts every item', (array, fn) => array.every((item, index) => Boolean(fn(item, index, array)))),
  ...withCallback('forEach', 'Runs a function on each item; undefined', (array, fn) => {
    array.forEach((item, index) => fn(item, index, array));
    return undefined;
  }),
  reduce: {
    summary: 'One value from the items, left to right (the third argument is the start)',
    fn: (args: unknown[], ctx: CallContext) => {
      const array = arrayArg(args[0], 'reduce');
      const fn = ctx.callback(args[1], args.slice(3));
      const step = (acc: unknown, item: unknown, index: number) => fn(acc, item, index, array);
      if (args.length >= 3) return array.reduce(step, args[2]);
      if (array.length === 0) throw new MethodArgumentError('Array.reduce of an empty array needs a start value');
      return array.reduce(step);
    },
  },
  reduceRight: {
    summary: 'One value from the items, right to left (the third argument is the start)',
    fn: (args: unknown[], ctx: CallContext) => {
      const array = arrayArg(args[0], 'reduceRight');
      const fn = ctx.callback(args[1], args.slice(3));
      const step = (acc: unknown, item: unknown, index: number) => fn(acc, item, index, array);
      if (args.length >= 3) return array.reduceRight(step, args[2]);
      if (array.length === 0) throw new MethodArgumentError('Array.reduceRight of an empty array needs a start value');
      return array.reduceRight(step);
    },
  },
};

for (const name of READERS) {
  arrayMethods[name] = {
    summary: `Array.prototype.${name}, on the first argument`,
    fn: (args: unknown[]) => {
      const array = arrayArg(args[0], name);
      const rest = args.slice(1);
      const result = callByName(Array.prototype, name, array, rest);
      // entries/keys/values give iterators in JavaScript: the array of what they yield is the value a document can hold.
      return iteratorToArray(result);
    },
  };
}
