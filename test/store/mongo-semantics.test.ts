// The embedded store answers filters as MongoDB does (issue 41, item 6): arrays matched by their
// items, dotted paths into arrays of documents, $in/$nin/$all/$elemMatch/$size/$exists, null
// matching a missing field, comparisons only within a type. Oracle: mingo, an in-memory
// implementation of MongoDB's query language (a dev dependency). An indexed and an unindexed
// collection (columns and partial indexes, or json_extract alone) must both answer as it does.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCollection } from '../../core/store/embedded/collection';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { document, filter, forMingo, ids, onlyDocuments } from './support/mongo-filters';
import { withTempStore } from './support/temp-store';

let store: EmbeddedStore;
withTempStore('mongo-semantics-', (opened) => ({ store } = opened));

/** mingo's Query, loaded by name: a checkout without the dev dependency skips the oracle tests, saying why. */
type Oracle = new (criteria: Record<string, unknown>) => { test(doc: unknown): boolean };
let Query: Oracle | undefined;
let missing = '';
beforeAll(async () => {
  const name = 'mingo';
  try {
    Query = ((await import(/* @vite-ignore */ name)) as { Query: Oracle }).Query;
  } catch (error) {
    missing = `mingo is not installed (npm i -D mingo): ${error instanceof Error ? error.message : String(error)}`;
  }
});

describe('the embedded store answers filters as MongoDB (oracle: mingo)', () => {
  it('the small cases of issue 41: arrays matched by their items, $in on an array, a dotted path into an array of documents', async (context) => {
    if (!Query) {
      console.log(`skipped: ${missing}`);
      context.skip();
    }
    const docs = [
      { _id: '1', tags: ['a', 'b'], items: [{ k: 1 }, { k: 2 }] },
      { _id: '2', tags: 'a', items: { k: 3 } },
    ];
    for (const name of ['small-plain', 'small-indexed']) {
      const c = store.collection(name);
      if (name.endsWith('indexed')) for (const key of ['tags', 'items.k']) await c.createIndex({ key: { [key]: 1 }, name: `${key}_1` });
      await c.insertMany(docs);
      expect(ids(await c.find({ tags: 'a' }))).toEqual(['1', '2']);
      expect(ids(await c.find({ tags: { $in: ['b'] } }))).toEqual(['1']);
      expect(ids(await c.find({ 'items.k': 2 }))).toEqual(['1']);
      for (const f of [{ tags: 'a' }, { tags: { $in: ['b'] } }, { 'items.k': 2 }]) expect(ids(await c.find(f))).toEqual(docs.filter((d) => new Query!(f).test(d)).map((d) => d._id));
    }
  });

  it('generated documents and filters: the same documents as mingo, indexed or not', async (context) => {
    if (!Query) {
      console.log(`skipped: ${missing}`);
      context.skip();
    }
    const plain = store.collection('plain');
    const indexed = store.collection('indexed');
    for (const key of ['tags', 'items.k', 'n', 's']) await indexed.createIndex({ key: { [key]: 1 }, name: `${key}_1` });
    await fc.assert(
      fc.asyncProperty(fc.array(document, { minLength: 1, maxLength: 6 }), filter, async (generated, f) => {
        const docs = generated.map((d, i) => ({ ...d, _id: `d${i}` }));
        await plain.deleteMany({});
        await indexed.deleteMany({});
        await plain.insertMany(docs);
        await indexed.insertMany(docs);
        const expected = docs.filter((d) => new Query!(forMingo(f)).test(onlyDocuments(d, f))).map((d) => d._id).sort();
        expect(ids(await plain.find(f))).toEqual(expected);
        expect(ids(await indexed.find(f))).toEqual(expected);
        expect(await indexed.count(f)).toBe(expected.length);
      }),
      { numRuns: 500 },
    );
  });

  it('the engine\'s claim keeps its index while no task holds an array there, and finds a task that does (oracle: MongoDB\'s documented array matching)', async () => {
    const tasks = store.collection('claims') as EmbeddedCollection;
    await tasks.createIndex({ key: { status: 1, runAfter: 1 }, name: 'status_1_runAfter_1' });
    await tasks.insertMany([
      { _id: 'a', status: 'queued', runAfter: 1 },
      { _id: 'b', status: 'complete', runAfter: 1 },
    ]);
    const claim = { status: 'queued', runAfter: { $lte: 5 } };
    expect(await tasks.explain(claim)).toEqual([expect.stringMatching(/SEARCH c:claims USING INDEX i:claims:status_1_runAfter_1 \(k:status=\? AND k:runAfter<\?\)/)]);
    await tasks.insertOne({ _id: 'c', status: ['queued', 'held'], runAfter: [9, 3] });
    expect(ids(await tasks.find(claim))).toEqual(['a', 'c']);
    await tasks.deleteOne({ _id: 'c' });
    expect(await tasks.explain(claim)).toEqual([expect.stringMatching(/USING INDEX i:claims:status_1_runAfter_1 \(k:status=\? AND k:runAfter<\?\)/)]);
  });

  it('refuses an operator it does not answer as MongoDB, naming it', async () => {
    const c = store.collection('refused');
    await c.insertOne({ _id: '1', tags: ['a'] });
    await expect(c.find({ tags: { $not: { $size: 1 } } })).rejects.toThrow(/unsupported query operator \$not on tags/);
    await expect(c.find({ tags: { $elemMatch: { $type: 'string' } } })).rejects.toThrow(/\$type/);
    await expect(c.find({ tags: { $all: 'a' } })).rejects.toThrow(/\$all on tags takes an array/);
  });
});
