// Strings holding a lone surrogate ('a\uD800b': legal in a JavaScript string and in JSON text as
// the escape "\ud800", not representable in UTF-8) answer alike whatever path wrote them: insert,
// $set, findOneAndUpdate, on an indexed field (a column, columns.ts), an unindexed one, an array and _id.
//
// What MongoDB does, the expected behaviour: the Node driver writes every string (values and field
// names) as UTF-8 through js-bson (ByteUtils.encodeUTF8Into: Buffer#write 'utf8'), which writes a
// lone surrogate as U+FFFD, the replacement character. So MongoDB stores and gives back 'a\uFFFDb',
// and a query for 'a\uD800b' (encoded the same way) is a query for 'a\uFFFDb'. The oracle is mingo
// given the documents and the query values as the driver sends them (`asSent`: through UTF-8 and
// back); the strings are made of BMP characters only once sent, so mingo's UTF-16 order is
// MongoDB's UTF-8 byte order.
import fc from 'fast-check';
import { find } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { Collection, Doc } from '../../core/store/port';
import { withTempStore } from './support/temp-store';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { encodeDoc, wellFormed } from '../../core/store/embedded/codec';

let store: EmbeddedStore;
withTempStore('lone-surrogates-', (opened) => ({ store } = opened));

/** A string as js-bson writes it: UTF-8 by Buffer (a lone surrogate as U+FFFD), read back. */
const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

/** What the driver sends for a value: every string (and field name) through UTF-8. */
function asSent(value: unknown): unknown {
  if (typeof value === 'string') return utf8(value);
  if (Array.isArray(value)) return value.map(asSent);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [utf8(k), asSent(v)]));
  return value;
}

// Pieces that never make a surrogate pair when put side by side: a high surrogate is followed, a low one preceded, by a letter.
const PIECES = ['a', 'b', 'é', 'z', '\uFFFD', '\uD800a', '\uDBFFb', 'a\uDC00', 'b\uDFFF', '\uD83D!'];
const text = fc.tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 4 }), fc.boolean()).map(([pieces, endHigh]) => pieces.join('') + (endHigh ? '\uD800' : ''));

const ids = (docs: Doc[]) => docs.map((d) => String(d._id));

let run = 0;
async function fresh(): Promise<Collection<Doc>> {
  const c = store.collection<Doc>(`lone-${++run}`);
  await c.createIndex({ key: { k: 1 }, name: 'k_1' });
  return c;
}

type How = 'insert' | 'set' | 'claim';

/** Writes `values[i]` at k, u, in an array at t and `_id` 'd<i>'-prefixed, each by the path `how[i]` says. */
async function write(c: Collection<Doc>, values: string[], how: How[]): Promise<Doc[]> {
  const docs = values.map((v, i): Doc => ({ _id: `d${i}${v}`, k: v, u: v, t: [v] }));
  for (const [i, doc] of docs.entries()) {
    if (how[i] === 'insert') await c.insertOne(doc);
    else {
      await c.insertOne({ _id: doc._id, k: 'placeholder', u: 'placeholder', t: [] });
      const filter = { _id: doc._id };
      if (how[i] === 'set') await c.updateOne(filter, { $set: { k: doc.k, u: doc.u, t: doc.t } });
      else {
        // Plain values alone: the claim hands out the document it made (update-function.ts).
        await c.updateOne(filter, { $set: { t: doc.t } });
        expect(await c.findOneAndUpdate(filter, { $set: { k: doc.k, u: doc.u } })).toEqual(asSent(doc));
      }
    }
  }
  return docs;
}

/** The store's answers and mingo's for the same queries, each on k (indexed), u, _id and the array t (the store's mongo_match). */
async function compare(c: Collection<Doc>, docs: Doc[], q: string, q2: string) {
  const sent = docs.map(asSent) as Doc[];
  for (const field of ['k', 'u', '_id', 't']) {
    const filters: Record<string, unknown>[] = [{ [field]: q }, { [field]: { $in: [q, q2] } }, { [field]: { $gte: q } }, { [field]: { $lt: q } }, { [field]: { $gt: q, $lte: q2 } }];
    if (field === 't') filters.push({ t: { $all: [q] } }, { t: { $elemMatch: { $gte: q } } }, { t: { $nin: [q2] } });
    else if (field === 'u') filters.push({ u: { $ne: q } });
    for (const filter of filters) {
      const expected = find(sent, asSent(filter) as Record<string, unknown>).sort({ _id: 1 }).all() as Doc[];
      const got = await c.find(filter, { sort: { _id: 1 } });
      expect({ filter, got: ids(got) }).toEqual({ filter, got: ids(expected) });
      expect(got).toEqual(expected);
    }
    // mingo orders an array by its items in turn, MongoDB by the smallest (largest descending): alike for one item.
    for (const direction of [1, -1] as const) {
      const sort = { [field]: direction, _id: 1 as const };
      expect(ids(await c.find({}, { sort }))).toEqual(ids(find(sent, {}).sort(sort).all() as Doc[]));
    }
  }
  // The _id as written by the caller finds the document, as MongoDB finds it.
  for (const doc of docs) expect(await c.findOne({ _id: doc._id })).toEqual(asSent(doc));
}

