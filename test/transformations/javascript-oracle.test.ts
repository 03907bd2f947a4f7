// JST methods are JavaScript's. Oracle: JavaScript itself. For each method of the JST library
// whose name is a JavaScript built-in's, a fast-check property runs the JST method and the
// built-in on the same generated arguments (primitives, null, undefined, NaN, -0, nested arrays
// and objects, sets, dates) and compares the answers, and whether each throws.
// Where the JST method is documented to differ (docs/workflows-and-jst.md, "Where JST differs from
// JavaScript"), the oracle is JavaScript adapted as that table says and no further: the array and
// set methods that change their receiver in JavaScript answer a changed copy. A null given to a
// method is JavaScript's null; an argument the designer left unset is tested in unset-args.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findMethod, type CallContext } from '../../core/transformations/library/index';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument } from '../../core/transformations/types';
import { callMethod } from './helpers';

const ORACLE = 'JavaScript itself';

const NO_CONTEXT: CallContext = {
  callback: () => {
    throw new Error('no callback in these properties');
  },
};

/** What a call gives, in a form two calls compare by: a value, or that it threw. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: comparable(run()) };
  } catch {
    return { threw: true };
  }
}

/** Sets, dates, iterators and expressions as values vitest compares (-0 and NaN kept as they are). */
function comparable(value: unknown): unknown {
  if (value instanceof Set) return { set: [...value].map(comparable) };
  if (value instanceof Date) return { date: value.getTime() };
  if (value instanceof RegExp) return { regexp: value.toString() };
  if (Array.isArray(value)) return Array.from(value, comparable);
  if (value !== null && typeof value === 'object') {
    if (typeof Reflect.get(value, 'next') === 'function' && typeof Reflect.get(value, Symbol.iterator) === 'function') return [...(value as Iterable<unknown>)].map(comparable);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v)]));
  }
  return value;
}

// ---- generated arguments ----
const KEYS = ['a', 'b', '0', '1', 'x y', 'undefined', 'null', 'true'];
const key = fc.constantFrom(...KEYS);
const number = fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double({ noDefaultInfinity: false }), fc.constantFrom(NaN, -0, 0, 0.5, 1e21, -1));
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('', ' 12 ', '3', '-0', '1e3', 'abc', 'a,b', 'true', 'null', '[1]', '{"a":1}', '2022-01-02T03:04:05Z'));
const primitive = fc.oneof(number, text, fc.boolean(), fc.constant(null), fc.constant(undefined));
const nested = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, primitive, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 4, noNullPrototype: true }),
})).node;
const anyValue = fc.oneof(primitive, nested, nested);
const array = fc.array(anyValue, { maxLength: 5 });
const object = fc.dictionary(key, anyValue, { maxKeys: 4, noNullPrototype: true });
const propertyName = fc.oneof(key, fc.constantFrom(undefined, null, 0, 1, true, 'length'));
const smallInt = fc.oneof(fc.integer({ min: -4, max: 8 }), fc.constantFrom(null, undefined, NaN, '2', 'x', 1.5));
const rest = (max = 2) => fc.array(anyValue, { maxLength: max });
const receiverAndRest = (receiver: fc.Arbitrary<unknown>, more = rest()) => fc.tuple(receiver, more).map(([r, m]) => [r, ...m]);

interface Spec {
  args: fc.Arbitrary<unknown[]>;
  /** The JavaScript built-in, on the same arguments. */
  oracle: (...args: unknown[]) => unknown;
}

const call = (owner: object, name: string) => (self: unknown, ...args: unknown[]) => Reflect.apply(Reflect.get(owner, name) as (...a: unknown[]) => unknown, self, args);
const SPECS: Record<string, Spec> = {};

