// Values kept once (core/store/embedded/shared-values.ts): a collection declared with shared fields
// stores each such value once in `_shared`, its documents holding a reference; every read gives the
// document as inserted. Differential: the same documents and operations on a collection without
// shared fields in the same store must answer the same, field order included.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { sqlite } from '../../core/store/embedded/sqlite';
import { SharedValues } from '../../core/store/embedded/shared-values';
import { encodeDoc } from '../../core/store/embedded/codec';
import type { Collection, Doc, Filter, Sort, Update } from '../../core/store/port';
import { document, filter as filterOf } from './support/mongo-filters';

const PAD = 'a value long enough to be kept once rather than in the document';
let dir: string;
let store: EmbeddedStore;
let shared: Collection;
let plain: Collection;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'shared-values-'));
  store = await openEmbeddedStore(dir, { sharedFields: { shared: ['w', 'x'] } });
  shared = store.collection('shared');
  plain = store.collection('plain');
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The raw rows of a collection, as the file holds them. */
function rows(file: string, collection: string): string[] {
  const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
  try {
    return db.prepare(`SELECT doc FROM "c:${collection}" ORDER BY rowid`).all().map((row) => String(row.doc));
  } finally {
    db.close();
  }
}

/** Equal as MongoDB documents read back: deep equality, and the same key order at every level. */
function same(got: unknown, want: unknown) {
  expect(got).toEqual(want);
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
}

/** A workflow's copy as a job carries it: `w` (generated) and `x` (the transitions), with a top-level field between them. */
const job = fc.record({ w: document, status: fc.constantFrom('running', 'complete'), n: fc.integer({ min: 0, max: 3 }) }).map(({ w, status, n }) => ({
  name: 'wf',
  w: { ...w, pad: PAD },
  status,
  x: { a: { b: { type: 'standard', state: 'success', pad: PAD } }, n },
  n,
}));

/** Each key of a generated filter moved under `w` ($or's too). */
function underW(filter: Filter): Filter {
  return Object.fromEntries(Object.entries(filter).map(([key, value]) => (key === '$or' || key === '$and' ? [key, (value as Filter[]).map(underW)] : [`w.${key}`, value])));
}

async function both(docs: Doc[]) {
  await shared.deleteMany({});
  await plain.deleteMany({});
  await shared.insertMany(docs.map((d, i) => ({ _id: `d${i}`, ...d })));
  await plain.insertMany(docs.map((d, i) => ({ _id: `d${i}`, ...d })));
}