describe('strings with lone surrogates, as MongoDB through the driver stores them (U+FFFD)', () => {
  it('a document\'s text holds each lone surrogate as U+FFFD, and nothing else changes (an escaped backslash before "ud800" stays)', () => {
    const tricky = fc.array(fc.constantFrom('\\', '\\ud800', 'ud9ff', 'u', 'd', '8', '0', 'f', '"', 'a', '\uD800', '\uDBFF', '\uDC00', '\uD83D\uDE00', '\uFDD0'), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(tricky, fc.string({ unit: 'binary' })), (value) => {
        expect(JSON.parse(wellFormed(JSON.stringify({ [value]: value })))).toEqual({ [utf8(value)]: utf8(value) });
        expect(JSON.parse(encodeDoc({ v: [value] }))).toEqual({ v: [utf8(value).startsWith('\uFDD0') ? `\uFDD0S${utf8(value)}` : utf8(value)] });
      }),
      { numRuns: 500 },
    );
  });

  it('a fixed case: inserted, set and claimed, found by equality, $in, range and sorted', async () => {
    const c = await fresh();
    const values = ['a\uD800b', 'a\uD800b', 'a\uFFFDb', 'a\uDC00', 'ab', 'b\uD800'];
    const docs = await write(c, values, ['insert', 'set', 'claim', 'insert', 'set', 'claim']);
    // Read back as MongoDB gives it: the lone surrogate is U+FFFD.
    expect((await c.findOne({ _id: 'd0a\uD800b' }))?.k).toBe('a\uFFFDb');
    // The three 'a?b' are one value whatever wrote them, and a query for either spelling finds them all.
    expect(ids(await c.find({ k: 'a\uD800b' }, { sort: { _id: 1 } }))).toEqual(['d0a\uD800b', 'd1a\uD800b', 'd2a\uFFFDb'].map(utf8));
    expect(ids(await c.find({ u: 'a\uFFFDb' }, { sort: { _id: 1 } }))).toHaveLength(3);
    await compare(c, docs, 'a\uDFFFb', 'b');
    // MongoDB holds both spellings as one _id, and one value of a unique index.
    await expect(c.insertOne({ _id: 'd0a\uFFFDb' })).rejects.toMatchObject({ reason: 'duplicate-key' });
    const unique = await fresh();
    await unique.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
    await unique.insertOne({ _id: 'n1', name: 'x\uDBFF' });
    await expect(unique.insertOne({ _id: 'n2', name: 'x\uFFFD' })).rejects.toMatchObject({ reason: 'duplicate-key' });
    await unique.insertOne({ _id: 'n3', name: 'y' });
    await expect(unique.updateOne({ _id: 'n3' }, { $set: { name: 'x\uDC00' } })).rejects.toMatchObject({ reason: 'duplicate-key' });
    // A worker's claim of several (findManyAndUpdate) answers and stores the values as MongoDB would.
    const claimed = await c.findManyAndUpdate({ k: 'a\uDBFFb' }, { $set: { u: '\uDFFF' } }, { sort: { _id: 1 }, limit: 2 });
    expect(claimed.map((d) => d.u)).toEqual(['\uFFFD', '\uFFFD']);
    expect(ids(await c.find({ u: '\uD800' }, { sort: { _id: 1 } }))).toEqual(ids(claimed));
    // A claim setting plain values only hands out the document it made (update-function.ts): made as the text reads.
    expect(await c.findOneAndUpdate({ _id: 'd4ab' }, { $set: { u: 'q\uD800', n: 1 } })).toMatchObject({ _id: 'd4ab', u: 'q\uFFFD', n: 1 });
  });

  it('any strings, written by any path, answer as mingo over what the driver sends (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, fc.constantFrom<How>('insert', 'set', 'claim')), { minLength: 1, maxLength: 6 }), text, text, async (written, q, q2) => {
        const c = await fresh();
        const docs = await write(c, written.map(([v]) => v), written.map(([, how]) => how));
        await compare(c, docs, q, q2);
      }),
      { numRuns: 40 },
    );
  });
});
