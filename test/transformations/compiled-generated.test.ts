// The compiled form's generated code (core/transformations/compiled/generate.ts): a nested function
// of static-name reads and new objects is written as JavaScript for its document, its names and
// static values only ever as indexes into a constants array. The interpreter is the oracle: random
// functions of that shape, random names (hostile ones included) and random items answer the same
// values, or the same errors at the same steps, both ways.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { scopeInfo } from '../../core/transformations/compiled/nodes';
import { pureAnswer } from '../../core/transformations/compiled/pure';
import { pureSource } from '../../core/transformations/compiled/generate';
import { runTransformation } from '../../core/transformations/interpreter';
import { planFor } from '../../core/transformations/plan';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { assign, mapDocument, outcome } from './helpers';

/** A value of the function: an argument (item, index, array), a static value, a property read, a new object. */
type Tree = { arg: number } | { static: unknown } | { get: Tree; name: unknown } | { object: [unknown, Tree][] };

type Ref = [string, string | number, string] | { static: unknown };

/** Names that would break out of generated text if they ever entered it. */
const HOSTILE = ['"]);process.exit(1);//', "'];globalThis.injected=1;//", '`${globalThis.injected=1}`', '*/globalThis.injected=1;/*', '\u2028globalThis.injected=1', '\\\'); globalThis.injected = 1; (\'', '</script>', 'c0', 'a0'];

const ARGS = ['currentValue', 'index', 'array'];

/** The function's steps for a tree, wired as the designer wires them. */
function functionOf(tree: Tree): JstScope {
  const steps: Step[] = [];
  let next = 1;
  const wire = (from: Ref, to: [string, number, string], args: unknown[], at: number) => {
    if ('static' in from) args[at] = from.static;
    else steps.push(assign(next++, from, to));
  };
  const build = (t: Tree): Ref => {
    if ('arg' in t) return ['incoming', ARGS[t.arg] ?? 'currentValue', ''];
    if ('static' in t) return { static: t.static };
    if ('get' in t) {
      const from = build(t.get);
      const id = next++;
      const step: Step = { id, type: 'method', library: 'Object', method: 'getProperty', args: [null, t.name] };
      steps.push(step);
      wire(from, ['method', id, '/args/0/value'], step.args ?? [], 0);
      return ['method', id, '/return'];
    }
    const made = next++;
    steps.push({ id: made, type: 'declaration', library: 'Object', method: 'new Object', args: [null] });
    let last: Ref = ['declaration', made, '/return'];
    for (const [name, value] of t.object) {
      const from = build(value);
      const id = next++;
      const step: Step = { id, type: 'method', library: 'Object', method: 'setProperty', args: [null, name, null] };
      steps.push(step);
      wire(last, ['method', id, '/args/0/value'], step.args ?? [], 0);
      wire(from, ['method', id, '/args/2/value'], step.args ?? [], 2);
      last = ['method', id, '/return'];
    }
    return last;
  };
  const answer = build(tree);
  if ('static' in answer) steps.push({ id: next++, type: 'assign', from: { location: 'static', value: answer.static }, to: { location: 'outgoing', name: 'newValue', ptr: '' } });
  else steps.push(assign(next++, answer, ['outgoing', 'newValue', '']));
  return {
    name: 'fn',
    incoming: [{ $id: 'currentValue' }, { $id: 'index' }, { $id: 'array' }, { $id: 'thisArg', isContext: true, properties: {} }],
    outgoing: [{ $id: 'newValue' }],
    steps,
  };
}

const docOf = (tree: Tree): JstDocument => mapDocument('generated', 'fn', [functionOf(tree)]);

/** Whether the function is written as generated code (the shape generate.ts handles), not run through closures. */
function generated(doc: JstDocument): boolean {
  const fn = doc.functions?.[0] as JstScope;
  const plan = planFor(fn, doc.name, new Map(), 'fn');
  return pureAnswer(
    plan,
    scopeInfo(plan, () => {
      throw new Error('not called');
    }),
  ) !== undefined;
}

/** The interpreter's answer, after checking the compiled form gives the same, strictly, on fresh values twice. */
function same(doc: JstDocument, incoming: () => Record<string, unknown>, options: RunOptions = {}): unknown {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), incoming(), options));
  const compiled = compileTransformation(structuredClone(doc));
  expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  return interpreted;
}

const goodName = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE, 'id', 'name', 'length', '0', 'toString', 'hasOwnProperty', 'valueOf') },
  { weight: 1, arbitrary: fc.string({ maxLength: 5 }) },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 3 }) },
);
const anyName = fc.oneof({ weight: 8, arbitrary: goodName }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', null, true) });

const tree = (name: fc.Arbitrary<unknown>) =>
  fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ arg: fc.nat(2) }),
      fc.record({ get: fc.oneof({ weight: 3, arbitrary: fc.constant({ arg: 0 }) }, { weight: 1, arbitrary: tie('tree') }), name }),
      fc.record({ object: fc.array(fc.tuple(name, tie('tree')), { maxLength: 3 }) }),
      fc.record({ static: fc.jsonValue({ maxDepth: 1 }) }),
    ),
  })).tree;

