// An update whose values come back equal through JSON is handed to mongo_update as the caller
// gave it (update-function.ts), and a claim's document is the object mongo_update made: both
// give what the update as JSON text gives (as before), never change the caller's update, and
// never hand out an object another holds. Checked on generated updates holding what JSON does
// not keep (undefined, NaN, -0, infinities, class instances, functions, holes) and documents
// another writer left with numbers JSON does not write back.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { sqlite } from '../../core/store/embedded/sqlite';
import { applyUpdate } from '../../core/store/embedded/update';
import { decodeDoc, encodeDoc, jsonFate } from '../../core/store/embedded/codec';
import type { Doc, Update } from '../../core/store/port';
import { withTempStore } from './support/temp-store';

let dir: string;
let store: EmbeddedStore;
withTempStore('update-binding-', (opened) => ({ dir, store } = opened));

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
  toJSON() {
    return `${this.x},${this.y}`;
  }
}

/** An array with a hole: JSON writes null there. */
function holey(): unknown[] {
  const array: unknown[] = [1];
  array[2] = 3;
  return array;
}

const scalar = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double(), fc.string(), fc.constant('\uFDD0D2020'), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }));
const odd = fc.constantFrom<unknown>(undefined, Number.NaN, -0, Number.POSITIVE_INFINITY, new Point(1, 2), () => 1, new Map([['a', 1]]), holey());
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: odd },
  { weight: 2, arbitrary: fc.array(fc.oneof(scalar, odd), { maxLength: 3 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('p', 'q', 'x'), fc.oneof(scalar, odd), { maxKeys: 2, noNullPrototype: true }) },
);
const FIELDS = ['a', 'b', 'n', 'm', 'm.x', 'm.y', 'status'];
const update: fc.Arbitrary<Update> = fc
  .record({
    $set: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 }),
    $inc: fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(Number.NaN, -0, 0.5)), { maxKeys: 2 }),
    $unset: fc.dictionary(fc.constantFrom(...FIELDS), fc.constantFrom<unknown>('', undefined, 1), { maxKeys: 2 }),
  }, { requiredKeys: [] })
  .filter((u) => Object.values(u).some((fields) => Object.keys(fields ?? {}).length > 0)) as fc.Arbitrary<Update>;
const doc = fc.record({ a: scalar, n: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string()), m: fc.oneof(fc.constant(null), fc.dictionary(fc.constantFrom('x', 'y'), scalar, { maxKeys: 2 })), status: fc.constantFrom('queued', 'running') }, { requiredKeys: [] });

/** What the update as JSON text does to a stored document (how the store applied every update before), or the error it throws. */
function asText(stored: Doc, u: Update): { doc?: Doc; error?: string } {
  try {
    return { doc: decodeDoc(encodeDoc(applyUpdate(decodeDoc(encodeDoc(stored)), decodeDoc(encodeDoc(u))))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

let n = 0;

describe('an update handed to mongo_update as given', () => {
  it('jsonFate says equal only of values JSON gives back equal, and unmarked only of values JSON.stringify writes as encodeDoc does', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b.c', '$x'), value, { maxKeys: 3, noNullPrototype: true }), (holder) => {
        const fate = jsonFate(holder);
        if (fate.equal) expect(decodeDoc(encodeDoc(holder))).toStrictEqual(holder);
        if (fate.equal && !fate.marked) expect(JSON.stringify(holder)).toBe(encodeDoc(holder));
        if (fate.equal && !fate.objects) for (const v of Object.values(holder)) expect(typeof v === 'object' && v !== null).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('writes and returns what the update as JSON text does, and leaves the update as the caller gave it', async () => {
    const collection = store.collection('generated');
    await fc.assert(
      fc.asyncProperty(doc, update, fc.boolean(), async (d, u, claim) => {
        const stored = decodeDoc(encodeDoc(d));
        const _id = `d${n++}`;
        await collection.insertOne({ ...stored, _id });
        const given = fc.stringify(u);
        const want = asText({ ...stored, _id }, u);
        let got: Doc | null = null;
        let error: string | undefined;
        try {
          if (claim) got = await collection.findOneAndUpdate({ _id }, u);
          else await collection.updateOne({ _id }, u);
        } catch (e) {
          error = (e as Error).message;
        }
        expect(fc.stringify(u)).toBe(given);
        expect(error).toBe(want.error);
        const read = await collection.findOne({ _id });
        expect(read).toStrictEqual(want.doc ?? { ...stored, _id });
        if (claim && !error) expect(got).toStrictEqual(read);
      }),
      { numRuns: 600 },
    );
  });

  it('a field under an object the same $set sets is applied to a copy, not to the caller\'s object', async () => {
    const collection = store.collection('nested');
    await collection.insertOne({ _id: 'n1', a: 1 });
    const inner = { x: 1 };
    await collection.updateOne({ _id: 'n1' }, { $set: { a: inner, 'a.y': 2 }, $inc: { 'a.z': 1 } });
    expect(inner).toEqual({ x: 1 });
    expect(await collection.findOne({ _id: 'n1' })).toEqual({ _id: 'n1', a: { x: 1, y: 2, z: 1 } });
  });

  it('a claimed document is the caller\'s own: it holds no object of the update, and changing it changes nothing stored', async () => {
    const collection = store.collection('own');
    await collection.insertMany([{ _id: 'o1', status: 'queued' }, { _id: 'o2', status: 'queued' }]);
    const outgoing = { text: 'X' };
    const claimed = await collection.findOneAndUpdate({ _id: 'o1' }, { $set: { status: 'running', outgoing } });
    expect(claimed).toEqual({ _id: 'o1', status: 'running', outgoing: { text: 'X' } });
    expect(claimed?.outgoing).not.toBe(outgoing);
    const plain = await collection.findOneAndUpdate({ _id: 'o2' }, { $set: { status: 'running', attempt: 1 } });
    if (plain) plain.status = 'changed by the caller';
    expect(await collection.findOne({ _id: 'o2' })).toEqual({ _id: 'o2', status: 'running', attempt: 1 });
  });

  it('a claim of a document another writer left with -0 or a number past a double returns it as it is stored afterwards', async () => {
    const collection = store.collection('foreign');
    await collection.insertOne({ _id: 'f1', status: 'queued' });
    await collection.insertOne({ _id: 'f2', status: 'queued' });
    const db = new (sqlite().DatabaseSync)(path.join(dir, 'console.sqlite'));
    try {
      db.prepare(`UPDATE "c:foreign" SET doc = ? WHERE _id = ?`).run('{"_id":"f1","status":"queued","z":-0,"big":1e999}', 'f1');
      db.prepare(`UPDATE "c:foreign" SET doc = ? WHERE _id = ?`).run('{"_id":"f2","status":"queued","list":[-0]}', 'f2');
    } finally {
      db.close();
    }
    for (const _id of ['f1', 'f2']) {
      const claimed = await collection.findOneAndUpdate({ _id }, { $set: { status: 'running' } });
      expect(claimed).toStrictEqual(await collection.findOne({ _id }));
    }
  });
});
