// An update of the embedded store (one UPDATE statement calling mongo_update) writes what
// MongoDB's update does to the document as read back (applyUpdate over the decoded document),
// counts `modified` alike and fails alike, leaving the document as it was: checked on generated
// documents and updates holding dates, marked strings, nulls, arrays and nested fields.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { applyUpdate } from '../../core/store/embedded/update';
import { decodeDoc, encodeDoc } from '../../core/store/embedded/codec';
import type { Doc, Update } from '../../core/store/port';
import { withTempStore } from './support/temp-store';

let store: EmbeddedStore;
withTempStore('updates-', (opened) => ({ store } = opened));

const FIELDS = ['a', 'b', 'n', 'm.x', 'm.y', 'm.k.z', 'status', 'metrics.end_time'];
const scalar = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: false }), fc.string(), fc.constant('\uFDD0D2020'), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('p', 'q', 'x'), scalar, { maxKeys: 2 }));
const doc = fc.record({ a: value, n: fc.oneof(fc.integer(), fc.double(), fc.constant(null), fc.string()), m: fc.oneof(fc.constant(undefined), fc.constant(null), fc.string(), fc.dictionary(fc.constantFrom('x', 'y', 'k'), value, { maxKeys: 3 })), status: fc.constantFrom('running', 'complete') }, { requiredKeys: [] });
const update: fc.Arbitrary<Update> = fc
  .record({
    $set: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 }),
    $inc: fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -2, max: 2, noNaN: true })), { maxKeys: 2 }),
    $unset: fc.dictionary(fc.constantFrom(...FIELDS), fc.constant('' as const), { maxKeys: 2 }),
  }, { requiredKeys: [] })
  .filter((u) => Object.values(u).some((fields) => Object.keys(fields ?? {}).length > 0));

/** What the JavaScript update makes of a stored document, or the error it throws. */
function expected(stored: Doc, u: Update): { doc?: Doc; error?: string } {
  try {
    return { doc: decodeDoc(encodeDoc(applyUpdate(decodeDoc(encodeDoc(stored)), u))) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

let n = 0;
async function viaStore(stored: Doc, u: Update) {
  const collection = store.collection(`c${n % 4}`);
  const _id = `d${n++}`;
  await collection.insertOne({ ...stored, _id });
  try {
    const result = await collection.updateOne({ _id }, u);
    return { doc: await collection.findOne({ _id }), result };
  } catch (error) {
    return { error: (error as Error).message, doc: await collection.findOne({ _id }) };
  }
}

describe('updates of the embedded store', () => {
  it('write what the update does to the document as read, count modified alike, and fail alike, on generated documents and updates', async () => {
    await fc.assert(
      fc.asyncProperty(doc, update, async (d, u) => {
        const stored = decodeDoc(encodeDoc(d));
        const want = expected(stored, u);
        const got = await viaStore(stored, u);
        if (want.error !== undefined) {
          expect(got.error).toBe(want.error);
          // A failed update leaves the document as it was.
          expect(got.doc).toEqual({ ...stored, _id: got.doc?._id });
          return;
        }
        expect(got.error).toBeUndefined();
        const { _id, ...after } = got.doc ?? {};
        expect(after).toEqual(want.doc);
        const changed = encodeDoc(want.doc) !== encodeDoc(stored);
        expect(got.result).toEqual({ matched: 1, modified: changed ? 1 : 0 });
      }),
      { numRuns: 500 },
    );
  });
});