// String
SPECS['String.new String'] = { args: fc.array(anyValue, { maxLength: 1 }), oracle: (...a) => (a.length === 0 ? String() : String(a[0])) };
// `String.prototype.concat.call(r)` is JavaScript's own reading of a string method's receiver (a TypeError for null and undefined).
SPECS['String.length'] = { args: fc.tuple(anyValue).map((a) => [...a]), oracle: (r) => String.prototype.concat.call(r).length };
for (const name of ['at', 'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'localeCompare', 'match', 'matchAll', 'normalize', 'replace', 'replaceAll', 'search', 'slice', 'split', 'startsWith', 'substring', 'substr', 'toLowerCase', 'toUpperCase', 'toString', 'trim', 'trimStart', 'trimEnd', 'valueOf', 'isWellFormed', 'toWellFormed']) {
  const receiver = fc.oneof(text, text, number, fc.boolean(), fc.constant(null), fc.constant(undefined), array);
  const more = ['at', 'charAt', 'charCodeAt', 'codePointAt', 'slice', 'substring', 'substr'].includes(name) ? fc.array(smallInt, { maxLength: 2 }) : rest();
  // toString and valueOf of a string read the receiver as a string is (JST's receiver is the string the first argument is read as).
  const oracle = name === 'toString' || name === 'valueOf' ? (r: unknown) => String.prototype.concat.call(r) : (r: unknown, ...a: unknown[]) => call(String.prototype, name)(String.prototype.concat.call(r), ...a);
  SPECS[`String.${name}`] = { args: receiverAndRest(receiver, more), oracle };
}
SPECS['String.fromCharCode'] = { args: rest(3), oracle: (...a) => String.fromCharCode(...(a as number[])) };
SPECS['String.fromCodePoint'] = { args: rest(3), oracle: (...a) => String.fromCodePoint(...(a as number[])) };
SPECS['String.repeat'] = { args: receiverAndRest(text, fc.array(smallInt, { maxLength: 1 })), oracle: (r, n) => String.prototype.repeat.call(r, n as number) };
for (const name of ['padStart', 'padEnd']) {
  SPECS[`String.${name}`] = { args: receiverAndRest(text, fc.tuple(smallInt, fc.oneof(text, fc.constant(null), fc.constant(undefined), number))), oracle: (r, ...a) => call(String.prototype, name)(r, ...a) };
}

// Number and Math
SPECS['Number.new Number'] = { args: fc.array(anyValue, { maxLength: 1 }), oracle: (...a) => (a.length === 0 ? Number() : Number(a[0])) };
SPECS['Number.parseInt'] = { args: fc.tuple(anyValue, smallInt).map((a) => [...a]), oracle: (s, r) => Number.parseInt(s as string, r as number) };
SPECS['Number.parseFloat'] = { args: fc.tuple(anyValue).map((a) => [...a]), oracle: (s) => Number.parseFloat(s as string) };
for (const name of ['isNaN', 'isFinite', 'isInteger', 'isSafeInteger'] as const) SPECS[`Number.${name}`] = { args: fc.tuple(anyValue).map((a) => [...a]), oracle: (v) => Number[name](v) };
for (const name of ['toFixed', 'toPrecision', 'toExponential', 'toString', 'valueOf']) {
  SPECS[`Number.${name}`] = { args: receiverAndRest(number, fc.array(smallInt, { maxLength: 1 })), oracle: (r, ...a) => call(Number.prototype, name)(r, ...a) };
}
const MATH = ['abs', 'acos', 'acosh', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'cbrt', 'ceil', 'clz32', 'cos', 'cosh', 'exp', 'expm1', 'floor', 'fround', 'hypot', 'imul', 'log', 'log10', 'log1p', 'log2', 'max', 'min', 'pow', 'round', 'sign', 'sin', 'sinh', 'sqrt', 'tan', 'tanh', 'trunc'];
for (const name of MATH) SPECS[`Math.${name}`] = { args: rest(3), oracle: (...a) => call(Math, name)(Math, ...a) };
const two = fc.tuple(anyValue, anyValue).map((a) => [...a]);
/* eslint-disable eqeqeq */
const OPERATORS: Record<string, (a: any, b: any) => unknown> = {
  'Math.add': (a, b) => a + b, 'Math.subtract': (a, b) => a - b, 'Math.multiply': (a, b) => a * b, 'Math.divide': (a, b) => a / b,
  'Math.remainder': (a, b) => a % b, 'Math.exponentiation': (a, b) => a ** b, 'Math.negation': (a) => -a, 'Math.unary plus': (a) => +a,
  'Equality.equality': (a, b) => a == b, 'Equality.inequality': (a, b) => a != b, 'Equality.identity': (a, b) => a === b, 'Equality.nonidentity': (a, b) => a !== b,
  'Equality.strict equality': (a, b) => a === b, 'Equality.strict inequality': (a, b) => a !== b,
  'Relational.greaterThan': (a, b) => a > b, 'Relational.lessThan': (a, b) => a < b, 'Relational.greaterThanOrEqual': (a, b) => a >= b, 'Relational.lessThanOrEqual': (a, b) => a <= b,
  'Logical.and': (a, b) => a && b, 'Logical.or': (a, b) => a || b, 'Logical.not': (a) => !a, 'Logical.nullish': (a, b) => a ?? b,
  'Bitwise.AND': (a, b) => a & b, 'Bitwise.OR': (a, b) => a | b, 'Bitwise.XOR': (a, b) => a ^ b, 'Bitwise.NOT': (a) => ~a,
  'Bitwise.leftShift': (a, b) => a << b, 'Bitwise.rightShift': (a, b) => a >> b, 'Bitwise.unsignedRightShift': (a, b) => a >>> b,
  'JSON.typeof': (a) => typeof a, 'JSON.type of': (a) => typeof a,
};
/* eslint-enable eqeqeq */
for (const [name, op] of Object.entries(OPERATORS)) SPECS[name] = { args: two, oracle: op };
SPECS['Conditional.ternary'] = { args: fc.tuple(anyValue, anyValue, anyValue).map((a) => [...a]), oracle: (c, a, b) => (c ? a : b) };

// Boolean
SPECS['Boolean.new Boolean'] = { args: fc.array(anyValue, { maxLength: 1 }), oracle: (...a) => (a.length === 0 ? Boolean() : Boolean(a[0])) };
SPECS['Boolean.toString'] = { args: fc.tuple(fc.boolean()).map((a) => [...a]), oracle: (b) => Boolean.prototype.toString.call(b) };
SPECS['Boolean.valueOf'] = { args: fc.tuple(fc.boolean()).map((a) => [...a]), oracle: (b) => Boolean.prototype.valueOf.call(b) };

// Array
const arrayLike = fc.oneof(anyValue, array, text, fc.integer({ min: 0, max: 4 }).map((length) => ({ length })), array.map((a) => new Set(a)));
SPECS['Array.from'] = { args: fc.tuple(arrayLike).map((a) => [...a]), oracle: (s) => Array.from(s as Iterable<unknown>) };
SPECS['Array.isArray'] = { args: fc.tuple(anyValue).map((a) => [...a]), oracle: (v) => Array.isArray(v) };
SPECS['Array.of'] = { args: rest(4), oracle: (...a) => Array.of(...a) };
for (const name of ['at', 'includes', 'indexOf', 'lastIndexOf', 'join', 'slice', 'concat', 'flat', 'toString', 'entries', 'keys', 'values', 'toReversed', 'toSorted', 'with']) {
  const more = ['at', 'slice', 'flat', 'with'].includes(name) ? fc.array(fc.oneof(smallInt, anyValue), { maxLength: 2 }) : rest();
  SPECS[`Array.${name}`] = { args: receiverAndRest(array, more), oracle: (r, ...a) => call(Array.prototype, name)(r, ...a) };
}
// The methods that change their array in JavaScript: on a copy, answering the copy (pop, shift and splice: { value | spliced, array }).
const onCopy = (name: string, answer: (copy: unknown[], result: unknown) => unknown) => (r: unknown, ...a: unknown[]) => {
  const copy = (r as unknown[]).slice();
  return answer(copy, call(Array.prototype, name)(copy, ...a));
};
SPECS['Array.push'] = { args: receiverAndRest(array), oracle: onCopy('push', (copy) => copy) };
SPECS['Array.unshift'] = { args: receiverAndRest(array), oracle: onCopy('unshift', (copy) => copy) };
SPECS['Array.reverse'] = { args: receiverAndRest(array, fc.constant([])), oracle: onCopy('reverse', (copy) => copy) };
SPECS['Array.sort'] = { args: receiverAndRest(array, fc.constant([])), oracle: onCopy('sort', (copy) => copy) };
SPECS['Array.fill'] = { args: receiverAndRest(array, fc.tuple(anyValue, smallInt, smallInt)), oracle: onCopy('fill', (copy) => copy) };
SPECS['Array.copyWithin'] = { args: receiverAndRest(array, fc.tuple(smallInt, smallInt, smallInt)), oracle: onCopy('copyWithin', (copy) => copy) };
SPECS['Array.pop'] = { args: receiverAndRest(array, fc.constant([])), oracle: onCopy('pop', (array, value) => ({ value, array })) };
SPECS['Array.shift'] = { args: receiverAndRest(array, fc.constant([])), oracle: onCopy('shift', (array, value) => ({ value, array })) };
SPECS['Array.splice'] = { args: receiverAndRest(array, fc.array(fc.oneof(smallInt, anyValue), { maxLength: 3 })), oracle: onCopy('splice', (array, spliced) => ({ spliced, array })) };

// Object
const anyObject = fc.oneof(object, array, anyValue);
for (const name of ['keys', 'values', 'entries', 'getOwnPropertyNames', 'isFrozen', 'freeze', 'seal'] as const) {
  SPECS[`Object.${name}`] = { args: fc.tuple(anyObject).map((a) => [...a]), oracle: (v) => call(Object, name)(Object, v) };
}
SPECS['Object.is'] = { args: two, oracle: (a, b) => Object.is(a, b) };
SPECS['Object.fromEntries'] = { args: fc.tuple(fc.oneof(anyValue, fc.array(fc.tuple(propertyName, anyValue), { maxLength: 4 }))).map((a) => [...a]), oracle: (p) => Object.fromEntries(p as [string, unknown][]) };
const copyOf = (v: unknown) => (Array.isArray(v) ? v.slice() : { ...(v as object) });
SPECS['Object.assign'] = { args: fc.tuple(fc.oneof(object, array, fc.constant(null), fc.constant(undefined)), fc.array(fc.oneof(object, array, text, fc.constant(null), number), { maxLength: 3 })).map(([t, s]) => [t, ...s]), oracle: (t, ...s) => Object.assign(t === null || t === undefined ? (t as unknown as object) : copyOf(t), ...s) };
SPECS['Object.hasOwn'] = { args: fc.tuple(anyObject, propertyName).map((a) => [...a]), oracle: (o, k) => Object.hasOwn(o as object, k as string) };
SPECS['Object.hasOwnProperty'] = { args: fc.tuple(anyObject, propertyName).map((a) => [...a]), oracle: (o, k) => Object.prototype.hasOwnProperty.call(o, k as string) };
SPECS['Object.propertyIsEnumerable'] = { args: fc.tuple(anyObject, propertyName).map((a) => [...a]), oracle: (o, k) => Object.prototype.propertyIsEnumerable.call(o, k as string) };
// getProperty is `object?.[name]` on own properties (the names generated here are on no prototype but a string's and an array's own).
SPECS['Object.getProperty'] = { args: fc.tuple(anyObject, propertyName).map((a) => [...a]), oracle: (o, k) => (o as Record<string, unknown> | null | undefined)?.[k as string] };
SPECS['Object.setProperty'] = {
  args: fc.tuple(fc.oneof(object, array), propertyName.filter((k) => k !== 'length'), anyValue).map((a) => [...a]),
  oracle: (o, k, v) => {
    const copy = copyOf(o) as Record<string, unknown>;
    copy[k as string] = v;
    return copy;
  },
};
SPECS['Object.deleteProperty'] = {
  args: fc.tuple(fc.oneof(object, array), propertyName.filter((k) => k !== 'length')).map((a) => [...a]),
  oracle: (o, k) => {
    const copy = copyOf(o) as Record<string, unknown>;
    delete copy[k as string];
    return copy;
  },
};

// JSON
SPECS['JSON.parse'] = { args: fc.tuple(fc.oneof(anyValue, anyValue.map((v) => JSON.stringify(v) ?? 'undefined'))).map((a) => [...a]), oracle: (t) => JSON.parse(t as string) };
SPECS['JSON.stringify'] = {
  args: fc.tuple(anyValue, fc.constantFrom(null, undefined, ['a'], ['0', 'b']), fc.constantFrom(undefined, null, 2, ' ', 'ab', 20, true, '\t')).map((a) => [...a]),
  oracle: (v, names, space) => JSON.stringify(v, names as string[] | null, space as number),
};

// Set (a set lives between steps; the methods that change a set in JavaScript answer the changed copy)
const setOrArray = fc.oneof(array, array.map((a) => new Set(a)));
SPECS['Set.new Set'] = { args: fc.tuple(fc.oneof(anyValue, array, text, fc.constant(null))).map((a) => [...a]), oracle: (v) => new Set(v as Iterable<unknown>) };
SPECS['Set.has'] = { args: fc.tuple(setOrArray, anyValue).map((a) => [...a]), oracle: (s, v) => new Set(s as unknown[]).has(v) };
SPECS['Set.size'] = { args: fc.tuple(setOrArray).map((a) => [...a]), oracle: (s) => new Set(s as unknown[]).size };
SPECS['Set.values'] = { args: fc.tuple(setOrArray).map((a) => [...a]), oracle: (s) => [...new Set(s as unknown[]).values()] };
SPECS['Set.entries'] = { args: fc.tuple(setOrArray).map((a) => [...a]), oracle: (s) => [...new Set(s as unknown[]).entries()] };
SPECS['Set.add'] = { args: fc.tuple(setOrArray, anyValue).map((a) => [...a]), oracle: (s, v) => new Set(s as unknown[]).add(v) };
SPECS['Set.delete'] = {
  args: fc.tuple(setOrArray, anyValue).map((a) => [...a]),
  oracle: (s, v) => {
    const copy = new Set(s as unknown[]);
    copy.delete(v);
    return copy;
  },
};

// Date (a fixed time: a date, its milliseconds or its text; an unset argument left out)
const time = fc.oneof(fc.integer({ min: -1e12, max: 4e12 }), fc.constantFrom('2022-01-02T03:04:05Z', '2022-06-30', 'not a date', NaN), fc.integer({ min: 0, max: 4e12 }).map((t) => new Date(t)));
for (const name of ['getDate', 'getDay', 'getFullYear', 'getHours', 'getMilliseconds', 'getMinutes', 'getMonth', 'getSeconds', 'getTime', 'getTimezoneOffset', 'getUTCDate', 'getUTCDay', 'getUTCFullYear', 'getUTCHours', 'getUTCMinutes', 'getUTCMonth', 'getUTCSeconds', 'toDateString', 'toISOString', 'toJSON', 'toString', 'toUTCString', 'valueOf']) {
  SPECS[`Date.${name}`] = { args: fc.tuple(time).map((a) => [...a]), oracle: (t) => call(Date.prototype, name)(new Date(t as number)) };
}
for (const name of ['setDate', 'setFullYear', 'setHours', 'setMinutes', 'setMonth', 'setSeconds', 'setUTCDate', 'setUTCHours', 'setTime']) {
  SPECS[`Date.${name}`] = { args: receiverAndRest(time, fc.array(fc.oneof(fc.integer({ min: -50, max: 3000 }), fc.constant(null)), { maxLength: 2 })), oracle: (t, ...a) => call(Date.prototype, name)(new Date(t as number), ...a) };
}
SPECS['Date.parse'] = { args: fc.tuple(fc.oneof(anyValue, text)).map((a) => [...a]), oracle: (s) => Date.parse(s as string) };
SPECS['Date.UTC'] = { args: fc.array(fc.oneof(fc.integer({ min: -50, max: 3000 }), fc.constant(null)), { minLength: 1, maxLength: 4 }), oracle: (...a) => Date.UTC(...(a as [number])) };

// RegExp (a pattern given as its source)
const pattern = fc.constantFrom('a', '^a', 'b+', '(\\d+)-(\\d+)', '[', 'x|y', '\\s', '');
SPECS['RegExp.test'] = { args: fc.tuple(pattern, anyValue).map((a) => [...a]), oracle: (p, s) => new RegExp(p as string).test(s as string) };
SPECS['RegExp.exec'] = { args: fc.tuple(pattern, fc.oneof(text, anyValue)).map((a) => [...a]), oracle: (p, s) => { const m = new RegExp(p as string).exec(s as string); return m ? [...m] : null; } };
for (const name of ['toString', 'source', 'flags'] as const) SPECS[`RegExp.${name}`] = { args: fc.tuple(pattern).map((a) => [...a]), oracle: (p) => { const r = new RegExp(p as string); return name === 'toString' ? r.toString() : r[name]; } };

describe(`JST methods against ${ORACLE}`, () => {
  for (const [name, spec] of Object.entries(SPECS)) {
    const [library, method] = [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)];
    it(`${name} answers and throws as JavaScript does (oracle: ${ORACLE})`, () => {
      const entry = findMethod(library, method);
      expect(entry, `${name} is a method of the library`).toBeDefined();
      fc.assert(
        fc.property(spec.args, (args) => {
          const jst = outcome(() => entry!.fn(args.slice(), NO_CONTEXT));
          const js = outcome(() => spec.oracle(...args));
          expect(jst, `${name}(${args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ')})`).toEqual(js);
        }),
        { numRuns: 150 },
      );
    });
  }
});

