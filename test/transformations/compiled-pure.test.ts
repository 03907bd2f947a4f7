// The compiled form's one-closure functions (core/transformations/compiled/pure.ts): a nested
// function made only of property reads and a new object given properties, each by a static
// name, runs as one closure over its arguments. Each case answers what the interpreter answers
// (the same value, or the same error at the same step), on items of every kind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { assign, mapDocument, outcome } from './helpers';

const method = (id: number, name: string, args: unknown[]): Step => ({ id, type: name === 'new Object' ? 'declaration' : 'method', library: 'Object', method: name, args });

/** A callback building `{ [outKeys[i]]: item[inKeys[i]] }`, as the designer wires it: getProperty steps, new Object, a chain of setProperty. */
function picker(pairs: [unknown, unknown][]): JstScope {
  const steps: Step[] = [method(1, 'new Object', [null])];
  let last = 1;
  pairs.forEach(([outKey, inKey], i) => {
    const get = 10 + i * 10;
    const set = get + 1;
    steps.push(method(get, 'getProperty', [null, inKey]), assign(get + 2, ['incoming', 'currentValue', ''], ['method', get, '/args/0/value']));
    steps.push(method(set, 'setProperty', [null, outKey, null]), assign(get + 3, ['method', last, '/return'], ['method', set, '/args/0/value']));
    steps.push(assign(get + 4, ['method', get, '/return'], ['method', set, '/args/2/value']));
    last = set;
  });
  steps.push(assign(2, ['method', last, '/return'], ['outgoing', 'newValue', '']));
  return {
    name: 'pick',
    incoming: [{ $id: 'currentValue' }, { $id: 'index' }, { $id: 'array' }, { $id: 'thisArg', isContext: true, properties: {} }],
    outgoing: [{ $id: 'newValue' }],
    steps,
  };
}

const mapDoc = (fn: JstScope): JstDocument => mapDocument('map through a picker', String(fn.name), [fn]);

/** The interpreter's answer, after checking the compiled form gives the same twice. `incoming` makes the values anew for each run (a run may hold on to them). */
function same(doc: JstDocument, incoming: () => Record<string, unknown>, options: RunOptions = {}): unknown {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), incoming(), options));
  const compiled = compileTransformation(structuredClone(doc));
  // Strictly: the same kinds of arrays and objects, holes where the interpreter leaves holes.
  expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  return interpreted;
}

/** Items of every kind a caller may give (the compiled form is also run on values no schema checked). */
function oddItems(): unknown[] {
  const withNames = Object.assign(['a', 'b'], { id: 'named', name: 'on an array' });
  return [
    { id: 'i1', name: 'first' },
    { name: 'no id' },
    JSON.parse('{"__proto__": {"id": "inherited?"}, "id": "own"}'),
    Object.create({ id: 'from the prototype', name: 'inherited' }),
    withNames,
    'a string',
    42,
    null,
    undefined,
    { id: new Date('2026-01-02T03:04:05.000Z'), name: new Date(Number.NaN) },
    { id: Number.NaN, name: Number.POSITIVE_INFINITY },
    { id: [1, 2], name: { nested: new Set([1]) } },
  ];
}

