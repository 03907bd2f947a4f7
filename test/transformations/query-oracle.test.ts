// One query language. Oracle: json-query 2.2.2 itself (the library the service's WorkFlowEngine
// uses, called here directly). The engine's `query` task and JST's `WorkFlowEngine.query` must
// answer what it answers, for every query string of the real exports (the corpus, when it is
// there, and the project's fixtures) and for generated paths and filters over generated values.
import fc from 'fast-check';
import jsonQuery from 'json-query';
import { describe, expect, it } from 'vitest';
import { runBuiltInTask } from '../../core/engine/tasks/library';
import { corpus, fixtures, noteCorpusSkip, type IapSource } from '../support/iap';
import { callMethod } from './helpers';

noteCorpusSkip('the query strings of the real exports');

const ORACLE = 'json-query 2.2.2';

/** The oracle's answer, with the `:get()` helper the service offers; `{ throws }` when it throws. */
function oracle(data: unknown, query: string): unknown {
  if (query.trim() === '') return data;
  try {
    return jsonQuery(query, { data, locals: { get: (input: unknown, key: unknown) => (input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[String(key)] : undefined) } }).value;
  } catch {
    return THROWS;
  }
}
const THROWS = { throws: true };

async function viaTask(data: unknown, query: string): Promise<unknown> {
  const outcome = await runBuiltInTask('query', { pass_on_null: true, query, obj: data });
  return outcome.state === 'error' ? THROWS : outcome.outgoing.return_data;
}

function viaJst(data: unknown, query: string): unknown {
  try {
    return callMethod('WorkFlowEngine', 'query', [true, query, data]);
  } catch {
    return THROWS;
  }
}

/** JSON's view of a value (what a job variable holds): undefined inside arrays as null, NaN as null. */
const asJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)) as unknown);

async function expectSame(data: unknown, query: string): Promise<void> {
  const expected = asJson(oracle(data, query));
  // A quoted key (`a["k y"]`) json-query cannot read is read as a plain path by both: compared only where json-query finds something.
  if ((expected === null || expected === undefined) && query.includes('["')) return;
  expect(asJson(await viaTask(data, query)), `query task: ${query} (oracle: ${ORACLE})`).toEqual(expected);
  expect(asJson(viaJst(data, query)), `WorkFlowEngine.query: ${query} (oracle: ${ORACLE})`).toEqual(expected);
}

/** Every literal query string of a source: JST WorkFlowEngine.query steps, query tasks, and evaluation's query / rightQuery. */
function queryStrings(source: IapSource): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const o = value as Record<string, unknown>;
    if (o.library === 'WorkFlowEngine' && o.method === 'query' && Array.isArray(o.args) && typeof o.args[1] === 'string') found.add(o.args[1]);
    const incoming = (o.variables as { incoming?: Record<string, unknown> } | undefined)?.incoming;
    if (o.name === 'query' && typeof incoming?.query === 'string' && !incoming.query.startsWith('$var')) found.add(incoming.query);
    if ('operator' in o && typeof o.query === 'string') found.add(o.query);
    if ('operator' in o && typeof o.rightQuery === 'string') found.add(o.rightQuery);
    Object.values(o).forEach(walk);
  };
  for (const file of [...source.workflows(), ...source.projects(), ...source.transformations()]) walk(file.doc);
  return [...found].sort();
}

/** A value the query finds something in: each key an object, each `[n]` an array, each `[k=v]` filter an array holding a match. */
function shapeFor(query: string): unknown {
  const parts = query.match(/\[[^\]]*\]|[^.[\]]+/g) ?? [];
  let value: unknown = 'found';
  for (const part of [...parts].reverse()) {
    const index = /^\[\s*(\d+)\s*\]$/.exec(part);
    const filter = /^\[\*?([^=!\]]+)!?=([^\]]*)\]$/.exec(part);
    if (index) value = [...Array.from({ length: Number(index[1]) }, (_v, i) => ({ other: i })), value];
    else if (filter) value = [{ [filter[1]!]: 'no-match', other: 1 }, { ...(typeof value === 'object' && value !== null ? value : { value }), [filter[1]!]: filter[2] }];
    else if (part === '[*]' || part.startsWith('[')) value = [value, value];
    else value = { [part]: value };
  }
  return value;
}

describe.each([fixtures, corpus])('every query string of the exports $tag, against json-query itself', (source) => {
  const queries = queryStrings(source);

  it.skipIf(!source.present)('the exports hold query strings', () => {
    expect(queries.length).toBeGreaterThan(source === corpus ? 10 : 0);
  });

  it.skipIf(!source.present || queries.length === 0)('the query task and WorkFlowEngine.query answer as json-query does, on a value shaped for each and on unrelated values', async () => {
    const unrelated: unknown[] = [null, undefined, {}, [], 'text', 12, { response: { status: 'OK', number: 3 } }, { loop: [{ returnStatus: 'FAILED' }, { returnStatus: 'OK' }] }];
    for (const query of queries) for (const data of [shapeFor(query), ...unrelated]) await expectSame(data, query);
  });
});

describe('the query task and WorkFlowEngine.query against json-query itself, on generated paths', () => {
  const key = fc.constantFrom('a', 'b', 'name', 'type', 'value', 'result', 'items', 'status');
  const scalar = fc.oneof(fc.constantFrom('x', 'W1', 'FAILED', 'OK', ''), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('node'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  })).node;
  const segment = fc.oneof(
    key.map((k) => `.${k}`),
    fc.nat({ max: 3 }).map((n) => `[${n}]`),
    fc.nat({ max: 3 }).map((n) => `.[${n}]`),
    fc.tuple(fc.constantFrom('', '*'), key, fc.constantFrom('=', '!='), fc.constantFrom('x', 'W1', 'FAILED', '1', 'true')).map(([all, k, op, v]) => `[${all}${k}${op}${v}]`),
    fc.tuple(fc.constantFrom('', '*'), key, fc.constantFrom('=', '!='), fc.constantFrom('x', 'W1', 'FAILED')).map(([all, k, op, v]) => `.[${all}${k}${op}${v}]`),
    key.map((k) => `:get(${k})`),
  );
  const query = fc.tuple(key, fc.array(segment, { maxLength: 4 })).map(([first, rest]) => first + rest.join(''));

  it('answer what json-query answers (the issue examples included)', async () => {
    await expectSame({ result: [{ value: 5 }] }, 'result.[0].value');
    await expectSame({ artifacts: [{ type: 'workflow', name: 'W1' }, { type: 'adapter', name: 'A' }, { type: 'workflow', name: 'W2' }] }, 'artifacts.[*type=workflow].name');
    expect(await viaTask({ result: [{ value: 5 }] }, 'result.[0].value')).toBe(5);
    expect(viaJst({ artifacts: [{ type: 'workflow', name: 'W1' }, { type: 'workflow', name: 'W2' }] }, 'artifacts.[*type=workflow].name')).toEqual(['W1', 'W2']);
    await fc.assert(
      fc.asyncProperty(query, fc.dictionary(key, value, { maxKeys: 5 }), async (q, data) => {
        await expectSame(data, q);
        await expectSame(shapeFor(q), q);
      }),
      { numRuns: 300 },
    );
  });
});