// The methods made from the built-ins themselves (library/builtins.ts): the static functions on the same
// arguments, the prototype methods on the receiver JavaScript would read (an array for Array's).
const GLOBALS: Record<string, object> = { Array, Object, String, Number, Math, JSON, Date, RegExp };
const RECEIVERS: Record<string, [fc.Arbitrary<unknown>, (v: unknown) => unknown]> = {
  Array: [array, (v) => v],
  String: [fc.oneof(text, number, fc.boolean(), fc.constant(null)), (v) => String.prototype.concat.call(v)],
  Number: [fc.oneof(number, text), (v) => Number(v)],
  Date: [time, (v) => new Date(v as number)],
  RegExp: [pattern, (v) => new RegExp(v as string)],
};

describe(`JST methods made from the built-ins, against ${ORACLE}`, () => {
  for (const [library, global] of Object.entries(GLOBALS)) {
    const proto = Reflect.get(global, 'prototype') as object;
    for (const name of Object.getOwnPropertyNames(global)) {
      const entry = findMethod(library, name);
      if (!entry?.builtIn || name === 'random' || name === 'now') continue;
      it(`${library}.${name} answers and throws as ${library}.${name} does (oracle: ${ORACLE})`, () => {
        fc.assert(
          fc.property(rest(3), (args) => {
            expect(outcome(() => entry.fn(args.slice(), NO_CONTEXT)), `${library}.${name}`).toEqual(outcome(() => call(global, name)(global, ...args)));
          }),
          { numRuns: 60 },
        );
      });
    }
    const receiver = RECEIVERS[library];
    if (!receiver) continue;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const entry = findMethod(library, name);
      if (!entry?.builtIn || Object.getOwnPropertyNames(global).includes(name)) continue;
      it(`${library}.${name} answers and throws as ${library}.prototype.${name} does (oracle: ${ORACLE})`, () => {
        fc.assert(
          fc.property(receiverAndRest(receiver[0]), ([self, ...args]) => {
            const js = outcome(() => call(proto, name)(receiver[1](self), ...args));
            expect(outcome(() => entry.fn([self, ...args], NO_CONTEXT)), `${library}.prototype.${name}`).toEqual(js);
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});

describe(`the issue's cases, run as documents (oracle: ${ORACLE})`, () => {
  it('new String of an unset argument (`args: [null]`, nothing wired) is String(): "", of a wired null String(null): "null"', () => {
    const doc = {
      name: 'unset',
      incoming: [{ $id: 'v' }],
      outgoing: [{ $id: 'out' }],
      steps: [
        { id: 1, type: 'declaration', library: 'String', method: 'new String', args: [null] },
        { id: 2, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'out', ptr: '' } },
      ],
      functions: [],
    };
    expect(runDoc(doc, {})).toBe(String());
    expect(callMethod('String', 'new String', [null])).toBe(String(null));
    expect(callMethod('String', 'new String', [undefined])).toBe(String(undefined));
  });

  it('Array.from of a new Set of a list is its unique items, in order', () => {
    const doc = {
      name: 'unique',
      incoming: [{ $id: 'list' }],
      outgoing: [{ $id: 'out' }],
      steps: [
        { id: 1, type: 'declaration', library: 'Set', method: 'new Set', args: [null] },
        { id: 2, type: 'method', library: 'Array', method: 'from', args: [null] },
        { id: 3, type: 'assign', from: { location: 'incoming', name: 'list', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/0/value' } },
        { id: 4, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'method', name: 2, ptr: '/args/0/value' } },
        { id: 5, type: 'assign', from: { location: 'method', name: 2, ptr: '/return' }, to: { location: 'outgoing', name: 'out', ptr: '' } },
      ],
      functions: [],
    };
    const list = ['b', 'a', 'b', 'c', 'a'];
    expect(runDoc(doc, { list })).toEqual(Array.from(new Set(list)));
  });

  it('Object.keys(12) is [] and Object.setProperty(obj, undefined, v) sets the key "undefined"', () => {
    expect(callMethod('Object', 'keys', [12])).toEqual(Object.keys(12));
    const o: Record<string, unknown> = { a: 1 };
    (o as any)[undefined as any] = 2;
    expect(callMethod('Object', 'setProperty', [{ a: 1 }, undefined, 2])).toEqual(o);
  });
});

function runDoc(doc: unknown, incoming: Record<string, unknown>): unknown {
  return runTransformation(doc as JstDocument, incoming, { validateIncoming: false }).outgoing.out;
}
