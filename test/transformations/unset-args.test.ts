// An argument the designer left unset is JavaScript's argument not given (issue 41, item 1). The
// designer exports an argument nobody filled as null in the step's `args` (`"args": [null]`, 9 real
// documents read "" from `new String` so declared); a wired value, null included, is given as it
// is. Oracle: JavaScript itself, called with the unset arguments left out (one unset before a given
// one is undefined there). Each document runs through the interpreter and the compiled steps.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, Step } from '../../core/transformations/types';

const ORACLE = 'JavaScript itself';
const value = fc.oneof(fc.integer({ min: -3, max: 8 }), fc.constantFrom(null, undefined, 'ab', '', NaN, 1.5, true));
const text = fc.constantFrom('abcdef', '  x ', '', 'a,b');
const list = fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })), { maxLength: 5 });
const call = (owner: object, name: string) => (self: unknown, ...args: unknown[]) => Reflect.apply(Reflect.get(owner, name) as (...a: unknown[]) => unknown, self, args);

/** Each method: its receiver (never unset here), how many further arguments, and JavaScript's call. */
const CASES: [string, string, fc.Arbitrary<unknown>, number, (...args: unknown[]) => unknown][] = [
  ['String', 'new String', fc.constant(undefined), 1, (...a) => (a.length === 0 ? String() : String(a[0]))],
  ...(['slice', 'substring', 'indexOf', 'padStart', 'padEnd', 'split', 'at', 'charAt', 'includes'] as const).map(
    (name): [string, string, fc.Arbitrary<unknown>, number, (...args: unknown[]) => unknown] => ['String', name, text, 2, call(String.prototype, name)],
  ),
  ...(['join', 'slice', 'at', 'flat', 'indexOf'] as const).map((name): [string, string, fc.Arbitrary<unknown>, number, (...args: unknown[]) => unknown] => ['Array', name, list, 2, call(Array.prototype, name)]),
  ['Array', 'fill', list, 3, (r, ...a) => call(Array.prototype, 'fill')((r as unknown[]).slice(), ...a)],
  ['Array', 'copyWithin', list, 3, (r, ...a) => call(Array.prototype, 'copyWithin')((r as unknown[]).slice(), ...a)],
  ['Array', 'splice', list, 3, (r, ...a) => { const copy = (r as unknown[]).slice(); return { spliced: call(Array.prototype, 'splice')(copy, ...a), array: copy }; }],
  ...(['toFixed', 'toString', 'toPrecision'] as const).map((name): [string, string, fc.Arbitrary<unknown>, number, (...args: unknown[]) => unknown] => ['Number', name, fc.constantFrom(0, 12.345, -7), 1, call(Number.prototype, name)]),
  ['Number', 'parseInt', fc.constantFrom('12', '0x1f', '077', 'z'), 1, (s, ...a) => Reflect.apply(Number.parseInt, undefined, [s, ...a])],
  ['Date', 'UTC', fc.integer({ min: 1970, max: 2030 }), 3, (...a) => Reflect.apply(Date.UTC, undefined, a)],
];

/** The document calling `library.method` on `receiver` (wired, unless undefined for a function of no receiver) and `args`, the unset ones left null and unwired. */
function documentFor(library: string, method: string, withReceiver: boolean, count: number, unset: boolean[]): JstDocument {
  const total = (withReceiver ? 1 : 0) + count;
  const steps: Step[] = [{ id: 1, type: 'method', library, method, args: Array.from({ length: total }, () => null) }];
  const incoming: { $id: string }[] = [];
  for (let i = 0; i < total; i++) {
    if (unset[i]) continue;
    incoming.push({ $id: `a${i}` });
    steps.push({ id: 100 + i, type: 'assign', from: { location: 'incoming', name: `a${i}`, ptr: '' }, to: { location: 'method', name: 1, ptr: `/args/${i}/value` } });
  }
  steps.push({ id: 99, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'out', ptr: '' } });
  return { name: `${library}.${method} unset`, incoming, outgoing: [{ $id: 'out' }], steps, functions: [] };
}

/** A value as a run answers it (JSON's: NaN is null), or that the call threw. */
function outcome(run: () => unknown): unknown {
  try {
    const value = run();
    return { value: value === undefined ? undefined : JSON.parse(JSON.stringify(value)) };
  } catch {
    return { threw: true };
  }
}

describe(`an unset argument is JavaScript's argument not given (oracle: ${ORACLE})`, () => {
  for (const [library, method, receiver, count, oracle] of CASES) {
    const withReceiver = !(library === 'String' && method === 'new String') && !(library === 'Date' && method === 'UTC');
    it(`${library}.${method}: unset arguments left out, wired ones (null included) given, interpreted and compiled alike`, () => {
      fc.assert(
        fc.property(receiver, fc.array(value, { minLength: count, maxLength: count }), fc.array(fc.boolean(), { minLength: count, maxLength: count }), (r, given, unsetRest) => {
          const all = withReceiver ? [r, ...given] : given;
          const unset = withReceiver ? [false, ...unsetRest] : unsetRest;
          const doc = documentFor(library, method, withReceiver, count, unset);
          const values = Object.fromEntries(all.map((v, i) => [`a${i}`, v]));
          // JavaScript's call: the unset arguments at the end not given, one before a given one undefined.
          let end = all.length;
          while (end > 0 && unset[end - 1]) end -= 1;
          const js = all.slice(0, end).map((v, i) => (unset[i] ? undefined : v));
          const expected = outcome(() => oracle(...js));
          const interpreted = outcome(() => runTransformation(structuredClone(doc), values, { validateIncoming: false }).outgoing.out);
          const compiled = outcome(() => compileTransformation(structuredClone(doc)).run(values, { validateIncoming: false }).outgoing.out);
          const label = `${library}.${method}(${all.map((v, i) => (unset[i] ? '<unset>' : String(v))).join(', ')})`;
          expect(interpreted, label).toEqual(expected);
          expect(compiled, label).toEqual(expected);
        }),
        { numRuns: 120 },
      );
    });
  }
});
