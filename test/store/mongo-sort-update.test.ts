// The embedded store sorts and updates as MongoDB (issue 41, item 6). Oracles: mingo (an
// in-memory implementation of MongoDB's query language, a dev dependency) for generated documents
// and sorts, and MongoDB's documented sort order ("Comparison/Sort Order": null < numbers <
// strings < objects < arrays < booleans < dates; an array by its smallest item ascending, its
// largest descending; an empty array before null) for the cases mingo answers otherwise.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCollection } from '../../core/store/embedded/collection';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import type { Doc, Sort } from '../../core/store/port';
import { document } from './support/mongo-filters';
import { withTempStore } from './support/temp-store';

let store: EmbeddedStore;
withTempStore('mongo-sort-', (opened) => ({ store } = opened));

type Oracle = (docs: Doc[], criteria: Record<string, unknown>) => { sort(s: Sort): { all(): Doc[] } };
let find: Oracle | undefined;
let missing = '';
beforeAll(async () => {
  const name = 'mingo';
  try {
    find = ((await import(/* @vite-ignore */ name)) as { find: Oracle }).find;
  } catch (error) {
    missing = `mingo is not installed (npm i -D mingo): ${error instanceof Error ? error.message : String(error)}`;
  }
});

const order = (docs: Doc[]) => docs.map((d) => String(d._id));
const FIELDS = ['tags', 'items', 'n', 's', 'items.k', 'n.k'];

/** Whether a document holds an array anywhere on the path of `field`. */
function arrayOnPath(doc: Doc, field: string): boolean {
  let node: unknown = doc;
  for (const segment of field.split('.')) {
    if (node === null || typeof node !== 'object') return false;
    node = Reflect.get(node, segment);
    if (Array.isArray(node)) return true;
  }
  return false;
}

/**
 * Whether mingo compares what `field` reaches as MongoDB documents it: mingo compares two
 * documents by their sorted field names first and an array by its sorted items, MongoDB field by
 * field in order (type, name, value) and items in order. They agree on documents `{k: scalar}`.
 * And mingo orders a missing field before null where MongoDB reads it as null.
 */
function mingoAgrees(doc: Doc, field: string): boolean {
  const documentsOk = (value: unknown, depth: number): boolean => {
    if (Array.isArray(value)) return depth === 0 && value.every((v) => v !== null && documentsOk(v, 1));
    if (value === null || typeof value !== 'object' || value instanceof Date) return true;
    const keys = Object.keys(value);
    const k: unknown = Reflect.get(value, 'k');
    return keys.length === 1 && keys[0] === 'k' && (k === null || typeof k !== 'object' || k instanceof Date);
  };
  let node: unknown = doc;
  for (const segment of field.split('.')) {
    // mingo reads a missing field as less than null, MongoDB as null: through an array, only items that hold the field, not null.
    if (Array.isArray(node)) return node.every((item) => item !== null && typeof item === 'object' && Reflect.get(item, segment) !== undefined && Reflect.get(item, segment) !== null && documentsOk(Reflect.get(item, segment), 0));
    if (node === null || typeof node !== 'object') return true;
    node = Reflect.get(node, segment);
  }
  return documentsOk(node, 0);
}

describe('the embedded store sorts as MongoDB', () => {
  it('mixed types in the documented order, ascending and descending, an index on the field or not', async () => {
    const docs: Doc[] = [
      { _id: 'date', a: new Date(5) },
      { _id: 'true', a: true },
      { _id: 'false', a: false },
      { _id: 'object', a: { k: 1 } },
      { _id: 'array', a: [0, 9] },
      { _id: 'empty', a: [] },
      { _id: 'string', a: 'x' },
      { _id: 'number', a: 2 },
      { _id: 'null', a: null },
      { _id: 'high', a: '\uFFEEz' },
    ];
    for (const name of ['order-plain', 'order-indexed']) {
      const c = store.collection(name);
      if (name.endsWith('indexed')) await c.createIndex({ key: { a: 1 }, name: 'a_1' });
      await c.insertMany(docs);
      expect(order(await c.find({}, { sort: { a: 1 } }))).toEqual(['empty', 'null', 'array', 'number', 'string', 'high', 'object', 'false', 'true', 'date']);
      // Descending: [0, 9] by its largest item, 9, before 2; the empty array last.
      expect(order(await c.find({}, { sort: { a: -1 } }))).toEqual(['date', 'true', 'false', 'object', 'high', 'string', 'array', 'number', 'null', 'empty']);
      expect(order(await c.find({}, { sort: { a: 1 }, limit: 3, skip: 1 }))).toEqual(['null', 'array', 'number']);
    }
  });

  it('keeps SQLite\'s order and its index while the values are numbers, strings and dates', async () => {
    const c = store.collection('order-pure') as EmbeddedCollection;
    await c.createIndex({ key: { t: 1 }, name: 't_1' });
    await c.insertMany([{ _id: '1', t: 3 }, { _id: '2', t: 'b' }, { _id: '3', t: new Date(1) }, { _id: '4' }]);
    expect(order(await c.find({}, { sort: { t: -1 } }))).toEqual(['3', '2', '1', '4']);
    expect((await c.explain({}, { sort: { t: 1 }, sql: true }))[0]).not.toMatch(/mongo_sort_key/);
    await c.insertOne({ _id: '5', t: true });
    expect((await c.explain({}, { sort: { t: 1 }, sql: true }))[0]).toMatch(/mongo_sort_key/);
    expect(order(await c.find({}, { sort: { t: 1 } }))).toEqual(['4', '1', '2', '5', '3']);
  });

  it('generated documents and sorts: the order mingo gives (descending: documents without an array on the path)', async (context) => {
    if (!find) {
      console.log(`skipped: ${missing}`);
      context.skip();
    }
    const plain = store.collection('sort-plain');
    const indexed = store.collection('sort-indexed');
    for (const key of ['tags', 'items.k', 'n', 's']) await indexed.createIndex({ key: { [key]: 1 }, name: `${key}_1` });
    await fc.assert(
      fc.asyncProperty(fc.array(document, { minLength: 1, maxLength: 6 }), fc.constantFrom(...FIELDS), fc.constantFrom(1 as const, -1 as const), async (generated, field, direction) => {
        // mingo orders a descending sort as the ascending one reversed, not by an array's largest item as MongoDB documents.
        const docs = generated.map((d, i): Doc => ({ ...d, _id: `d${i}` })).filter((d) => (direction === 1 || !arrayOnPath(d, field)) && mingoAgrees(d, field));
        await plain.deleteMany({});
        await indexed.deleteMany({});
        if (!docs.length) return;
        await plain.insertMany(docs);
        await indexed.insertMany(docs);
        const sort: Sort = { [field]: direction, _id: 1 };
        const expected = order(find!(docs, {}).sort(sort).all());
        expect(order(await plain.find({}, { sort }))).toEqual(expected);
        expect(order(await indexed.find({}, { sort }))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
});
