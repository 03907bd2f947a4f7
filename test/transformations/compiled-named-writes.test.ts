// The compiled form's one-closure functions (core/transformations/compiled/pure.ts) whose outgoing
// value is written by assigns, each at a name of its own (`/name`, `/value`): the shape of
// "Prepare VPC ID"'s buildNameValuePair in the AWS-EC2-REST pre-built, called by a function step,
// and of map callbacks building an object. The interpreter is the oracle: each case answers what
// it answers, the same value or the same error at the same step, through a function step and
// through Array.map.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { assign, mapDocument, outcome } from './helpers';

/** A function of `name` and `value` whose outgoing `pair` is written at each pointer of `writes` from its incoming values (or a static). */
function writer(writes: { to: string; from: 'name' | 'value' | { static: unknown } }[]): JstScope {
  const steps: Step[] = writes.map((w, i) =>
    typeof w.from === 'string'
      ? assign(10 + i, ['incoming', w.from, ''], ['outgoing', 'pair', w.to])
      : { id: 10 + i, type: 'assign', from: { location: 'static', value: w.from.static }, to: { location: 'outgoing', name: 'pair', ptr: w.to } },
  );
  return { name: 'pair', incoming: [{ $id: 'name' }, { $id: 'value' }], outgoing: [{ $id: 'pair', type: 'object' }], steps };
}

/** A document calling `fn` by a function step on its incoming `name` and `value`, answering `out`. */
function functionStep(fn: JstScope): JstDocument {
  return {
    name: 'a function step',
    incoming: [{ $id: 'name' }, { $id: 'value' }],
    outgoing: [{ $id: 'out' }],
    steps: [
      { id: 1, type: 'function', function: String(fn.name), args: [null, null] },
      assign(2, ['incoming', 'name', ''], ['function', 1, '/args/0/value']),
      assign(3, ['incoming', 'value', ''], ['function', 1, '/args/1/value']),
      assign(4, ['function', 1, '/return/pair'], ['outgoing', 'out', '']),
    ],
    functions: [fn],
  };
}

/** The interpreter's answer, after checking the compiled form gives the same on its first run (closures) and on its next two (the written function). */
function same(doc: JstDocument, incoming: () => Record<string, unknown>, options: RunOptions = { validateIncoming: false }): unknown {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), incoming(), options));
  const compiled = compileTransformation(structuredClone(doc));
  for (let i = 0; i < 3; i++) expect(outcome(() => compiled.run(incoming(), options))).toStrictEqual(interpreted);
  return interpreted;
}

describe('an outgoing value written at names of its own, compiled into one closure', () => {
  it('builds a name-value pair through a function step, as Prepare VPC ID does', () => {
    const doc = functionStep(writer([{ to: '/name', from: 'name' }, { to: '/value', from: 'value' }]));
    expect(same(doc, () => ({ name: 'network-interface.vpc-id', value: 'vpc-1' }))).toEqual({ out: { name: 'network-interface.vpc-id', value: 'vpc-1' } });
  });

  it('a name written twice keeps its first place and its last value; an index, `-`, a nested pointer or a refused name answers as the interpreter', () => {
    expect(JSON.stringify(same(functionStep(writer([{ to: '/b', from: 'name' }, { to: '/a', from: 'value' }, { to: '/b', from: { static: 3 } }])), () => ({ name: 'n', value: 'v' })))).toBe('{"out":{"b":3,"a":"v"}}');
    for (const to of ['/0', '/-', '/a/b', '/__proto__', '/constructor', '/prototype', '/toString', '/01', '']) {
      same(functionStep(writer([{ to, from: 'name' }, { to: '/value', from: 'value' }])), () => ({ name: { deep: [1] }, value: new Date(0) }));
    }
    expect(same(functionStep(writer([{ to: '/__proto__', from: 'name' }])), () => ({ name: 'x', value: 1 }))).toMatchObject({ error: expect.stringContaining('cannot write'), place: { function: 'pair' } });
  });

  it('a function step calling a comparison it cannot answer on an object answers as the interpreter, at every step limit', () => {
    const compare: JstScope = {
      name: 'pair',
      incoming: [{ $id: 'name' }, { $id: 'value' }],
      outgoing: [{ $id: 'pair' }],
      steps: [{ id: 1, type: 'method', library: 'Relational', method: 'lessThan', args: [null, null] }, assign(2, ['incoming', 'name', ''], ['method', 1, '/args/0/value']), assign(3, ['incoming', 'value', ''], ['method', 1, '/args/1/value']), assign(4, ['method', 1, '/return'], ['outgoing', 'pair', ''])],
    };
    const doc = functionStep(compare);
    expect(same(doc, () => ({ name: 1, value: 2 }))).toEqual({ out: true });
    expect(same(doc, () => ({ name: new Date(5), value: 6 }))).toEqual({ out: true });
    expect(same(doc, () => ({ name: Object.create(null), value: 6 }))).toMatchObject({ error: expect.stringContaining('Cannot convert object to primitive value') });
    const stops = new Set<string>();
    for (let maxSteps = 1; maxSteps <= 20; maxSteps++) stops.add(JSON.stringify(same(doc, () => ({ name: ['1'], value: 2 }), { maxSteps, validateIncoming: false })));
    expect([...stops].some((answer) => answer.includes('went past'))).toBe(true);
    expect([...stops].some((answer) => answer.includes('"out":true'))).toBe(true);
  });

  it('answers as the interpreter for any writes and any values, through a function step and through Array.map', () => {
    const to = fc.constantFrom('/name', '/value', '/a', '/0', '/-', '/a/b', '/__proto__', '/toString', '/length', '');
    const from = fc.oneof(fc.constantFrom('name' as const, 'value' as const), fc.jsonValue({ maxDepth: 1 }).map((value) => ({ static: value })));
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.constant(new Date(7)));
    fc.assert(
      fc.property(fc.array(fc.record({ to, from }), { minLength: 1, maxLength: 4 }), value, value, fc.array(value, { maxLength: 4 }), (writes, name, val, items) => {
        same(functionStep(writer(writes)), () => ({ name: structuredClone(name), value: structuredClone(val) }));
        same(mapDocument('map through a writer', 'pair', [writer(writes)]), () => ({ items: structuredClone(items) }));
      }),
      { numRuns: 200, seed: 2026 },
    );
  });
});