describe('a collection with shared fields', () => {
  it('reads every document as inserted, field order included, while its file holds each value once', async () => {
    const docs = fc.sample(job, { numRuns: 30, seed: 7 });
    await both(docs);
    same(await shared.find({}, { sort: { _id: 1 } }), await plain.find({}, { sort: { _id: 1 } }));
    same(await shared.findOne({ _id: 'd3' }), { _id: 'd3', ...docs[3] });
    const stored = rows(store.file, 'shared');
    expect(stored.every((text) => text.includes('"w":"\uFDD0R') && text.includes('"x":"\uFDD0R'))).toBe(true);
    // Jobs of one workflow (equal transitions) refer to one value.
    expect(new Set(stored.map((text) => /"x":"(\uFDD0R[^"]+)"/.exec(text)?.[1])).size).toBeLessThanOrEqual(4);
    expect(stored.join('').length).toBeLessThan(rows(store.file, 'plain').join('').length / 2);
    // Schema 3 (identity.ts's ID_SCHEMA): its tables are of this version too.
    expect(store.identity?.()?.schemaVersion).toBe(3);
  });

  it('filters, counts and deletes on paths inside a shared field as on a collection without one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(job, { minLength: 1, maxLength: 6 }), filterOf, async (docs, generated) => {
        await both(docs);
        const filter = { ...underW(generated) };
        const ids = async (c: Collection) => (await c.find(filter, { projection: { _id: 1 } })).map((d) => d._id).sort();
        expect(await ids(shared)).toEqual(await ids(plain));
        expect(await shared.count(filter)).toBe(await plain.count(filter));
        expect(await shared.count({ $or: [{ 'x.n': 1 }, filter] })).toBe(await plain.count({ $or: [{ 'x.n': 1 }, filter] }));
      }),
      { numRuns: 60 },
    );
    expect(await shared.deleteMany({ 'x.n': { $gte: 0 } })).toBeGreaterThan(0);
    expect(await shared.count({})).toBe(0);
  });

  it('sorts and projects (in and out) on paths inside a shared field as on a collection without one', async () => {
    const sorts: Sort[] = [{ 'w.n': 1, _id: 1 }, { 'w.s': -1, _id: 1 }, { 'x.n': -1, 'w.items.k': 1, _id: -1 }, { w: 1, _id: 1 }];
    const projections: Record<string, 0 | 1>[] = [{ 'w.n': 1 }, { w: 1, status: 1 }, { 'w.tags': 0, 'x.a.b.state': 0 }, { status: 1 }, { x: 0 }, { _id: 0 }];
    await fc.assert(
      fc.asyncProperty(fc.array(job, { minLength: 2, maxLength: 8 }), async (docs) => {
        await both(docs);
        for (const sort of sorts) same(await shared.find({}, { sort }), await plain.find({}, { sort }));
        for (const projection of projections) same(await shared.find({}, { projection, sort: { _id: 1 } }), await plain.find({}, { projection, sort: { _id: 1 } }));
        same(await shared.find({ status: 'running' }, { sort: { 'w.s': 1, _id: 1 }, skip: 1, limit: 2 }), await plain.find({ status: 'running' }, { sort: { 'w.s': 1, _id: 1 }, skip: 1, limit: 2 }));
      }),
      { numRuns: 25 },
    );
  });

  it('updates paths inside a shared field, the field itself, and fields beside it, as a collection without one', async () => {
    const updates: Update[] = [
      { $set: { status: 'complete', 'metrics.end_time': 5 } },
      { $set: { 'w.s': 'changed', 'x.a.b.state': 'failure' } },
      { $inc: { 'x.n': 1 } },
      { $unset: { 'w.tags': 1 } },
      { $set: { x: { replaced: true, pad: PAD } } },
      { $unset: { w: 1 } },
      { $set: { w: { short: 1 } } },
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(job, { minLength: 1, maxLength: 4 }), fc.array(fc.constantFrom(...updates), { minLength: 1, maxLength: 4 }), async (docs, chosen) => {
        await both(docs);
        for (const update of chosen) {
          expect(await shared.updateMany({ n: { $gte: 1 } }, update)).toEqual(await plain.updateMany({ n: { $gte: 1 } }, update));
          same(await shared.findOneAndUpdate({ n: 0 }, update, { sort: { _id: 1 } }), await plain.findOneAndUpdate({ n: 0 }, update, { sort: { _id: 1 } }));
          expect(await shared.updateOne({ 'x.n': { $gte: 0 } }, update)).toEqual(await plain.updateOne({ 'x.n': { $gte: 0 } }, update));
        }
        same(await shared.find({}, { sort: { _id: 1 } }), await plain.find({}, { sort: { _id: 1 } }));
      }),
      { numRuns: 25 },
    );
  });

  it('stores a value frozen all through as it stores its unfrozen twin, and one that can still change as it is at each write', async () => {
    const { deepFreeze } = await import('../../core/values/frozen');
    await fc.assert(
      fc.asyncProperty(job, async (doc) => {
        const frozen = deepFreeze(structuredClone(doc));
        await shared.deleteMany({});
        // The second frozen write takes the text kept at the first.
        for (const [id, d] of [['a', doc], ['b', frozen], ['c', frozen]] as const) await shared.insertOne({ _id: id, ...d });
        const texts = rows(store.file, 'shared').map((text) => text.replace(/^\{"_id":"[abc]"/, ''));
        expect(texts).toEqual([texts[0], texts[0], texts[0]]);
        for (const id of ['a', 'b', 'c']) same(await shared.findOne({ _id: id }), { _id: id, ...doc });
      }),
      { numRuns: 15 },
    );
    // Frozen on top only, or holding a Date (freezing leaves its time writable): what is written is the value as it is then.
    const inner = { k: 'before', pad: PAD };
    const date = new Date(1000);
    const top = Object.freeze({ inner, pad: PAD });
    const dated = deepFreeze({ at: date, pad: PAD });
    await shared.deleteMany({});
    await shared.insertOne({ _id: 'a', w: top, x: dated });
    inner.k = 'after';
    date.setTime(2000);
    await shared.insertOne({ _id: 'b', w: top, x: dated });
    same(await shared.findOne({ _id: 'a' }), { _id: 'a', w: { inner: { k: 'before', pad: PAD }, pad: PAD }, x: { at: new Date(1000), pad: PAD } });
    same(await shared.findOne({ _id: 'b' }), { _id: 'b', w: { inner: { k: 'after', pad: PAD }, pad: PAD }, x: { at: new Date(2000), pad: PAD } });
    // Beside a date, and a user's string that looks like a reference: each read back as written.
    const beside = { _id: 'c', w: deepFreeze({ pad: PAD }), at: new Date(3000), s: '\uFDD0R0123456789', x: { pad: PAD } };
    await shared.insertOne(beside);
    same(await shared.findOne({ _id: 'c' }), beside);
  });

  it('refuses an index on a path inside a shared field, naming it (its column would hold the reference)', async () => {
    await expect(shared.createIndex({ key: { 'w.n': 1 }, name: 'w.n_1' })).rejects.toThrow(/index w\.n_1 on shared names w\.n/);
    await shared.createIndex({ key: { status: 1 }, name: 'status_1' });
    expect((await shared.listIndexes()).map((spec) => spec.name)).toEqual(['_id_', 'status_1']);
  });
});

