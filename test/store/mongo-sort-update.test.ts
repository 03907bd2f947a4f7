// The embedded store sorts and updates as MongoDB (issue 41, item 6). Oracles: mingo (an
// in-memory implementation of MongoDB's query language, a dev dependency) for generated documents
// and sorts, and MongoDB's documented sort order ("Comparison/Sort Order": null < numbers <
// strings < objects < arrays < booleans < dates; an array by its smallest item ascending, its
// largest descending; an empty array before null) for the cases mingo answers otherwise.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedCollection } from '../../core/store/embedded/collection';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import type { Doc, Sort, Update } from '../../core/store/port';
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

/** The values `field` reaches in `doc`, arrays flattened, each as a comparable key. */
function valuesOnPath(doc: Doc, field: string): string[] {
  let nodes: unknown[] = [doc];
  for (const segment of field.split('.')) {
    nodes = nodes.flatMap((node) => (Array.isArray(node) ? node : [node])).filter((node) => node !== null && typeof node === 'object').map((node) => Reflect.get(node as object, segment));
  }
  const flat = (value: unknown): unknown[] => (Array.isArray(value) ? value.flatMap(flat) : [value]);
  return nodes.flatMap(flat).filter((v) => v !== undefined).map((v) => `${v instanceof Date ? 'date' : typeof v}:${JSON.stringify(v)}`);
}

/**
 * Keeps the documents whose sort keys mingo and MongoDB order alike when arrays tie: MongoDB sorts
 * an array by its smallest item alone (a tie goes to the next sort key, here `_id`), mingo by its
 * sorted items one after another, so `[-0.5, 1]` and `[-0.5]` tie in MongoDB and not in mingo. A
 * document is left out when it shares a value with one already kept and either holds an array there.
 */
function withoutArrayTies(docs: Doc[], field: string): Doc[] {
  const kept: { values: Set<string>; array: boolean }[] = [];
  return docs.filter((doc) => {
    const values = valuesOnPath(doc, field);
    const array = arrayOnPath(doc, field);
    if (kept.some((other) => (array || other.array) && values.some((v) => other.values.has(v)))) return false;
    kept.push({ values: new Set(values), array });
    return true;
  });
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

  it('on a field no index leads (a claim\'s runAfter), asks only the rows the filter matches whether they hold other values', async () => {
    const c = store.collection('order-second') as EmbeddedCollection;
    await c.createIndex({ key: { status: 1, t: 1 }, name: 'status_1_t_1' });
    await c.insertMany([{ _id: '1', status: 'queued', t: 3 }, { _id: '2', status: 'queued', t: 1 }, { _id: '3', status: 'done', t: true }]);
    // A boolean in a row the filter does not match: SQLite's order (and its index) stands.
    expect((await c.explain({ status: 'queued' }, { sort: { t: 1 }, sql: true }))[0]).not.toMatch(/mongo_sort_key/);
    expect(order(await c.find({ status: 'queued' }, { sort: { t: 1 } }))).toEqual(['2', '1']);
    // One in a matched row: MongoDB's order (numbers before booleans), not SQLite's (true read as 1).
    await c.insertOne({ _id: '4', status: 'queued', t: true });
    expect((await c.explain({ status: 'queued' }, { sort: { t: 1 }, sql: true }))[0]).toMatch(/mongo_sort_key/);
    expect(order(await c.find({ status: 'queued' }, { sort: { t: 1 } }))).toEqual(['2', '1', '4']);
    expect(order(await c.find({ status: { $in: ['queued', 'done'] } }, { sort: { t: -1 } }))).toEqual(['3', '4', '1', '2']);
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
        const agreeing = generated.map((d, i): Doc => ({ ...d, _id: `d${i}` })).filter((d) => (direction === 1 || !arrayOnPath(d, field)) && mingoAgrees(d, field));
        const docs = withoutArrayTies(agreeing, field);
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
      { numRuns: Number(process.env.SORT_PROPERTY_RUNS ?? 400) },
    );
  });

  it('arrays whose smallest items tie are ordered by the next sort key, as MongoDB does (mingo orders them by their next items)', async () => {
    const c = store.collection('sort-array-ties');
    await c.insertMany([{ _id: 'd0', n: [{ k: false }, { k: -0.5 }] }, { _id: 'd1', n: { k: [-0.5] } }, { _id: 'd2' }, { _id: 'd3', n: { k: [1, -0.5] } }]);
    expect(order(await c.find({}, { sort: { 'n.k': 1, _id: 1 } }))).toEqual(['d2', 'd0', 'd1', 'd3']);
    expect(order(await c.find({}, { sort: { 'n.k': 1, _id: -1 } }))).toEqual(['d2', 'd3', 'd1', 'd0']);
  });
});

