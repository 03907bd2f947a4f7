// The compiled form's one-closure functions (core/transformations/compiled/pure.ts) that compare:
// an Equality or Relational method of values read at a pointer (the shape of an Array.filter or
// find callback, as "Build SG Delete Array" of the AWS-EC2-REST pre-built). A loose or
// relational comparison meeting an object leaves the call to the closures, which convert it as
// the interpreter does (or fail as it fails). The interpreter is the oracle: each case answers
// what it answers, the same value or the same error at the same step.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { assign, mapDocument, outcome } from './helpers';

const EQUALITY = ['equality', 'inequality', 'identity', 'nonidentity', 'strict equality', 'strict inequality'];
const RELATIONAL = ['greaterThan', 'lessThan', 'greaterThanOrEqual', 'lessThanOrEqual', 'greaterThanOrEqualTo', 'lessThanOrEqualTo'];
const libraryOf = (method: string) => (EQUALITY.includes(method) ? 'Equality' : 'Relational');

/** A callback answering `method(element at left, right)`: `right` a static value, or `{ ptr }` read from the element too. */
function comparer(method: string, left: string, right: unknown): JstScope {
  const steps: Step[] = [
    { id: 1, type: 'method', library: libraryOf(method), method, args: [null, right !== null && typeof right === 'object' && 'ptr' in right ? null : right] },
    assign(2, ['incoming', 'element', left], ['method', 1, '/args/0/value']),
    assign(3, ['method', 1, '/return'], ['outgoing', 'return', '']),
  ];
  if (right !== null && typeof right === 'object' && 'ptr' in right) steps.push(assign(4, ['incoming', 'element', String(right.ptr)], ['method', 1, '/args/1/value']));
  return {
    name: 'keep',
    incoming: [{ $id: 'element' }, { $id: 'index' }, { $id: 'array' }, { $id: 'thisArg', isContext: true, properties: {} }],
    outgoing: [{ $id: 'return' }],
    steps,
  };
}

const through = (arrayMethod: string, fn: JstScope): JstDocument => mapDocument(`${arrayMethod} through a comparison`, String(fn.name), [fn], { method: arrayMethod });

/** The interpreter's answer, after checking the compiled form gives the same on its first run (closures) and on its next two (the written function). */
function same(doc: JstDocument, incoming: () => Record<string, unknown>, options: RunOptions = {}): unknown {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), incoming(), options));
  const compiled = compileTransformation(structuredClone(doc));
  for (let i = 0; i < 3; i++) expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  return interpreted;
}

const groups = (n: number) => Array.from({ length: n }, (_, i) => ({ groupId: `sg-${i}`, groupName: i === 0 ? 'default' : `group-${i}` }));

/** Values a loose comparison converts by calling code (a date, an array, an object), and plain ones. */
function convertible(): unknown[] {
  return [new Date('2026-01-02T03:04:05.000Z'), ['default'], { name: 'default' }, 'default', 0, '', null, undefined, Number.NaN, true];
}

/** Objects JavaScript cannot convert: no prototype, a toString that is not a function. */
const unconvertible = (): unknown[] => [Object.create(null), { toString: 'not a function', valueOf: null }];

