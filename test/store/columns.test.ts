// The embedded store keeps each indexed field in a column of its own (columns.ts): queries
// answer as they do without the columns, every column always holds what json_extract reads
// from the document (after any update, from any connection), and a file of an earlier version
// (indexes on expressions) is upgraded at open with its documents and index specs as they were.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { EmbeddedCollection } from '../../core/store/embedded/collection';
import { SqliteDatabase } from '../../core/store/embedded/database';
import { sqlite } from '../../core/store/embedded/sqlite';
import { Layout, updateSet } from '../../core/store/embedded/columns';
import { createIndexSql } from '../../core/store/embedded/index-specs';
import { FilterCompiler } from '../../core/store/embedded/sql';
import type { Doc, Filter, IndexSpec, Sort, Update } from '../../core/store/port';
import { withTempStore } from './support/temp-store';

let dir: string;
let store: EmbeddedStore;
const file = () => path.join(dir, 'console.sqlite');
withTempStore('columns-', (opened) => ({ dir, store } = opened), { each: true });

const INDEXES: IndexSpec[] = [
  { key: { status: 1, queuedAt: 1 }, name: 'status_1_queuedAt_1', partialFilterExpression: { status: 'queued' } },
  { key: { 'm.x': 1 }, name: 'm.x_1' },
  { key: { n: -1, a: 1 }, name: 'n_-1_a_1' },
  { key: { flag: 1, 'm.k.z': 1 }, name: 'flag_1_m.k.z_1', partialFilterExpression: { flag: false } },
  { key: { m: 1 }, name: 'm_1', partialFilterExpression: { m: { $exists: true } } },
];
const PATHS = ['status', 'queuedAt', 'm.x', 'n', 'a', 'flag', 'm.k.z', 'm'];

/** The columns of a collection's rows that differ from what json_extract reads from the document (value or type), as `_id: field`. */
function staleColumns(collection: string, paths = PATHS, _id?: string): string[] {
  const db = new (sqlite().DatabaseSync)(file(), { readOnly: true });
  try {
    return paths.flatMap((p) => {
      const extract = `json_extract(doc, '$.${p.split('.').map((s) => `"${s}"`).join('.')}')`;
      const differs = `("k:${p}" IS NOT ${extract} OR typeof("k:${p}") IS NOT typeof(${extract}))`;
      const rows = db.prepare(`SELECT _id FROM "c:${collection}" WHERE ${differs} AND (?1 IS NULL OR _id = ?1)`).all(_id ?? null);
      return rows.map((row) => `${String(row._id)}: ${p}`);
    });
  } finally {
    db.close();
  }
}

const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -3, max: 3, noNaN: true }), fc.constantFrom('a', 'b', 'queued', 'x'), fc.boolean(), fc.constant(null), fc.date({ min: new Date(0), max: new Date(1e12), noInvalidDate: true }));
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('x', 'k', 'z'), scalar, { maxKeys: 2 }));
const document = fc.record(
  { status: fc.constantFrom('queued', 'running', 'complete'), queuedAt: fc.integer({ min: 0, max: 20 }), a: value, n: scalar, flag: fc.oneof(fc.boolean(), fc.constant(0)), m: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('x', 'k', 'y'), fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.record({ z: scalar })), { maxKeys: 3 })) },
  { requiredKeys: [] },
);
const FIELDS = [...PATHS, 'other', 'm.y', 'm.k'];
const update: fc.Arbitrary<Update> = fc
  .record(
    {
      $set: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 3 }),
      $inc: fc.dictionary(fc.constantFrom(...FIELDS), fc.integer({ min: -2, max: 2 }), { maxKeys: 1 }),
      $unset: fc.dictionary(fc.constantFrom(...FIELDS), fc.constant('' as const), { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  )
  .filter((u) => Object.values(u).some((fields) => Object.keys(fields ?? {}).length > 0));
const condition = fc.oneof(
  scalar,
  scalar.map((v) => ({ $ne: v })),
  fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom('a', 'queued')), { minLength: 1, maxLength: 3 }).map((vs) => ({ $in: vs })),
  fc.constantFrom('$lt', '$gte').chain((op) => fc.oneof(fc.integer({ min: -5, max: 20 }), fc.constantFrom('b', 'queued')).map((v) => ({ [op]: v }))),
  fc.boolean().map((b) => ({ $exists: b })),
);
const filter: fc.Arbitrary<Filter> = fc.dictionary(fc.constantFrom(...PATHS), condition, { maxKeys: 2 });
const sort = fc.constantFrom<Sort[]>({}, { queuedAt: 1 }, { n: -1, a: 1 }, { 'm.x': 1 });

async function indexed(name: string) {
  const collection = store.collection(name);
  for (const spec of INDEXES) await collection.createIndex(spec);
  return collection;
}