type Updater = (obj: Record<string, unknown>, modifier: Update) => string[];
let mingoUpdate: Updater | undefined;
beforeAll(async () => {
  const name = 'mingo/updater';
  try {
    mingoUpdate = ((await import(/* @vite-ignore */ name)) as { update: Updater }).update;
  } catch (error) {
    missing ||= `mingo is not installed (npm i -D mingo): ${error instanceof Error ? error.message : String(error)}`;
  }
});

const UPDATE_FIELDS = ['tags', 'tags.0', 'tags.2', 'items.1.k', 'items.k', 'n.k', 'n.k.0', 's'];
const scalarValue = fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom('a', null, true));
const update: fc.Arbitrary<Update> = fc.oneof(
  fc.dictionary(fc.constantFrom(...UPDATE_FIELDS), scalarValue, { minKeys: 1, maxKeys: 1 }).map(($set) => ({ $set })),
  fc.dictionary(fc.constantFrom(...UPDATE_FIELDS), fc.constant(''), { minKeys: 1, maxKeys: 1 }).map(($unset) => ({ $unset })),
  fc.dictionary(fc.constantFrom(...UPDATE_FIELDS), fc.integer({ min: -2, max: 2 }), { minKeys: 1, maxKeys: 1 }).map(($inc) => ({ $inc })),
);

/** mingo leaves holes in an array a $set writes past its end; MongoDB pads it with null. */
function padded(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from(value, (item: unknown) => (item === undefined ? null : padded(item)));
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, padded(v)]));
}

describe('the embedded store updates as MongoDB', () => {
  it('dotted paths into arrays by index; a positional operator, a field of an array and the array operators refused, named', async () => {
    const c = store.collection('updates');
    await c.insertOne({ _id: '1', items: [{ k: 1 }, { k: 2 }], tags: ['a'] });
    await c.updateOne({ _id: '1' }, { $set: { 'items.1.k': 5, 'tags.2': 'c' }, $inc: { 'items.0.k': 1 } });
    expect(await c.findOne({ _id: '1' })).toEqual({ _id: '1', items: [{ k: 2 }, { k: 5 }], tags: ['a', null, 'c'] });
    await c.updateOne({ _id: '1' }, { $unset: { 'tags.0': '' } });
    expect((await c.findOne({ _id: '1' }))?.tags).toEqual([null, null, 'c']);
    await expect(c.updateOne({ _id: '1' }, { $set: { 'items.$.k': 1 } })).rejects.toThrow(/unsupported positional operator \$ in items\.\$\.k/);
    await expect(c.updateOne({ _id: '1' }, { $set: { 'items.$[].k': 1 } })).rejects.toThrow(/positional operator \$\[\]/);
    await expect(c.updateOne({ _id: '1' }, { $set: { 'items.k': 1 } })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/cannot create field items\.k: items holds an array/) });
    for (const op of ['$push', '$addToSet', '$pull', '$pop']) {
      await expect(c.updateOne({ _id: '1' }, { [op]: { tags: 'x' } })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining(`unsupported update operator ${op}`) });
    }
    expect(await c.findOne({ _id: '1' })).toEqual({ _id: '1', items: [{ k: 2 }, { k: 5 }], tags: [null, null, 'c'] });
  });

  it('generated documents and $set/$unset/$inc on dotted paths: the document mingo makes, or refused where MongoDB refuses', async (context) => {
    if (!mingoUpdate) {
      console.log(`skipped: ${missing}`);
      context.skip();
    }
    const c = store.collection('updates-generated');
    await fc.assert(
      fc.asyncProperty(document, update, async (generated, u) => {
        const doc: Doc = { ...generated, _id: 'u' };
        await c.deleteMany({});
        await c.insertOne(doc);
        const expected = structuredClone(doc);
        let refused: unknown;
        await c.updateOne({ _id: 'u' }, u).catch((error: unknown) => (refused = error));
        const [field] = Object.keys(Object.values(u)[0] as object);
        if (refused) {
          // MongoDB refuses a field of an array that is no index ("Cannot create field") and $inc of a value that is not a number.
          expect(refused).toMatchObject({ code: 'bad_input' });
          expect(String((refused as Error).message)).toMatch(/holds an array|read in an array|cannot \$inc|cannot create field/);
          expect(await c.findOne({ _id: 'u' })).toEqual(doc);
          return;
        }
        mingoUpdate!(expected, u);
        expect(await c.findOne({ _id: 'u' }), `${JSON.stringify(u)} of ${field}`).toEqual(padded(expected));
      }),
      { numRuns: Number(process.env.UPDATE_PROPERTY_RUNS ?? 400) },
    );
  });
});