describe('a function of static-name reads and sets compiled into one closure', () => {
  it('maps each item into { id, label }, as the bench fixture does', () => {
    const items = () => ({ items: [{ id: 'a', name: 'A', size: 1 }, { id: 'b', name: 'B', size: 2 }] });
    expect(same(mapDoc(picker([['id', 'id'], ['label', 'name']])), items)).toEqual({ out: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] });
  });

  it('answers as the interpreter on items of every kind: missing names, own __proto__, inherited names, arrays with names, strings, dates, NaN', () => {
    const answer = same(mapDoc(picker([['id', 'id'], ['label', 'name'], ['size', 'length']])), () => ({ items: oddItems() }));
    expect(answer).toMatchObject({ out: expect.arrayContaining([{ id: 'own', label: undefined, size: undefined }, { id: '2026-01-02T03:04:05.000Z', label: null, size: undefined }, { id: undefined, label: undefined, size: 8 }]) });
  });

  it('reads own names only, on items without a prototype and after a name is added to Object.prototype once compiled', () => {
    const doc = mapDoc(picker([['id', 'id'], ['label', 'name']]));
    const compiled = compileTransformation(structuredClone(doc));
    const items = () => ({ items: [{ id: 'plain' }, Object.assign(Object.create(null) as object, { id: 'bare', name: 'no prototype' })] });
    expect(compiled.run(items()).outgoing).toEqual({ out: [{ id: 'plain', label: undefined }, { id: 'bare', label: 'no prototype' }] });
    Object.defineProperty(Object.prototype, 'name', { value: 'polluted', configurable: true, writable: true });
    try {
      // The item without its own `name` still answers undefined, in both forms.
      expect(compiled.run(items()).outgoing).toEqual({ out: [{ id: 'plain', label: undefined }, { id: 'bare', label: 'no prototype' }] });
      expect(runTransformation(structuredClone(doc), items()).outgoing).toEqual({ out: [{ id: 'plain', label: undefined }, { id: 'bare', label: 'no prototype' }] });
    } finally {
      Reflect.deleteProperty(Object.prototype, 'name');
    }
  });

  it('keeps the order and the last value of names set twice, numbers as names', () => {
    const answer = same(mapDoc(picker([['b', 'x'], [2, 'y'], ['a', 'x'], ['b', 'y']])), () => ({ items: [{ x: 1, y: 2 }] }));
    expect(JSON.stringify(answer)).toBe('{"out":[{"2":2,"b":2,"a":1}]}');
  });

  it('a forbidden static name fails at its step, in both forms', () => {
    for (const pairs of [[['__proto__', 'id']], [['id', 'constructor']], [['prototype', 'id']]] as [unknown, unknown][][]) {
      expect(same(mapDoc(picker(pairs)), () => ({ items: [{ id: 1 }] }))).toMatchObject({ error: expect.stringContaining('cannot use the property'), place: { function: 'pick' } });
    }
  });

  it('stops at the same step as the interpreter at every step limit, and at the depth limit', () => {
    const doc = mapDoc(picker([['id', 'id'], ['label', 'name']]));
    const items = () => ({ items: Array.from({ length: 30 }, (_, i) => ({ id: i, name: `n${i}` })) });
    const stops = new Set<string>();
    for (let maxSteps = 250; maxSteps <= 300; maxSteps++) {
      const answer = same(doc, items, { maxSteps });
      if (answer && typeof answer === 'object' && 'error' in answer) stops.add(JSON.stringify(answer));
    }
    expect(stops.size).toBeGreaterThan(5);
    // Array.map makes no call for a hole: the steps of the calls made are counted, no more.
    // eslint-disable-next-line no-sparse-arrays
    const holes = () => ({ items: [{ id: 1, name: 'a' }, , , { id: 4, name: 'd' }, , { id: 6, name: 'f' }] });
    const holeStops = new Set<string>();
    for (let maxSteps = 10; maxSteps <= 120; maxSteps++) holeStops.add(JSON.stringify(same(doc, holes, { maxSteps, validateIncoming: false })));
    expect([...holeStops].filter((answer) => answer.includes('went past'))).toHaveLength(holeStops.size - 1);
    expect(same(doc, items, { maxDepth: 0 })).toMatchObject({ error: expect.stringContaining('function "pick": functions call each other more than 0 deep') });
  });

  it('stops on the time limit as the interpreter does', () => {
    const doc = mapDoc(picker([['id', 'id']]));
    const items = { items: Array.from({ length: 200_000 }, (_, i) => ({ id: i })) };
    const run = (fn: () => { outgoing: Record<string, unknown> }) => (outcome(fn) as { error?: string }).error;
    // Where the time runs out depends on the machine: the message says the same, naming a step of the function.
    const late = /^transformation "map through a picker", function "pick", step \d+ \(Object\.\w+\): the run took longer than 1 ms$/;
    expect(run(() => runTransformation(doc, items, { timeoutMs: 1, validateIncoming: false }))).toMatch(late);
    expect(run(() => compileTransformation(doc).run(items, { timeoutMs: 1, validateIncoming: false }))).toMatch(late);
  });

  it('a new object read by two steps of the function is not changed under either', () => {
    const fn = picker([['id', 'id']]);
    // Step 1's new object is set an `id` (step 11) and also put, as it was made, under `base` of that answer (step 30).
    fn.steps = [...(fn.steps ?? []).filter((step) => step.id !== 2), method(30, 'setProperty', [null, 'base', null]), assign(31, ['method', 11, '/return'], ['method', 30, '/args/0/value']), assign(32, ['method', 1, '/return'], ['method', 30, '/args/2/value']), assign(33, ['method', 30, '/return'], ['outgoing', 'newValue', ''])];
    expect(same(mapDoc(fn), () => ({ items: [{ id: 'x' }] }))).toEqual({ out: [{ id: 'x', base: {} }] });
  });

  it('maps arrays of every kind as the interpreter: holes, named properties, another constructor, constants after the name, empty', () => {
    const fn = picker([['id', 'id']]);
    const doc = mapDoc(fn);
    // eslint-disable-next-line no-sparse-arrays
    expect(same(doc, () => ({ items: [{ id: 1 }, , { id: 3 }] }))).toEqual({ out: [{ id: 1 }, undefined, { id: 3 }] });
    expect(same(doc, () => ({ items: Object.assign([{ id: 1 }], { id: 'named', extra: true }) }))).toEqual({ out: [{ id: 1 }] });
    class Items extends Array {}
    expect(same(doc, () => ({ items: Items.from([{ id: 1 }, { id: 2 }]) }))).toEqual({ out: [{ id: 1 }, { id: 2 }] });
    expect(same(doc, () => ({ items: [] }))).toEqual({ out: [] });
    const withConstant = structuredClone(doc);
    (withConstant.steps as Step[])[0] = { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'pick', 'c'] };
    expect(same(withConstant, () => ({ items: [{ id: 1 }] }))).toEqual({ out: [{ id: 1 }] });
  });

  it('a map naming a function the document lacks, or a function that cannot be planned, fails as the interpreter does; on no items, only the first', () => {
    const missing = structuredClone(mapDoc(picker([['id', 'id']])));
    (missing.steps as Step[])[0] = { id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'nope'] };
    expect(same(missing, () => ({ items: [{ id: 1 }] }))).toMatchObject({ error: expect.stringContaining('the function "nope" it calls is not defined'), place: { step: 1 } });
    const broken = picker([['id', 'id']]);
    broken.steps = [...(broken.steps ?? []), { id: 99, type: 'loop' }];
    expect(same(mapDoc(broken), () => ({ items: [{ id: 1 }] }))).toMatchObject({ error: expect.stringContaining('unsupported step type "loop"') });
    expect(same(mapDoc(broken), () => ({ items: [] }))).toEqual({ out: [] });
  });

  it('answers each run with its own array and objects, a later run changing none of an earlier answer', () => {
    const compiled = compileTransformation(mapDoc(picker([['id', 'id'], ['label', 'name']])));
    const first = compiled.run({ items: [{ id: 'a', name: 'A' }] }).outgoing.out;
    const second = compiled.run({ items: [{ id: 'b', name: 'B' }] }).outgoing.out;
    expect(first).toEqual([{ id: 'a', label: 'A' }]);
    expect(second).toEqual([{ id: 'b', label: 'B' }]);
  });

  it('the mapped array read on by another step goes out the same in both places', () => {
    const doc = mapDoc(picker([['id', 'id']]));
    doc.outgoing = [{ $id: 'out' }, { $id: 'wrapped' }];
    doc.steps = [...(doc.steps ?? []), method(10, 'new Object', [null]), method(11, 'setProperty', [null, 'list', null]), assign(12, ['method', 10, '/return'], ['method', 11, '/args/0/value']), assign(13, ['method', 1, '/return'], ['method', 11, '/args/2/value']), assign(14, ['method', 11, '/return'], ['outgoing', 'wrapped', ''])];
    const items = () => ({ items: [{ id: new Date('2026-01-01T00:00:00.000Z') }, { id: 'x' }] });
    expect(same(doc, items)).toEqual({ out: [{ id: '2026-01-01T00:00:00.000Z' }, { id: 'x' }], wrapped: { list: [{ id: '2026-01-01T00:00:00.000Z' }, { id: 'x' }] } });
  });

  it('answers as the interpreter for any names and any items', () => {
    const name = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('id', 'length', '__proto__', 'constructor', 'toString', '0', 1, -1, null, true));
    const item = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.constantFrom('id', 'name', 'length', '0', '__proto__', 'toString'), fc.jsonValue({ maxDepth: 1 })));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, name), { minLength: 1, maxLength: 3 }), fc.array(item, { maxLength: 4 }), (pairs, items) => {
        same(mapDoc(picker(pairs)), () => ({ items: structuredClone(items) }));
      }),
      { numRuns: 150, seed: 2026 },
    );
  });
});