describe('the side table', () => {
  it('never mixes two values, even when their keys meet (a hash that always collides)', () => {
    const db = new (sqlite().DatabaseSync)(':memory:');
    try {
      const values = new SharedValues(db, { c: ['v'] }, () => 'ab');
      const value = fc.jsonValue().filter((v) => v !== null && typeof v === 'object' && JSON.stringify(v).length >= 48);
      fc.assert(
        fc.property(fc.array(fc.record({ k: fc.string(), v: value }), { minLength: 1, maxLength: 12 }), (docs) => {
          values.forget();
          for (const doc of docs) {
            const text = values.encode('c', doc);
            // Past the probes (8 keys), a value stays in its document: never another's.
            expect(JSON.parse(values.resolve(text))).toEqual(JSON.parse(encodeDoc(doc)));
            expect(values.resolve(text)).toBe(encodeDoc(doc));
          }
        }),
        { numRuns: 100 },
      );
      // Another connection's reads (nothing kept in memory) resolve from the table alone.
      const fresh = new SharedValues(db, { c: ['v'] }, () => 'ab');
      const doc = { k: 'z', v: { many: 'words to be long enough', more: [1, 2, 3], deeper: { a: true } } };
      const text = new SharedValues(db, { c: ['v'] }, () => 'cd').encode('c', doc);
      expect(fresh.resolve(text)).toBe(encodeDoc(doc));
    } finally {
      db.close();
    }
  });
});