describe('a comparison of values read at a pointer, compiled into one closure', () => {
  it('filters out the default security group, as the AWS-EC2-REST pre-built does', () => {
    const doc = through('filter', comparer('inequality', '/groupName', 'default'));
    const answer = same(doc, () => ({ items: groups(50) }));
    expect(answer).toEqual({ out: groups(50).slice(1) });
  });

  it('answers as the interpreter when a loose comparison meets a value it converts, and fails at the same step on one it cannot', () => {
    for (const method of ['inequality', 'equality', 'lessThan', 'greaterThanOrEqual']) {
      for (const arrayMethod of ['filter', 'map', 'find']) {
        const doc = through(arrayMethod, comparer(method, '/groupName', 'default'));
        // Each value compared as JavaScript compares it.
        const answer = same(doc, () => ({ items: convertible().map((groupName) => ({ groupName })) }), { validateIncoming: false });
        expect(answer).not.toHaveProperty('error');
        // An object it cannot convert fails the run at the comparison, in both forms.
        for (const groupName of unconvertible()) {
          const failed = same(doc, () => ({ items: [{ groupName }, { groupName: 'x' }] }), { validateIncoming: false });
          expect(failed).toMatchObject({ error: expect.stringContaining('Cannot convert object to primitive value'), place: { function: 'keep', step: 1 } });
        }
      }
    }
  });

  it('filters arrays of every kind as the interpreter: holes, an undefined item, named properties, another constructor, a constant after the name; and stops at the depth limit', () => {
    const doc = through('filter', comparer('inequality', '/groupName', 'default'));
    const answer = (items: unknown) => same(doc, () => ({ items }), { validateIncoming: false });
    // eslint-disable-next-line no-sparse-arrays
    expect(answer([{ groupName: 'a' }, , { groupName: 'default' }, undefined, , { groupName: 'b' }])).toEqual({ out: [{ groupName: 'a' }, undefined, { groupName: 'b' }] });
    expect(answer(Object.assign([{ groupName: 'a' }], { extra: { groupName: 'b' } }))).toEqual({ out: [{ groupName: 'a' }] });
    class Groups extends Array {}
    expect(answer(Groups.from([{ groupName: 'a' }, { groupName: 'default' }]))).toEqual({ out: [{ groupName: 'a' }] });
    const withConstant = structuredClone(doc);
    (withConstant.steps as Step[])[0] = { id: 1, type: 'method', library: 'Array', method: 'filter', args: [null, 'keep', 'c'] };
    expect(same(withConstant, () => ({ items: [{ groupName: 'a' }] }), { validateIncoming: false })).toEqual({ out: [{ groupName: 'a' }] });
    expect(same(doc, () => ({ items: groups(3) }), { maxDepth: 0, validateIncoming: false })).toMatchObject({ error: expect.stringContaining('function "keep": functions call each other more than 0 deep') });
  });

  it('a date compared with a number is compared by its time, as JavaScript compares it', () => {
    const doc = through('filter', comparer('greaterThan', '/at', 1_700_000_000_000));
    const items = () => ({ items: [{ at: new Date(1_800_000_000_000) }, { at: new Date(1_600_000_000_000) }, { at: 1_750_000_000_000 }] });
    expect(same(doc, items, { validateIncoming: false })).toEqual({ out: [{ at: '2027-01-15T08:00:00.000Z' }, { at: 1_750_000_000_000 }] });
  });

  it('stops at the same step as the interpreter at every step limit, an item it leaves to the closures among them', () => {
    const items = () => ({ items: [...groups(12), { groupId: 'sg-x', groupName: ['default'] }, ...groups(6)] });
    // Array.filter calls the written function item by item (filterAll); Array.map of a function that can decline is made by the general call, each item through callOne.
    for (const arrayMethod of ['filter', 'map']) {
      const doc = through(arrayMethod, comparer('inequality', '/groupName', 'default'));
      const stops = new Set<string>();
      for (let maxSteps = 1; maxSteps <= 140; maxSteps++) stops.add(JSON.stringify(same(doc, items, { maxSteps, validateIncoming: false })));
      expect([...stops].filter((answer) => answer.includes('went past')).length).toBeGreaterThan(20);
      expect([...stops].some((answer) => answer.includes('"out"'))).toBe(true);
    }
  });

  it('answers as the interpreter for any comparison, any pointers and any items, through map, filter, find, some and every', () => {
    const pointer = fc.constantFrom('', '/name', '/size', '/0', '/-', '/length', '/a/b', '/__proto__', '/toString');
    const right = fc.oneof(fc.jsonValue({ maxDepth: 1 }), pointer.map((ptr) => ({ ptr })));
    const item = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ name: fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), size: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 2 })), a: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }));
    fc.assert(
      fc.property(fc.constantFrom(...EQUALITY, ...RELATIONAL), fc.constantFrom('map', 'filter', 'find', 'some', 'every'), pointer, right, fc.array(item, { maxLength: 5 }), (method, arrayMethod, left, against, items) => {
        same(through(arrayMethod, comparer(method, left, against)), () => ({ items: structuredClone(items) }), { validateIncoming: false });
      }),
      { numRuns: 300, seed: 2026 },
    );
  });
});
