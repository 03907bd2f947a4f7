// The embedded store answers filters as MongoDB does (issue 41, item 6): arrays matched by their
// items, dotted paths into arrays of documents, $in/$nin/$all/$elemMatch/$size/$exists, null
// matching a missing field, comparisons only within a type. Oracle: mingo, an in-memory
// implementation of MongoDB's query language (a dev dependency). An indexed and an unindexed
// collection (columns and partial indexes, or json_extract alone) must both answer as it does.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import type { Doc, Filter } from '../../core/store/port';
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

const scalar = fc.oneof(
  fc.integer({ min: -2, max: 3 }),
  fc.constantFrom(1.5, -0.5),
  fc.constantFrom('a', 'b', 'c', '[a'),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(new Date(1000), new Date(2000)),
);
const item = fc.oneof(scalar, fc.record({ k: scalar }, { requiredKeys: [], noNullPrototype: true }), fc.record({ k: scalar, j: scalar }, { noNullPrototype: true }));
const value = fc.oneof(scalar, fc.array(item, { maxLength: 3 }), fc.record({ k: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })) }, { requiredKeys: [], noNullPrototype: true }));
const document = fc.record({ tags: value, items: value, n: value, s: scalar }, { requiredKeys: [], noNullPrototype: true });

const FIELDS = ['tags', 'items', 'n', 's', 'items.k', 'tags.0', 'n.k', 'items.1.k'];
const list = fc.array(scalar, { minLength: 1, maxLength: 3 });
const condition: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  scalar.map((v) => ({ $eq: v })),
  scalar.map((v) => ({ $ne: v })),
  list.map((vs) => ({ $in: vs })),
  list.map((vs) => ({ $nin: vs })),
  list.map((vs) => ({ $all: vs })),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ $size: n })),
  fc.boolean().map((b) => ({ $exists: b })),
  fc.constantFrom('$lt', '$lte', '$gt', '$gte').chain((op) => fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom('a', 'b'), fc.constantFrom(new Date(1500))).map((v) => ({ [op]: v }))),
  fc.record({ $gt: fc.integer({ min: -2, max: 1 }), $lt: fc.integer({ min: 1, max: 3 }) }),
  fc.integer({ min: -1, max: 2 }).map((v) => ({ $elemMatch: { $gt: v } })),
  fc.constant({ $regex: '^[ab]' }),
);
/**
 * Not $elemMatch or $size on a dotted path: mingo gathers the values `items.k` reaches through an
 * array of documents into an array of its own and matches that; MongoDB (and this store) matches
 * only an array the path itself holds.
 */
const arrayOnly = (c: unknown) => c !== null && typeof c === 'object' && ('$elemMatch' in c || '$size' in c);
const term = fc.dictionary(fc.constantFrom(...FIELDS), condition, { minKeys: 1, maxKeys: 2 }).filter((f) => Object.entries(f).every(([k, c]) => !k.includes('.') || !arrayOnly(c)));
/** $elemMatch with a filter on the items' fields: asked alone, so that the oracle can be shown the document items only (onlyDocuments). */
const elemMatchFields = fc.record({ field: fc.constantFrom('tags', 'items', 'n'), k: condition.filter((c) => !arrayOnly(c) && !(c !== null && typeof c === 'object' && '$all' in c)) }).map(({ field, k }): Filter => ({ [field]: { $elemMatch: { k } } }));
const filter: fc.Arbitrary<Filter> = fc.oneof(term, fc.array(term, { minLength: 1, maxLength: 2 }).map((fs) => ({ $or: fs })), elemMatchFields);

/**
 * The document as mingo is shown it for `{f: {$elemMatch: {k: …}}}` alone: f's items that are
 * documents only. mingo 7 reads a field of an item that is not a document as the item itself
 * (`{a: {$elemMatch: {k: 1}}}` matches `a: [1]`); MongoDB matches documents only.
 */
function onlyDocuments(doc: Record<string, unknown>, filter: Filter): Record<string, unknown> {
  const [field, condition] = Object.entries(filter)[0]!;
  const fieldForm = condition !== null && typeof condition === 'object' && '$elemMatch' in condition && Object.keys((condition as { $elemMatch: object }).$elemMatch).some((k) => !k.startsWith('$'));
  const value = doc[field];
  if (!fieldForm || !Array.isArray(value)) return doc;
  return { ...doc, [field]: value.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Date)) };
}

const ids = (found: Doc[]) => found.map((d) => String(d._id)).sort();

/**
 * The filter as mingo is asked it: `{f: {$all: [x, y]}}` as `{$and: [{f: x}, {f: y}]}`, the
 * equivalence MongoDB's documentation of $all states (it matches a field that is not an array
 * too: "Use $all with Non-Array Field"), where mingo 7 matches arrays only.
 */
function forMingo(filter: Filter): Filter {
  const and: Filter[] = [];
  const rest: Filter = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$or' || key === '$and') rest[key] = (condition as Filter[]).map(forMingo);
    else if (condition !== null && typeof condition === 'object' && '$all' in condition) {
      const { $all, ...others } = condition as { $all: unknown[] };
      and.push(...$all.map((item) => ({ [key]: item })));
      if (Object.keys(others).length) rest[key] = others;
    } else rest[key] = condition;
  }
  return and.length ? { ...rest, $and: [...((rest.$and as Filter[] | undefined) ?? []), ...and] } : rest;
}

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
});
