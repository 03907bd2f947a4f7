// The compiled form of a document (core/transformations/compiled.ts) answers what the
// interpreter answers: the same outgoing values, or the same error (code, message, place),
// for every document of the project's fixtures and the bench's map document, every document
// of the real exports (the corpus, skipped with the reason when it is absent), random
// documents, and runs that end at a limit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { sampleFromSchema } from '../../core/contract/transformations';
import { compileTransformation } from '../../core/transformations/compiled';
import { createTransformationsService } from '../../core/transformations/service';
import { transformationRunner } from '../../core/transformations/task';
import { tempEmbeddedStore } from '../engine/queue/support';
import { TransformationError } from '../../core/transformations/errors';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, JstScope, RunOptions, Step } from '../../core/transformations/types';
import { corpus, fixtures, noteCorpusSkip } from './corpus';
import { assign, fnOf, mapDocument } from './helpers';
import { document, json } from './random-documents';

noteCorpusSkip('the compiled form on the JST documents of the real exports');

type Outcome = { outgoing: Record<string, unknown> } | { error: string; code?: string; place?: unknown; details?: unknown };

function outcome(run: () => { outgoing: Record<string, unknown> }): Outcome {
  try {
    return { outgoing: run().outgoing };
  } catch (error) {
    if (error instanceof TransformationError) return { error: error.message, code: error.reason, place: error.place, details: error.issues };
    return { error: `not a TransformationError: ${String(error)}` };
  }
}

/** Both forms on their own copies of the document and the values (a method that changed one could not touch the other). */
function both(doc: JstDocument, incoming: Record<string, unknown>, options: RunOptions = {}): { interpreted: Outcome; compiled: Outcome } {
  const interpreted = outcome(() => runTransformation(structuredClone(doc), structuredClone(incoming), options));
  const compiled = compileTransformation(structuredClone(doc));
  const first = outcome(() => compiled.run(structuredClone(incoming), options));
  // A second run of the same compiled document answers the same again.
  expect(outcome(() => compiled.run(structuredClone(incoming), options))).toEqual(first);
  return { interpreted, compiled: first };
}

const benchDoc = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../bench/fixtures/Summarize Items - Bench.json'), 'utf8')) as JstDocument;

describe.each([
  { source: fixtures, extra: [benchDoc] },
  { source: corpus, extra: [] },
])('compiled and interpreted alike: the JST documents $source.tag', ({ source, extra }) => {
  const docs: JstDocument[] = [...source.transformations().map((file) => file.doc as unknown as JstDocument), ...extra];
  it.skipIf(!source.present)('has documents to compare', () => {
    expect(docs.length).toBeGreaterThan(0);
  });
  for (const doc of docs) {
    it(`"${doc.name}": same answer on inputs built from its schemas, on no input, and unchecked`, () => {
      const sample = Object.fromEntries((doc.incoming ?? []).map((schema) => [String(schema.$id), sampleFromSchema(schema)]));
      for (const [incoming, options] of [
        [sample, {}],
        [{}, {}],
        [sample, { validateIncoming: false, revertToDefaultValue: false }],
        [Object.fromEntries(Object.keys(sample).map((k) => [k, 42])), {}],
        [Object.fromEntries(Object.keys(sample).map((k) => [k, 42])), { validateIncoming: false }],
      ] as const) {
        const { interpreted, compiled } = both(doc, incoming, options);
        expect(compiled).toEqual(interpreted);
      }
    });
  }
});