describe('indexed fields as columns', () => {
  it('answer finds, counts and sorted finds as the same documents without indexes do', async () => {
    const plain = store.collection('plain');
    const columns = await indexed('columns');
    const docs = fc.sample(document, { numRuns: 120, seed: 7 }).map((d, i) => ({ ...d, _id: `d${i}` }));
    await plain.insertMany(docs);
    await columns.insertMany(docs);
    await fc.assert(
      fc.asyncProperty(filter, sort, async (f, s) => {
        // Ties of the sort fields come back in either order: compare with _id as the last key.
        const options = { sort: { ...s, _id: 1 } satisfies Sort };
        const ids = (found: Doc[]) => found.map((d) => d._id);
        expect(ids(await columns.find(f, options))).toEqual(ids(await plain.find(f, options)));
        expect(await columns.count(f)).toBe(await plain.count(f));
      }),
      { numRuns: 300 },
    );
  });

  it('hold what json_extract reads from the document after any update, updateMany and findOneAndUpdate', async () => {
    const collection = await indexed('random');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(document, update, fc.constantFrom('one', 'many', 'claim'), async (d, u, how) => {
        const _id = `r${n++}`;
        await collection.insertOne({ ...d, _id });
        try {
          if (how === 'one') await collection.updateOne({ _id }, u);
          else if (how === 'many') await collection.updateMany({ _id: { $in: [_id, 'absent'] } }, u);
          else await collection.findOneAndUpdate({ _id }, u, { sort: { queuedAt: 1 } });
        } catch (error) {
          // An update MongoDB refuses too ($inc of a string, a field under a scalar): nothing written.
          expect((error as Error).message).toMatch(/cannot/);
        }
        expect(staleColumns('random', PATHS, _id)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('an update of one shape runs as its kind asks: the first by either sort, one, or every match', async () => {
    const collection = await indexed('kinds');
    await collection.insertMany(['a', 'b', 'c'].map((_id, i) => ({ _id, status: 'queued', queuedAt: i, n: 0 })));
    const u = { $inc: { n: 1 } };
    expect((await collection.findOneAndUpdate({ status: 'queued' }, u, { sort: { queuedAt: -1 } }))?._id).toBe('c');
    expect((await collection.findOneAndUpdate({ status: 'queued' }, u, { sort: { queuedAt: 1 } }))?._id).toBe('a');
    expect(await collection.findOneAndUpdate({ status: 'queued' }, u, { sort: { queuedAt: -1 } })).toMatchObject({ _id: 'c', n: 2 });
    expect(await collection.updateOne({ status: 'queued' }, u)).toEqual({ matched: 1, modified: 1 });
    expect(await collection.updateMany({ status: 'queued' }, u)).toEqual({ matched: 3, modified: 3 });
    const counts = (await collection.find({}, { sort: { _id: 1 } })).map((d) => d.n as number);
    expect(counts.reduce((a, b) => a + b)).toBe(3 + 1 + 3);
  });

  it('a filter compiled again from its shape binds its values as compiled the first time', () => {
    const layout = new Layout(new Set(['status', 'n']), 'v:0');
    // Columns no document holds an array on: a $in of strings is kept by its shape too.
    const arrayFree = Object.assign(new Layout(new Set(['status', 'n']), 'v:0'), { arrayFree: (fields: readonly string[]) => fields.map(() => true) });
    const warm = new FilterCompiler();
    warm.inline('status', 'queued');
    fc.assert(
      fc.property(filter, filter, fc.boolean(), (first, second, free) => {
        const fields = free ? arrayFree : layout;
        warm.compile(first, fields);
        const fresh = new FilterCompiler();
        fresh.inline('status', 'queued');
        expect(warm.compile(second, fields)).toEqual(fresh.compile(second, fields));
      }),
      { numRuns: 2000 },
    );
    warm.compile({ _id: 'a', status: { $in: ['running', 'paused'] } }, arrayFree);
    expect(warm.compile({ _id: 'b', status: { $in: ['waiting', 'queued'] } }, arrayFree)).toEqual({ sql: '_id = ? AND "k:status" IN (?, ?)', params: ['b', 'waiting', 'queued'] });
    // The claim's filter, the second time from its shape.
    warm.compile({ status: 'queued', runAfter: { $lte: 1 } }, layout);
    expect(warm.compile({ status: 'queued', runAfter: { $lte: 7 }, n: { $gt: 'a', $lt: 'b' } }, layout).params).toEqual([7, 'a', 'b']);
    const fresh = new FilterCompiler();
    fresh.inline('status', 'queued');
    expect(warm.compile({ status: 'queued', runAfter: { $lte: 9 }, n: { $gt: 'c', $lt: 'd' } }, layout)).toEqual(fresh.compile({ status: 'queued', runAfter: { $lte: 9 }, n: { $gt: 'c', $lt: 'd' } }, layout));
  });

  it('an update sets the columns of the fields it can touch and no other', () => {
    const layout = new Layout(new Set(['status', 'leaseUntil', 'jobId', 'metrics.end_time']), 'v:3');
    const columnsSet = (u: Update) => [...updateSet(layout, u, JSON.stringify(u)).sql.matchAll(/"(k:[^"]+)" =/g)].map((m) => m[1]);
    // A claim and a completion: the job's index is not rewritten by either.
    expect(columnsSet({ $set: { status: 'running', workerId: 'w1', leaseUntil: 5, 'metrics.claimed_at': 1 }, $inc: { attempt: 1 } })).toEqual(['k:status', 'k:leaseUntil']);
    expect(columnsSet({ $set: { status: 'complete', 'metrics.end_time': 9 }, $unset: { leaseUntil: '' } })).toEqual(['k:status', 'k:leaseUntil', 'k:metrics.end_time']);
    // A field above an indexed one, and one below it, touch it; a sibling does not.
    expect(columnsSet({ $set: { metrics: {} } })).toEqual(['k:metrics.end_time']);
    expect(columnsSet({ $set: { 'jobId.x': 1 } })).toEqual(['k:jobId']);
    expect(columnsSet({ $set: { 'metrics.start_time': 1, other: 2 } })).toEqual([]);
    // Plain values are bound as json_extract reads them (a nested one when the fields above it are objects
    // or missing); the rest read the updated document.
    const set = updateSet(layout, { $set: { status: 'x', jobId: true, 'metrics.end_time': 3 }, $unset: { leaseUntil: '' } }, '{}');
    expect(set.params).toEqual(['{}', 'x', null, 1n, 3n, '{}']);
    expect(set.sql).toContain(`"k:metrics.end_time" = CASE WHEN (COALESCE(json_type(doc, '$."metrics"'), 'null') = 'null' OR (json_type(doc, '$."metrics"') = 'object')) THEN ? ELSE json_extract(mongo_apply(doc, ?), '$."metrics"."end_time"') END`);
    expect(updateSet(layout, { $set: { jobId: 1.5 } }, '{}').sql).toContain(`"k:jobId" = json_extract(mongo_apply(doc, ?), '$."jobId"')`);
    // The marker flipped: the store wrote these columns (no guard trigger reads them again).
    expect(set.sql).toMatch(/"v:3" = \(COALESCE\("v:3", 0\) = 0\)$/);
  });

  it('a duplicate key on columns names the unique index, also in a collection whose name holds a dot', async () => {
    const collection = store.collection('with.dot');
    await collection.createIndex({ key: { 'm.x': 1, n: 1 }, name: 'mx_n', unique: true });
    await collection.insertOne({ _id: 'a', m: { x: 1 }, n: 'a' });
    await expect(collection.insertOne({ _id: 'b', m: { x: 1 }, n: 'a' })).rejects.toThrow('duplicate key in collection with.dot: the mx_n index already holds this value');
    await expect(collection.insertOne({ _id: 'a', n: 'b' })).rejects.toThrow('the _id_ index already holds this value');
  });

  it('a column added by another connection is kept by this one: its stale statement is refused and run again', async () => {
    const here = await indexed('common');
    await here.insertOne({ _id: 'a', status: 'queued', queuedAt: 1, b: 'old' });
    await here.updateOne({ _id: 'a' }, { $set: { b: 'older' } });
    const other = new SqliteDatabase(file());
    try {
      await new EmbeddedCollection('common', other).createIndex({ key: { b: 1 }, name: 'b_1' });
    } finally {
      await other.close();
    }
    // This connection read the table's columns before "k:b" existed.
    await here.updateOne({ _id: 'a' }, { $set: { b: 'new' } });
    await here.insertOne({ _id: 'c', b: 'new' });
    await here.findOneAndUpdate({ _id: 'c' }, { $set: { b: 'newer' } });
    expect(staleColumns('common', [...PATHS, 'b'])).toEqual([]);
    expect((await here.find({ b: 'new' })).map((d) => d._id)).toEqual(['a']);
    expect(await (here as EmbeddedCollection).explain({ b: 'new' })).toEqual([expect.stringMatching(/USING INDEX i:common:b_1 \(k:b=\?\)/)]);
  });
});

describe('a file of an earlier version', () => {
  it('keeps its columns right after a writer that does not know them (an earlier console, a SQLite shell) inserts and changes documents', async () => {
    const tasks = await indexed('tasks');
    await tasks.insertMany([
      { _id: 'a', status: 'queued', queuedAt: 1, m: { x: 'old' } },
      { _id: 'b', status: 'queued', queuedAt: 2 },
    ]);
    // What an earlier version writes: the document alone, through its own connection (a table of this version reads the _id from it).
    const db = new (sqlite().DatabaseSync)(file());
    try {
      db.prepare(`INSERT INTO "c:tasks" (doc) VALUES (?)`).run(JSON.stringify({ _id: 'c', status: 'queued', queuedAt: 0, m: { x: 'new' } }));
      db.prepare(`UPDATE "c:tasks" SET doc = json_set(doc, '$.status', 'running', '$.m', json('{"x":"moved"}')) WHERE _id = ?`).run('a');
    } finally {
      db.close();
    }
    expect(staleColumns('tasks')).toEqual([]);
    // The indexed reads see what it wrote.
    expect((await tasks.find({ status: 'queued', queuedAt: { $gte: 0 } }, { sort: { queuedAt: 1 } })).map((d) => d._id)).toEqual(['c', 'b']);
    expect((await tasks.find({ 'm.x': 'moved' })).map((d) => d._id)).toEqual(['a']);
    // And this store's own writes after it keep them.
    await tasks.updateOne({ _id: 'c' }, { $set: { status: 'running' } });
    await tasks.updateOne({ _id: 'c' }, { $set: { status: 'queued' } });
    expect(staleColumns('tasks')).toEqual([]);
    expect(await tasks.count({ status: 'queued', queuedAt: { $gte: 0 } })).toBe(2);
  });

  it('is upgraded at open: the indexes on expressions are built on columns, documents and index specs as they were', async () => {
    const tasks = await indexed('tasks');
    const docs = fc.sample(document, { numRuns: 60, seed: 3 }).map((d, i) => ({ ...d, _id: `t${i}` }));
    await tasks.insertMany(docs);
    await store.collection('empty').insertOne({ _id: 'e' });
    const specs = await tasks.listIndexes();
    const before = await tasks.find({}, { sort: { _id: 1 } });
    await store.close();
    // The earlier layout: (_id, doc) only, indexes on json_extract(doc, ...), as that version made them.
    const db = new (sqlite().DatabaseSync)(file());
    for (const spec of INDEXES) db.exec(`DROP INDEX "i:tasks:${spec.name}"`);
    for (const table of ['c:tasks', 'c:empty']) {
      db.exec(`DROP TRIGGER IF EXISTS "k+:${table}"; DROP TRIGGER IF EXISTS "k~:${table}"`);
      // Nor the partial indexes of arrays on its columns (sql.ts's arrayFree).
      const arrays = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'a:%'`).all(table);
      for (const { name } of arrays) db.exec(`DROP INDEX "${String(name)}"`);
      const columns = db.prepare(`SELECT name FROM pragma_table_info(?) WHERE name LIKE 'k:%' OR name LIKE 'v:%'`).all(table);
      for (const { name } of columns) db.exec(`ALTER TABLE "${table}" DROP COLUMN "${String(name)}"`);
    }
    for (const spec of INDEXES) db.exec(createIndexSql('tasks', spec, new Layout(new Set(), undefined)));
    expect(String((db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'i:tasks:m.x_1'`).get() as { sql: string }).sql)).toContain(`json_extract(doc, '$."m"."x"')`);
    db.close();

    store = await openEmbeddedStore(dir);
    const again = store.collection('tasks') as EmbeddedCollection;
    expect(await again.listIndexes()).toEqual(specs);
    expect(await again.find({}, { sort: { _id: 1 } })).toEqual(before);
    expect(staleColumns('tasks')).toEqual([]);
    // A document holding an array on m.x's path is read by MongoDB's semantics, not the index (sql.ts): those go first.
    const gone = docs.filter((d) => Array.isArray(d.m) || Array.isArray((d.m as { x?: unknown } | undefined)?.x)).map((d) => d._id);
    await again.deleteMany({ _id: { $in: gone } });
    expect(await again.explain({ 'm.x': 'a' })).toEqual([expect.stringMatching(/USING INDEX i:tasks:m\.x_1 \(k:m\.x=\?\)/)]);
    expect(await again.explain({ status: 'queued', queuedAt: { $gte: 0 } })).toEqual([expect.stringMatching(/USING INDEX i:tasks:status_1_queuedAt_1 \(k:status=\? AND k:queuedAt>\?/)]);
    // Writes after the upgrade keep the columns.
    await again.updateMany({ status: 'queued' }, { $set: { n: 'moved' }, $inc: { queuedAt: 1 } });
    await again.insertOne({ _id: 'new', n: 'moved', m: { x: 'a' } });
    expect(staleColumns('tasks')).toEqual([]);
    expect(await again.count({ n: 'moved' })).toBe(before.filter((d) => d.status === 'queued' && !gone.includes(String(d._id))).length + 1);
    await store.collection('empty').insertOne({ _id: 'e2' });
    expect(await store.collection('empty').count()).toBe(2);
  });
});
