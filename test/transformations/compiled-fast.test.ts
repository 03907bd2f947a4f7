// The compiled form's fast paths (core/transformations/compiled/): a method called on its
// arguments one by one, a fresh object changed in place when no other step can see it, a
// function's incoming values taken by position, and the steps of a scope counted at once.
// Each case answers what the interpreter answers, and what a user would expect of it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import { LIBRARIES, type CallContext } from '../../core/transformations/library/index';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { assign, mapDocument, outcome } from './helpers';

const method = (id: number, library: string, name: string, args: unknown[]): Step => ({ id, type: library === 'Object' && name === 'new Object' ? 'declaration' : 'method', library, method: name, args });

/** The interpreter's answer, after checking the compiled form gives the same twice (its frames are reused). */
function same(doc: JstDocument, incoming: Record<string, unknown>, options: RunOptions = {}): unknown {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), structuredClone(incoming), options));
  const compiled = compileTransformation(structuredClone(doc));
  expect(outcome(() => compiled.run(structuredClone(incoming), options))).toEqual(interpreted);
  expect(outcome(() => compiled.run(structuredClone(incoming), options))).toEqual(interpreted);
  return interpreted;
}

describe('compiled fast paths answer as the interpreter', () => {
  it('a new object read by two steps is not changed under either', () => {
    const doc: JstDocument = {
      name: 'shared object',
      incoming: [{ $id: 'a' }],
      outgoing: [{ $id: 'left' }, { $id: 'right' }, { $id: 'base' }, { $id: 'both' }, { $id: 'given' }],
      steps: [
        method(1, 'Object', 'new Object', [null]),
        method(2, 'Object', 'setProperty', [null, 'x', null]),
        method(3, 'Object', 'setProperty', [null, 'y', 2]),
        method(4, 'Object', 'setProperty', [null, 'z', 3]),
        assign(5, ['method', 1, '/return'], ['method', 2, '/args/0/value']),
        assign(6, ['method', 1, '/return'], ['method', 3, '/args/0/value']),
        assign(7, ['incoming', 'a', ''], ['method', 2, '/args/2/value']),
        // Step 2's answer goes on to step 4 and out as it is: step 4 must not change it.
        assign(8, ['method', 2, '/return'], ['method', 4, '/args/0/value']),
        assign(9, ['method', 2, '/return'], ['outgoing', 'left', '']),
        assign(10, ['method', 3, '/return'], ['outgoing', 'right', '']),
        assign(11, ['method', 1, '/return'], ['outgoing', 'base', '']),
        assign(12, ['method', 4, '/return'], ['outgoing', 'both', '']),
        // Step 4's first argument, read after it ran: what it was given, not what it answered.
        assign(13, ['method', 4, '/args/0/value'], ['outgoing', 'given', '']),
      ],
    };
    expect(same(doc, { a: 1 })).toEqual({ left: { x: 1 }, right: { y: 2 }, base: {}, both: { x: 1, z: 3 }, given: { x: 1 } });
  });

  it('a chain of new Object and setProperty builds the object it names, each run anew', () => {
    const doc: JstDocument = {
      name: 'chain',
      incoming: [{ $id: 'item' }],
      outgoing: [{ $id: 'out' }],
      steps: [
        method(1, 'Object', 'new Object', [null]),
        method(2, 'Object', 'setProperty', [null, 'id', null]),
        method(3, 'Object', 'setProperty', [null, 'label', null]),
        method(4, 'Object', 'getProperty', [null, 'id']),
        assign(5, ['incoming', 'item', ''], ['method', 4, '/args/0/value']),
        assign(6, ['method', 1, '/return'], ['method', 2, '/args/0/value']),
        assign(7, ['method', 4, '/return'], ['method', 2, '/args/2/value']),
        assign(8, ['method', 2, '/return'], ['method', 3, '/args/0/value']),
        assign(9, ['incoming', 'item', '/name'], ['method', 3, '/args/2/value']),
        assign(10, ['method', 3, '/return'], ['outgoing', 'out', '']),
      ],
    };
    const compiled = compileTransformation(doc);
    const first = compiled.run({ item: { id: 'a', name: 'A' } }).outgoing.out;
    const second = compiled.run({ item: { id: 'b', name: 'B' } }).outgoing.out;
    expect([first, second]).toEqual([{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }]);
    expect(same(doc, { item: { id: 'a', name: 'A' } })).toEqual({ out: { id: 'a', label: 'A' } });
    // A forbidden name fails on the step that names it, in both forms.
    const bad = structuredClone(doc);
    (bad.steps as Step[])[2] = method(3, 'Object', 'setProperty', [null, '__proto__', null]);
    expect(same(bad, { item: { id: 'a', name: 'A' } })).toMatchObject({ error: expect.stringContaining('step 3 (Object.setProperty)'), place: { step: 3 } });
  });

  it('a function takes its incoming values by position: a $id listed twice, a context parameter, "__proto__"', () => {
    const fn: JstScope = {
      name: 'pick',
      incoming: [{ $id: 'v' }, { $id: '__proto__' }, { $id: 'v' }, { $id: 'ctx', isContext: true, properties: { '0_tag': {} } }],
      outgoing: [{ $id: 'r' }],
      steps: [assign(1, ['incoming', 'v', ''], ['outgoing', 'r', '/v']), assign(2, ['incoming', 'ctx', '/0_tag'], ['outgoing', 'r', '/tag']), assign(3, ['incoming', '__proto__', ''], ['outgoing', 'r', '/p'])],
    };
    const doc = mapDocument('positions', 'pick', [fn], { incoming: 'list', args: ['T'] });
    // map gives (item, index, array, 'T'): the second `v` (the array) wins, the context holds 'T'.
    expect(same(doc, { list: [10, 20] })).toMatchObject({ out: [{ v: [10, 20], tag: 'T' }, { v: [10, 20], tag: 'T' }] });
  });

  it('a function\'s variables set by position or by assign, answered from the slot they repeat or as written', () => {
    const fn: JstScope = {
      name: 'shape',
      incoming: [{ $id: 'v' }, { $id: 'i' }],
      outgoing: [{ $id: 'a' }, { $id: 'b' }, { $id: 'c' }],
      steps: [
        // `i` is written by an assign, so it is not only its argument; `a` repeats `v`; `b` is read on into `c`; `c` is static below.
        { ...assign(1, ['static', 'x', ''], ['incoming', 'i', '/tag']), from: { location: 'static', value: 'x' } },
        assign(2, ['incoming', 'v', ''], ['outgoing', 'a', '']),
        assign(3, ['incoming', 'i', ''], ['outgoing', 'b', '']),
        assign(4, ['outgoing', 'b', '/tag'], ['outgoing', 'c', '/fromB']),
        { ...assign(5, ['static', 's', ''], ['outgoing', 'c', '/static']), from: { location: 'static', value: 7 } },
      ],
    };
    const doc = mapDocument('variables', 'shape', [fn], { incoming: 'list' });
    const item = (a: string) => ({ a, b: { tag: 'x' }, c: { fromB: 'x', static: 7 } });
    expect(same(doc, { list: ['p', 'q'] })).toEqual({ out: [item('p'), item('q')] });
  });

  it('the steps of a scope counted at once stop at the same step as one by one, at every limit', () => {
    const item: JstScope = {
      name: 'label',
      incoming: [{ $id: 'currentValue' }, { $id: 'index' }],
      outgoing: [{ $id: 'r' }],
      steps: [method(1, 'Object', 'getProperty', [null, 'name']), method(2, 'Object', 'new Object', [null]), method(3, 'Object', 'setProperty', [null, 'label', null]), assign(4, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']), assign(5, ['method', 2, '/return'], ['method', 3, '/args/0/value']), assign(6, ['method', 1, '/return'], ['method', 3, '/args/2/value']), assign(7, ['method', 3, '/return'], ['outgoing', 'r', ''])],
    };
    const doc = mapDocument('counted', 'label', [item]);
    const items = Array.from({ length: 40 }, (_, i) => ({ name: `n${i}` }));
    const places = new Set<string>();
    for (let maxSteps = 100; maxSteps <= 130; maxSteps++) {
      const answer = same(doc, { items }, { maxSteps });
      if (answer && typeof answer === 'object' && 'place' in answer) places.add(JSON.stringify(answer.place));
    }
    // Each of the function's three steps, and its variables (no step named), is where some limit stops the run.
    expect(places.size).toBe(4);
    expect(same(doc, { items }, { maxSteps: 1_000 })).toEqual({ out: items.map((i) => ({ label: i.name })) });
  });
});

describe('a method\'s direct form answers as its arguments\' array form', () => {
  const entries = Object.entries(LIBRARIES).flatMap(([library, table]) => Object.entries(table).filter(([, entry]) => entry.direct).map(([name, entry]) => ({ name: `${library}.${name}`, entry })));
  const noContext: CallContext = {
    callback() {
      throw new Error('no callback here');
    },
  };
  const result = (run: () => unknown) => {
    try {
      return { value: run() };
    } catch (error) {
      return { error: String(error) };
    }
  };
  const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(undefined, null, 'id', 'length', '__proto__', 'constructor', 0, 1, -1, '1'));

  it('has direct forms to compare (Object.getProperty, Object.setProperty, Equality.equality, Array.getIndex)', () => {
    expect(entries.map((e) => e.name)).toEqual(expect.arrayContaining(['Object.getProperty', 'Object.setProperty', 'Equality.equality', 'Array.getIndex']));
  });

  it.each(entries)('$name, on any three arguments (and a fourth it does not read)', ({ entry }) => {
    fc.assert(
      fc.property(value, value, value, value, (a, b, c, d) => {
        const direct = result(() => entry.direct?.(structuredClone(a), b, c));
        expect(result(() => entry.fn([structuredClone(a), b, c], noContext))).toEqual(direct);
        expect(result(() => entry.fn([structuredClone(a), b, c, d], noContext))).toEqual(direct);
        // On a first argument no one else holds, the in-place form answers what the copy would be.
        if (entry.inPlace && a !== null && typeof a === 'object') expect(result(() => entry.inPlace?.(structuredClone(a), b, c))).toEqual(direct);
      }),
      { numRuns: 200, seed: 2022 },
    );
  });
});
