// The embedded store keeps, inside write transactions and out of them, its answer to "does any document hold an
// array on this indexed field's path" between updates (array-free.ts) instead of asking SQLite
// before every update. A query must still find what MongoDB finds after an array arrives on the
// path: written by this connection in the same transaction (insert or $set, on the field or a
// parent), by another connection between transactions, or rolled back with its transaction.
// And an update's filter reads its operands where the SET's parameters come first.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArrayFreeAnswers, arrayOnPath } from '../../core/store/embedded/array-free';
import { matchDocument } from '../../core/store/embedded/match';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { sqlite } from '../../core/store/embedded/sqlite';
import type { Doc, Store } from '../../core/store/port';

let dir: string;
let store: EmbeddedStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'array-free-'));
  store = await openEmbeddedStore(dir, { file: 'shared.sqlite' });
  const items = store.collection('items');
  await items.createIndex({ key: { status: 1 }, name: 'status_1' });
  await items.createIndex({ key: { 'm.k': 1 }, name: 'm.k_1' });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** `fn` as one write transaction of the store (where the answers are kept). */
const inTransaction = <R>(fn: () => Promise<R>) => store.transaction!(() => fn());
const ids = (docs: Doc[]) => docs.map((d) => String(d._id)).sort();

describe('kept array answers', () => {
  it('an equality on a field finds the document given an array there later in the same transaction', async () => {
    const items = store.collection('items');
    await items.insertMany([{ _id: 'a', status: 'queued', m: { k: 1 } }, { _id: 'b', status: 'done', m: { k: 2 } }]);
    const found = await inTransaction(async () => {
      await items.updateOne({ status: 'queued' }, { $set: { seen: true } });
      await items.insertOne({ _id: 'c', status: ['done', 'queued'], m: { k: 3 } });
      await items.updateOne({ _id: 'b' }, { $set: { m: { k: [1, 9] } } });
      return { status: ids(await items.find({ status: 'queued' })), k: ids(await items.find({ 'm.k': 1 })) };
    });
    expect(found).toEqual({ status: ['a', 'c'], k: ['a', 'b'] });
  });

  it('an array written by another connection between transactions is found by the next one', async () => {
    const items = store.collection('items');
    await items.insertOne({ _id: 'a', status: 'queued' });
    await inTransaction(() => items.updateOne({ status: 'queued' }, { $set: { n: 1 } }));
    // Another connection to the file (as another console process): its triggers fill the columns.
    const other = new (sqlite().DatabaseSync)(path.join(dir, 'shared.sqlite'));
    try {
      other.exec('PRAGMA busy_timeout = 5000');
      other.prepare('INSERT INTO "c:items" (doc) VALUES (?)').run(JSON.stringify({ _id: 'b', status: ['queued'] }));
    } finally {
      other.close();
    }
    const matched = await inTransaction(() => items.updateMany({ status: 'queued' }, { $set: { n: 2 } }));
    expect(matched.matched).toBe(2);
  });

  it('out of a transaction, an array written by this connection or another between two claims is found by the next', async () => {
    const items = store.collection('items');
    await items.insertOne({ _id: 'a', status: 'queued', n: 0 });
    expect((await items.findOneAndUpdate({ status: 'queued', n: 0 }, { $set: { n: 1 } }, { sort: { _id: 1 } }))?._id).toBe('a');
    await items.insertOne({ _id: 'b', status: ['x', 'queued'], n: 1 });
    expect((await items.findOneAndUpdate({ status: 'queued', n: 1 }, { $set: { n: 2 } }, { sort: { _id: -1 } }))?._id).toBe('b');
    const other = new (sqlite().DatabaseSync)(path.join(dir, 'shared.sqlite'));
    try {
      other.exec('PRAGMA busy_timeout = 5000');
      other.prepare('INSERT INTO "c:items" (doc) VALUES (?)').run(JSON.stringify({ _id: 'c', m: { k: [5, 6] }, n: 2 }));
    } finally {
      other.close();
    }
    expect((await items.findOneAndUpdate({ 'm.k': 6, n: 2 }, { $set: { n: 3 } }))?._id).toBe('c');
    expect((await items.updateMany({ status: 'queued' }, { $set: { n: 4 } })).matched).toBe(2);
  });

  it('updates and claims match a value held in an array as find does (the filter\'s numbered operands after the SET\'s)', async () => {
    const items = store.collection('items');
    await items.insertMany([{ _id: 'a', status: 'queued' }, { _id: 'b', status: ['x', 'queued'] }, { _id: 'c', status: 'x' }]);
    expect(ids(await items.find({ status: 'queued' }))).toEqual(['a', 'b']);
    expect((await items.updateMany({ status: 'queued' }, { $set: { n: 1 } })).matched).toBe(2);
    expect((await items.findOneAndUpdate({ status: 'queued', n: 1 }, { $set: { n: 2 } }, { sort: { _id: -1 } }))?._id).toBe('b');
    expect((await items.updateOne({ status: { $in: ['queued'] }, n: 2 }, { $set: { n: 3 } })).matched).toBe(1);
    expect(ids(await items.find({ n: 3 }))).toEqual(['b']);
  });

  it('answers found after an array was removed in a rolled-back transaction are not kept', async () => {
    const items = store.collection('items');
    await items.insertOne({ _id: 'a', status: ['queued', 'x'] });
    await expect(
      inTransaction(async () => {
        await items.updateOne({ _id: 'a' }, { $set: { status: 'x' } });
        await items.updateOne({ status: 'x' }, { $set: { n: 1 } });
        throw new Error('rolled back on purpose');
      }),
    ).rejects.toThrow('rolled back on purpose');
    expect(ids(await inTransaction(() => items.find({ status: 'queued' })))).toEqual(['a']);
  });

  it('any sequence of inserts and updates, in transactions or out of them, finds what a matcher of the documents finds', async () => {
    const value = fc.oneof(fc.constantFrom('q', 'r', 1), fc.array(fc.constantFrom('q', 'r', 1), { maxLength: 2 }));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), status: value, k: value }),
      fc.record({ kind: fc.constant('set' as const), index: fc.nat(5), field: fc.constantFrom('status', 'm', 'm.k'), to: value }),
      fc.record({ kind: fc.constant('find' as const), field: fc.constantFrom('status', 'm.k'), equals: fc.constantFrom('q', 'r', 1) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.array(op, { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 3 }), async (transactions) => {
        const items: ReturnType<Store['collection']> = store.collection(`items${run++}`);
        await items.createIndex({ key: { status: 1 }, name: 'status_1' });
        await items.createIndex({ key: { 'm.k': 1 }, name: 'm.k_1' });
        const mirror: Doc[] = [];
        for (const [inOne, ops] of transactions) {
          await (inOne ? inTransaction : (fn: () => Promise<void>) => fn())(async () => {
            for (const o of ops) {
              if (o.kind === 'insert') {
                const doc = { _id: `d${mirror.length}`, status: o.status, m: { k: o.k } };
                mirror.push(structuredClone(doc));
                await items.insertOne(doc);
              } else if (o.kind === 'set') {
                const doc = mirror[o.index % Math.max(1, mirror.length)];
                if (!doc) continue;
                const to = o.field === 'm' ? { k: o.to } : o.to;
                if (o.field === 'm.k') doc.m = { ...(doc.m as object), k: o.to };
                else doc[o.field] = structuredClone(to);
                await items.updateOne({ _id: doc._id }, { $set: { [o.field]: to } });
              } else {
                const expected = mirror.filter((d) => matchDocument(d, { [o.field]: o.equals })).map((d) => String(d._id)).sort();
                expect(ids(await items.find({ [o.field]: o.equals }))).toEqual(expected);
              }
            }
          });
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('what forgets an answer', () => {
  it('a document or a $set meeting an array on the field\'s path forgets that field only', () => {
    const answers = new ArrayFreeAnswers();
    answers.keep(['status', 'm.k', 'n'], 7, [true, true, true]);
    answers.wrote({ status: 'x', m: { k: [1] } });
    expect(answers.known(['status', 'n'], 7)).toEqual([true, true]);
    expect(answers.known(['m.k'], 7)).toBeUndefined();
    answers.wrote(undefined, { status: ['a'] });
    expect(answers.known(['status'], 7)).toBeUndefined();
    expect(answers.known(['n'], 8)).toBeUndefined();
    expect(answers.known(['n'], undefined)).toBeUndefined();
  });

  it('a path meets an array when the value or any value on the way is one', () => {
    expect(arrayOnPath({ a: { b: [1] } }, ['a', 'b'])).toBe(true);
    expect(arrayOnPath({ a: [{ b: 1 }] }, ['a', 'b'])).toBe(true);
    expect(arrayOnPath([1], [])).toBe(true);
    expect(arrayOnPath({ a: { b: 1 } }, ['a', 'b'])).toBe(false);
    expect(arrayOnPath({ a: 'text' }, ['a', 'b'])).toBe(false);
  });
});