describe('files and backups', () => {
  const JOB = { name: 'wf', tasks: { a1: { name: 'query', summary: 'Query data', status: 'incomplete', when: new Date(5) }, workflow_start: { name: 'workflow_start' } }, status: 'running', transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: {} } } };

  it('reads a file written before values were kept once as before, and keeps a value once when an update changes it', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shared-legacy-'));
    try {
      const before = await openEmbeddedStore(folder, { sharedFields: {} });
      await before.collection('jobs').insertMany([{ _id: 'old1', ...JOB }, { _id: 'old2', ...JOB }]);
      // Its tables are of this version (ID_SCHEMA), its documents hold no reference.
      expect(before.identity?.()?.schemaVersion).toBe(3);
      expect(rows(before.file, 'jobs').some((text) => text.includes('\uFDD0R'))).toBe(false);
      await before.close();
      const now = await openEmbeddedStore(folder);
      const jobs = now.collection('jobs');
      same(await jobs.findOne({ _id: 'old1' }), { _id: 'old1', ...JOB });
      expect(await jobs.updateOne({ _id: 'old1' }, { $set: { 'tasks.a1.status': 'complete' } })).toEqual({ matched: 1, modified: 1 });
      expect(await jobs.updateOne({ _id: 'old2' }, { $set: { 'tasks.a1.status': 'incomplete' } })).toEqual({ matched: 1, modified: 0 });
      const file = now.file;
      same(await jobs.findOne({ _id: 'old1' }), { _id: 'old1', ...JOB, tasks: { ...JOB.tasks, a1: { ...JOB.tasks.a1, status: 'complete' } } });
      expect(now.identity?.()?.schemaVersion).toBe(3);
      await now.close();
      expect(rows(file, 'jobs').map((text) => text.includes('"tasks":"\uFDD0R'))).toEqual([true, false]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('writes whole the jobs of a collection with an index on a path inside a shared field (made before values were kept once): its column reads the stored text', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shared-indexed-'));
    try {
      const before = await openEmbeddedStore(folder, { sharedFields: {} });
      await before.collection('jobs').createIndex({ key: { 'tasks.a1.status': 1 }, name: 'tasks.a1.status_1' });
      await before.collection('jobs').insertOne({ _id: 'old', ...JOB });
      await before.close();
      const now = await openEmbeddedStore(folder);
      const jobs = now.collection('jobs');
      await jobs.insertOne({ _id: 'new', ...JOB });
      await jobs.updateOne({ _id: 'old' }, { $set: { 'tasks.a1.status': 'complete' } });
      expect((await jobs.find({ 'tasks.a1.status': 'incomplete' })).map((j) => j._id)).toEqual(['new']);
      expect((await jobs.find({ 'tasks.a1.status': 'complete' })).map((j) => j._id)).toEqual(['old']);
      same(await jobs.findOne({ _id: 'new' }), { _id: 'new', ...JOB });
      const file = now.file;
      await now.close();
      expect(rows(file, 'jobs').some((text) => text.includes('\uFDD0R'))).toBe(false);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('a file holding shared values is of schema 2 or more: a console knowing schema 1 (before values were kept once) refuses it, as this one refuses a newer schema', async () => {
    const { SCHEMA_VERSION } = await import('../../core/store/embedded/identity');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shared-schema-'));
    try {
      const opened = await openEmbeddedStore(folder);
      expect(opened.identity?.()?.schemaVersion).toBe(1);
      await opened.collection('jobs').insertOne({ _id: 'j1', ...JOB });
      // 3 (ID_SCHEMA): the table made for it is of this version too.
      expect(opened.identity?.()?.schemaVersion).toBe(3);
      const file = opened.file;
      await opened.close();
      const db = new (sqlite().DatabaseSync)(file);
      db.prepare('UPDATE _identity SET schemaVersion = ?').run(SCHEMA_VERSION + 1);
      db.close();
      await expect(openEmbeddedStore(folder)).rejects.toThrow(`was written by a newer console (schema ${SCHEMA_VERSION + 1}; this one knows ${SCHEMA_VERSION})`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('restores a backup: its jobs read as they were when it was taken', async () => {
    const { takeBackup, swapInBackup } = await import('../../core/store/embedded/backups');
    const { restoredIdentity } = await import('../../core/store/embedded/restore-identity');
    const folder = await mkdtemp(path.join(os.tmpdir(), 'shared-backup-'));
    try {
      let opened = await openEmbeddedStore(folder);
      await opened.collection('jobs').insertMany([{ _id: 'j1', ...JOB }, { _id: 'j2', ...JOB, name: 'other', transitions: { other: { a: { b: 'a different workflow' } } } }]);
      const backup = await takeBackup(opened.file, folder);
      await opened.collection('jobs').updateMany({}, { $set: { 'tasks.a1.status': 'complete', status: 'complete' } });
      await opened.collection('jobs').insertOne({ _id: 'j3', ...JOB });
      const file = opened.file;
      const identity = opened.identity?.();
      await opened.close();
      // As the console's restore does: the copy carries the store's identity, newer than every backup.
      const restored = await restoredIdentity(folder, file, identity, { id: backup.id });
      await swapInBackup(backup, file, (copy) => restored.stamp(copy));
      opened = await openEmbeddedStore(folder);
      same(await opened.collection('jobs').find({}, { sort: { _id: 1 } }), [
        { _id: 'j1', ...JOB },
        { _id: 'j2', ...JOB, name: 'other', transitions: { other: { a: { b: 'a different workflow' } } } },
      ]);
      await opened.close();
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