/** An item, made anew for each run from its description: a plain object, one with a prototype of its own or none, an array with names, any JSON value. */
type ItemSpec = { kind: 'plain' | 'inherits' | 'bare' | 'array'; own: Record<string, unknown>; inherited: Record<string, unknown> } | { kind: 'json'; value: unknown };
const fields = fc.dictionary(goodName.map(String), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
const itemSpec: fc.Arbitrary<ItemSpec> = fc.oneof(
  fc.record({ kind: fc.constantFrom('plain', 'inherits', 'bare', 'array' as const), own: fields, inherited: fields }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
);
function itemOf(spec: ItemSpec): unknown {
  if (spec.kind === 'json') return structuredClone(spec.value);
  const own = structuredClone(spec.own);
  if (spec.kind === 'plain') return own;
  // An array's `length` is its own: the other names are set on it.
  if (spec.kind === 'array') return Object.assign(['x', 'y'], Object.fromEntries(Object.entries(own).filter(([name]) => name !== 'length')));
  return Object.assign(Object.create(spec.kind === 'bare' ? null : structuredClone(spec.inherited)) as object, own);
}

describe('generated code answers as the interpreter', () => {
  it('for random functions of reads and new objects, any names and any items', () => {
    fc.assert(
      fc.property(tree(anyName), fc.array(itemSpec, { maxLength: 4 }), (t, items) => {
        same(docOf(t), () => ({ items: items.map(itemOf) }));
      }),
      { numRuns: 400, seed: 45 },
    );
  });

  it('every such function with names it may use is generated, not left to the closures', () => {
    fc.assert(
      fc.property(tree(goodName), (t) => {
        expect(generated(docOf(t))).toBe(true);
      }),
      { numRuns: 200, seed: 46 },
    );
  });

  it('stops at the same step as the interpreter at every step limit', () => {
    const doc = docOf({ object: [['a', { get: { arg: 0 }, name: 'x' }], ['b', { get: { get: { arg: 0 }, name: 'y' }, name: 'z' }]] });
    expect(generated(doc)).toBe(true);
    const items = () => ({ items: Array.from({ length: 12 }, (_, i) => ({ x: i, y: { z: `z${i}` } })) });
    const stops = new Set<string>();
    for (let maxSteps = 1; maxSteps <= 120; maxSteps++) stops.add(JSON.stringify(same(doc, items, { maxSteps })));
    expect([...stops].filter((answer) => answer.includes('went past')).length).toBeGreaterThan(10);
  });
});

describe('generated code on a changed Object.prototype', () => {
  it('a name set through a setter of Object.prototype goes through it, as the interpreter sets it', () => {
    const doc = docOf({ object: [['label', { get: { arg: 0 }, name: 'name' }], ['id', { get: { arg: 0 }, name: 'id' }]] });
    const seen: unknown[] = [];
    const compiled = compileTransformation(structuredClone(doc));
    const items = () => ({ items: [{ id: 1, name: 'one' }] });
    expect(compiled.run(items()).outgoing).toEqual({ out: [{ label: 'one', id: 1 }] });
    Object.defineProperty(Object.prototype, 'label', { set: (value: unknown) => seen.push(value), configurable: true });
    try {
      const interpreted = outcome(() => runTransformation(structuredClone(doc), items()));
      expect(outcome(() => compiled.run(items()))).toStrictEqual(interpreted);
      expect(interpreted).toEqual({ out: [{ id: 1 }] });
      expect(seen).toEqual(['one', 'one']);
    } finally {
      Reflect.deleteProperty(Object.prototype, 'label');
    }
    expect(compiled.run(items()).outgoing).toEqual({ out: [{ label: 'one', id: 1 }] });
  });
});

describe('a document cannot put code into the generated text', () => {
  it('names that close strings, brackets and comments are read and set as names', () => {
    const pairs: [string, string][] = HOSTILE.map((name, i) => [name, HOSTILE[(i + 1) % HOSTILE.length] ?? name]);
    const doc = docOf({ object: pairs.map(([out, read]) => [out, { get: { arg: 0 }, name: read }]) });
    expect(generated(doc)).toBe(true);
    const item = Object.fromEntries(HOSTILE.map((name, i) => [name, i]));
    const answer = same(doc, () => ({ items: [item, { other: 1 }] }));
    expect(answer).toEqual({ out: [Object.fromEntries(pairs.map(([out, read]) => [out, item[read]])), Object.fromEntries(pairs.map(([out]) => [out, undefined]))] });
    expect(Reflect.get(globalThis, 'injected')).toBeUndefined();
  });

  it('no name or static value appears in the text: each is an element of the constants', () => {
    const values = ['"]);process.exit(1);//', { nested: '*/ globalThis.injected = 1; /*' }];
    const { text, constants } = pureSource(
      { kind: 'new', keys: [HOSTILE[0] ?? '', HOSTILE[1] ?? ''], values: [{ kind: 'get', object: { kind: 'arg', at: 0 }, key: HOSTILE[2] ?? '' }, { kind: 'const', value: values[1] }] },
      { all: true },
      { count: 0 },
    );
    for (const name of HOSTILE.slice(0, 7)) expect(text).not.toContain(name);
    expect(text).not.toContain('injected');
    expect(constants).toEqual(expect.arrayContaining([HOSTILE[0], HOSTILE[1], HOSTILE[2], values[1]]));
  });
});