describe('compiled and interpreted alike', () => {
  it('on the bench map document over 50 items', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `item-${i}`, name: `name ${i}`, size: i }));
    const { interpreted, compiled } = both(benchDoc, { items });
    expect(compiled).toEqual({ outgoing: { summaries: items.map((item) => ({ id: item.id, label: item.name })) } });
    expect(interpreted).toEqual(compiled);
  });

  it('a map whose function is named by a value, another name run after run, as the interpreter answers each', () => {
    // The map step's call keeps the function it called last: a run naming another must not get it.
    const doc = mapDocument('map by name', 'ids', [fnOf('ids', 'Object', 'getProperty', ['id'], ['currentValue', 'index', 'array']), fnOf('names', 'Object', 'getProperty', ['name'], ['currentValue', 'index', 'array'])]);
    doc.incoming = [{ $id: 'items' }, { $id: 'which' }];
    doc.steps = [...(doc.steps ?? []), assign(4, ['incoming', 'which', ''], ['method', 1, '/args/1/value'])];
    const compiled = compileTransformation(structuredClone(doc));
    const items = [{ id: 'a1', name: 'Ada' }, { id: 'g2', name: 'Grace' }];
    for (const which of ['ids', 'ids', 'ids', 'names', 'missing', 'ids', 'names']) {
      const interpreted = outcome(() => runTransformation(structuredClone(doc), { items, which }));
      expect(outcome(() => compiled.run({ items, which }))).toEqual(interpreted);
      if (which === 'ids') expect(interpreted).toEqual({ outgoing: { out: ['a1', 'g2'] } });
      if (which === 'names') expect(interpreted).toEqual({ outgoing: { out: ['Ada', 'Grace'] } });
    }
  });

  it('on random documents (broken wiring, wrong types and cycles included)', () => {
    fc.assert(
      fc.property(document, json, (doc, x) => {
        // Random numbers cannot be compared run to run.
        fc.pre(!JSON.stringify(doc).includes('random'));
        const { interpreted, compiled } = both(doc, { x }, { timeoutMs: 2_000, maxSteps: 20_000, maxDepth: 8 });
        expect(compiled).toEqual(interpreted);
      }),
      { numRuns: 300, seed: 20222 },
    );
  });

  it('at the step, depth and time limits, with the same messages', () => {
    const mapDoc = (fn: string, functions: JstScope[]): JstDocument => mapDocument('limits', fn, functions);
    const plain = mapDoc('id', [fnOf('id', 'Object', 'valueOf', [], ['currentValue', 'index', 'array'])]);
    const steps = both(plain, { items: Array.from({ length: 5_000 }, (_, i) => i) }, { maxSteps: 1_000 });
    expect(steps.compiled).toEqual(steps.interpreted);
    expect(JSON.stringify(steps.compiled)).toContain('past 1000 steps');

    const again = { name: 'again', incoming: [{ $id: 'currentValue' }], outgoing: [{ $id: 'newValue' }], steps: [] as Step[] };
    again.steps.push({ id: 1, type: 'method', library: 'Array', method: 'map', args: [null, 'again'] }, assign(2, ['incoming', 'currentValue', ''], ['method', 1, '/args/0/value']), assign(3, ['method', 1, '/return'], ['outgoing', 'newValue', '']));
    let nested: unknown = [];
    for (let i = 0; i < 100; i++) nested = [nested];
    const depth = both(mapDoc('again', [again]), { items: nested }, { maxDepth: 20 });
    expect(depth.compiled).toEqual(depth.interpreted);
    expect(JSON.stringify(depth.compiled)).toContain('more than 20 deep');

    const compiled = compileTransformation(plain);
    const slow = outcome(() => compiled.run({ items: Array.from({ length: 200_000 }, (_, i) => i) }, { timeoutMs: 1 }));
    expect(slow).toMatchObject({ code: 'limit', error: expect.stringContaining('longer than 1 ms') });
  });

  it('checks the time at every 1,024th step: a shorter run is never stopped by the clock, a longer one at its first check, in both forms', () => {
    const plain = mapDocument('clock', 'id', [fnOf('id', 'Object', 'valueOf', [], ['currentValue', 'index', 'array'])]);
    const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => i) });
    // Each run reads the clock at its start, and then finds 20 s gone at every read: its time (5 s) is up at once.
    const upAtOnce = (run: () => { outgoing: Record<string, unknown> }) => {
      let started = false;
      const now = vi.spyOn(Date, 'now').mockImplementation(() => (started ? 21_000 : ((started = true), 1_000)));
      try {
        return outcome(run);
      } finally {
        now.mockRestore();
      }
    };
    // The steps a run of n items makes: the smallest step limit it passes (a binary search).
    const steps = (n: number) => {
      let [low, high] = [1, 100_000];
      while (low < high) {
        const limit = Math.floor((low + high) / 2);
        if ('error' in outcome(() => runTransformation(plain, items(n), { maxSteps: limit }))) low = limit + 1;
        else high = limit;
      }
      return low;
    };
    const compiled = compileTransformation(plain);
    for (const n of [10, 100]) {
      expect(steps(n)).toBeLessThan(1_024);
      const answer = { outgoing: { out: items(n).items } };
      expect(upAtOnce(() => runTransformation(plain, items(n)))).toEqual(answer);
      // The first run as closures, the next as code written for the document.
      expect(upAtOnce(() => compiled.run(items(n)))).toEqual(answer);
      expect(upAtOnce(() => compiled.run(items(n)))).toEqual(answer);
    }
    expect(steps(300)).toBeGreaterThan(1_024);
    for (const run of [() => runTransformation(plain, items(300)), () => compiled.run(items(300)), () => compiled.run(items(300))]) {
      expect(upAtOnce(run)).toMatchObject({ code: 'limit', error: expect.stringContaining('took longer than 5000 ms') });
    }
  });

  it('reading a step\'s arguments, its return and the whole step, by every pointer shape', () => {
    const read = (id: number, ptr: string): Step => ({ id, type: 'assign', from: { location: 'method', name: 1, ptr }, to: { location: 'outgoing', name: `o${id}`, ptr: '' } });
    const pointers = ['/args/0/value', '/args/1/value', '/args/0/value/name', '/args/2/value', '/args/1', '/args', '/return', '/return/0', ''];
    const doc: JstDocument = {
      name: 'reads',
      incoming: [{ $id: 'list' }, { $id: 'item' }],
      outgoing: pointers.map((_, i) => ({ $id: `o${10 + i}` })),
      steps: [
        { id: 1, type: 'method', library: 'Array', method: 'concat', args: [null, null] },
        { id: 2, type: 'assign', from: { location: 'incoming', name: 'list', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/0/value' } },
        { id: 3, type: 'assign', from: { location: 'incoming', name: 'item', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/1/value' } },
        ...pointers.map((ptr, i) => read(10 + i, ptr)),
      ],
    };
    const { interpreted, compiled } = both(doc, { list: [{ name: 'a' }], item: { name: 'b' } });
    expect(compiled).toEqual(interpreted);
    expect(compiled).toMatchObject({ outgoing: { o10: [{ name: 'a' }], o11: { name: 'b' }, o12: undefined, o13: undefined, o14: { value: { name: 'b' } }, o16: [{ name: 'a' }, { name: 'b' }], o17: { name: 'a' } } });
  });

  it('a document that cannot be planned fails at its run, as the interpreter does', () => {
    const doc: JstDocument = { name: 'broken', incoming: [{ $id: 'a' }], outgoing: [{ $id: 'b' }], steps: [{ id: 1, type: 'method', library: 'Nope', method: 'nothing', args: [] }] };
    const { interpreted, compiled } = both(doc, { a: 1 });
    expect(compiled).toEqual(interpreted);
    expect(compiled).toMatchObject({ code: 'unsupported' });
  });
});

describe('the service runs the compiled form of each stored revision', () => {
  it('a replaced document runs as replaced, by the API and by the engine\'s task', async () => {
    const temp = await tempEmbeddedStore();
    try {
      let clock = Date.parse('2026-11-26T00:00:00Z');
      const service = createTransformationsService({ store: () => temp.store, now: () => new Date((clock += 1_000)) });
      const version = (method: string): JstDocument => ({
        _id: '6560a1f0c0ffee0000000c01',
        name: 'Case',
        incoming: [{ $id: 'text', type: 'string' }],
        outgoing: [{ $id: 'out', type: 'string' }],
        steps: [
          { id: 1, type: 'method', library: 'String', method, args: [null] },
          { id: 2, type: 'assign', from: { location: 'incoming', name: 'text', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/0/value' } },
          { id: 3, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'out', ptr: '' } },
        ],
      });
      await service.create(version('toUpperCase'));
      const task = transformationRunner(service.resolve, service.runDocument);
      const run = () => task.run({ tr_id: '6560a1f0c0ffee0000000c01', variableMap: { text: 'MiXed' }, options: {} });
      expect(await service.run('6560a1f0c0ffee0000000c01', { text: 'MiXed' })).toEqual({ outgoing: { out: 'MIXED' } });
      expect(await run()).toEqual({ out: 'MIXED' });
      await service.replace('6560a1f0c0ffee0000000c01', version('toLowerCase'));
      expect(await service.run('6560a1f0c0ffee0000000c01', { text: 'MiXed' })).toEqual({ outgoing: { out: 'mixed' } });
      expect(await run()).toEqual({ out: 'mixed' });
      // A bad value is named as the interpreter names it.
      await expect(service.run('6560a1f0c0ffee0000000c01', { text: 5 })).rejects.toThrow('incoming.text must be string');
    } finally {
      await temp.dispose();
    }
  });
});
