// A collection's table made by this version keeps each document's _id once, in the document's text:
// the `_id` column is read from it (identity.ts's ID_COLUMN, a virtual generated column), stored
// nowhere but in its UNIQUE index. Documents read as written, field order included; filters, sorts
// and duplicates on _id behave as before; a table of an earlier version (its _id stored beside the
// document) reads and writes as before, and the file's schema says which a file holds.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { StoreError } from '../../core/store/errors';
import { withTempStore } from './support/temp-store';
import { withRawFile, type RawDatabase } from './support/raw-file';

let dir: string;
let store: EmbeddedStore;
const file = () => path.join(dir, 'console.sqlite');
withTempStore('generated-id-', (opened) => ({ dir, store } = opened), { each: true });

const raw = <T>(fn: (db: RawDatabase) => T): T => withRawFile(file(), fn);

const columns = (table: string) => raw((db) => db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table).map((row) => String(row.name)));

// Ids a user may give: quotes, backslashes, non-ASCII, one starting with the store's mark (codec.ts).
const ID = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('a"b', 'a\\b', 'é€😀', '\uFDD0x', '6b0ab34be32ded6b1963b56f:t1:0'));
const BODY = fc.dictionary(fc.constantFrom('status', 'n', 'z', 'a', 'm'), fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.record({ x: fc.string() })), { maxKeys: 4 });

describe('a table of this version', () => {
  it('stores no _id column of its own, and reads every document as written, field order included, found by its _id', async () => {
    const docs = fc.sample(fc.uniqueArray(fc.tuple(ID, BODY), { selector: ([id]) => id, minLength: 1, maxLength: 20 }), { numRuns: 8, seed: 45 });
    for (const [i, sample] of docs.entries()) {
      const collection = store.collection(`c${i}`);
      // _id first, as MongoDB stores it; and one given after other fields, kept where it was given.
      const written = sample.map(([id, body], j) => (j % 3 === 2 ? { ...body, _id: id } : { _id: id, ...body }));
      await collection.insertMany(written);
      const read = await collection.find({}, { sort: { _id: 1 } });
      const byId = (a: { _id: string }, b: { _id: string }) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
      expect(JSON.stringify(read)).toBe(JSON.stringify([...written].sort(byId)));
      for (const doc of written) expect(JSON.stringify(await collection.findOne({ _id: doc._id }))).toBe(JSON.stringify(doc));
      expect((await collection.find({ _id: { $in: written.map((d) => d._id) } })).length).toBe(written.length);
    }
    expect(columns('c:c0')).toEqual(['doc', 'v:0']);
    expect(raw((db) => db.prepare(`SELECT count(*) AS n FROM "c:c0" WHERE _id IS NULL`).get())).toEqual({ n: 0 });
  });

  it('refuses a second document of the same _id, by insert or update, and never changes an _id', async () => {
    const jobs = store.collection('jobs');
    await jobs.insertOne({ _id: 'j1', status: 'running' });
    const again = await jobs.insertOne({ _id: 'j1', status: 'other' }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(StoreError);
    expect((again as StoreError).reason).toBe('duplicate-key');
    await expect(jobs.updateOne({ _id: 'j1' }, { $set: { _id: 'j2' } })).rejects.toThrow('the _id of a document cannot be changed');
    expect(await jobs.updateOne({ _id: 'j1' }, { $set: { status: 'complete', 'metrics.end_time': 5 } })).toEqual({ matched: 1, modified: 1 });
    expect(await jobs.find({})).toEqual([{ _id: 'j1', status: 'complete', metrics: { end_time: 5 } }]);
    expect(raw((db) => db.prepare(`SELECT _id FROM "c:jobs"`).all().map((row) => row._id))).toEqual(['j1']);
  });

  it('gives a document inserted with an own `_id: undefined` a new _id, first, found by it', async () => {
    const c = store.collection('c');
    const [id] = await c.insertMany([{ _id: undefined, a: 1 }]);
    expect(typeof id).toBe('string');
    expect(JSON.stringify(await c.findOne({ _id: id! }))).toBe(JSON.stringify({ _id: id, a: 1 }));
  });

  it('makes the file of schema 3: a console knowing schema 2 refuses it', async () => {
    expect(store.identity?.()?.schemaVersion).toBe(1);
    await store.collection('jobs').insertOne({ _id: 'j1' });
    expect(store.identity?.()?.schemaVersion).toBe(3);
  });
});

describe('a table of an earlier version (its _id stored beside the document)', () => {
  it('reads and writes as before, and leaves the file of its schema until a table of this version is made', async () => {
    await store.close();
    raw((db) => {
      db.exec(`CREATE TABLE "c:old" (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL, "v:0")`);
      db.exec(`INSERT INTO _counts (collection, n) VALUES ('old', 2)`);
      const insert = db.prepare(`INSERT INTO "c:old" (_id, doc) VALUES (?, ?)`);
      insert.run('a', JSON.stringify({ _id: 'a', n: 1 }));
      insert.run('b', JSON.stringify({ n: 2, _id: 'b' }));
    });
    store = await openEmbeddedStore(dir);
    const old = store.collection('old');
    expect(await old.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'a', n: 1 }, { n: 2, _id: 'b' }]);
    await old.insertOne({ _id: 'c', n: 3 });
    expect(await old.updateOne({ _id: 'a' }, { $inc: { n: 10 } })).toEqual({ matched: 1, modified: 1 });
    await expect(old.insertOne({ _id: 'b' })).rejects.toMatchObject({ reason: 'duplicate-key' });
    expect(await old.find({ n: { $gte: 3 } }, { sort: { n: 1 } })).toEqual([{ _id: 'c', n: 3 }, { _id: 'a', n: 11 }]);
    expect(await old.count()).toBe(3);
    expect(columns('c:old')).toEqual(['_id', 'doc', 'v:0']);
    expect(store.identity?.()?.schemaVersion).toBe(1);
    await store.collection('new').insertOne({ _id: 'x' });
    expect(store.identity?.()?.schemaVersion).toBe(3);
    expect(columns('c:new')).toEqual(['doc', 'v:0']);
  });
});
