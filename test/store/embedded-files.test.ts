// The embedded store's file: one SQLite database per profile (or the file the
// profile names), what survives a restart, the plans SQLite picks for the engine's
// hot queries, keys and values kept exactly, transactions and the integrity check.
import { AsyncResource } from 'node:async_hooks';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import type { EmbeddedCollection } from '../../core/store/embedded/collection';
import { openStore, embeddedDir } from '../../core/store/open';
import { StoreError } from '../../core/store/errors';
import { declaredCollections, findDeclaredCollection } from '../../core/indexes/declared';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'store-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embedded store file', () => {
  it('makes a new file with 2 KiB pages and keeps using a file made with 4 KiB pages', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const pageSize = (file: string) => {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        return Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
      } finally {
        db.close();
      }
    };
    const fresh = await openEmbeddedStore(path.join(dir, 'new'));
    await fresh.collection('jobs').insertOne({ _id: 'j1', status: 'running' });
    await fresh.close();
    expect(pageSize(path.join(dir, 'new', 'console.sqlite'))).toBe(2048);

    // A file an earlier version made, at SQLite's default page size, in WAL mode.
    // (A file the console never opened: with its own tables, as that version made them; no identity yet.)
    const earlierFile = path.join(dir, 'earlier', 'console.sqlite');
    await mkdir(path.dirname(earlierFile), { recursive: true });
    const made = new DatabaseSync(earlierFile);
    made.exec('PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    made.close();
    const reopened = await openEmbeddedStore(path.join(dir, 'earlier'));
    await reopened.collection('jobs').insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: `j${i}`, status: 'complete', text: 'x'.repeat(3000) })));
    expect(await reopened.collection('jobs').count({ status: 'complete' })).toBe(200);
    // Given its identity at this first open, kept in the file.
    // Of schema 3: its new tables read each document's _id from its text (identity.ts's ID_COLUMN).
    expect(reopened.identity?.()).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), schemaVersion: 3 });
    await reopened.close();
    expect(pageSize(earlierFile)).toBe(4096);
  });

  it('keeps one SQLite file under <dataDir>/profiles/<id>/db and its documents across a restart', async () => {
    const store = await openStore(dir, { id: 'primary', mongoProps: { db: 'automation' } });
    const file = path.join(embeddedDir(dir, 'primary'), 'console.sqlite');
    expect(store.kind).toBe('embedded');
    expect(store.location).toBe(`embedded store in ${file}`);
    await store.collection('jobs').insertOne({ _id: 'j1', status: 'running' });
    await store.collection('tasks').insertOne({ _id: 't1', status: 'queued' });
    await store.close();

    expect(existsSync(file)).toBe(true);
    const again = await openStore(dir, { id: 'primary' });
    expect(await again.collection('jobs').findOne({ _id: 'j1' })).toEqual({ _id: 'j1', status: 'running' });
    expect(await again.listCollections()).toEqual(['jobs', 'tasks']);
    await again.close();
  });

  it('opens the file a profile names in embeddedProps.file, so two data directories share one database', async () => {
    const shared = path.join(dir, 'shared', 'automation.sqlite');
    const primary = await openStore(path.join(dir, 'primary-data'), { id: 'primary', embeddedProps: { file: shared } });
    const standby = await openStore(path.join(dir, 'standby-data'), { id: 'standby', embeddedProps: { file: shared } });
    expect(primary.location).toBe(`embedded store in ${shared}`);
    await primary.collection('jobs').insertOne({ _id: 'j1', name: 'deploy' });
    expect(await standby.collection('jobs').findOne({ _id: 'j1' })).toEqual({ _id: 'j1', name: 'deploy' });
    await primary.close();
    await standby.close();
    // A relative file is under the profile's db folder.
    const relative = await openStore(dir, { id: 'lab', embeddedProps: { file: 'lab.sqlite' } });
    expect(relative.location).toBe(`embedded store in ${path.join(embeddedDir(dir, 'lab'), 'lab.sqlite')}`);
    await relative.close();
  });

  it('keeps index names and options and enforces them after a restart', async () => {
    const db = path.join(dir, 'db');
    const store = await openEmbeddedStore(db);
    const workflows = store.collection('workflows');
    await workflows.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
    await workflows.createIndex({ key: { 'metrics.start_time': -1, status: 1 }, name: 'by_start' });
    await workflows.insertOne({ name: 'deploy' });
    await store.close();

    const again = await openEmbeddedStore(db);
    expect(await again.collection('workflows').listIndexes()).toEqual([
      { key: { _id: 1 }, name: '_id_' },
      { key: { name: 1 }, name: 'name_1', unique: true },
      { key: { 'metrics.start_time': -1, status: 1 }, name: 'by_start' },
    ]);
    await expect(again.collection('workflows').insertOne({ name: 'deploy' })).rejects.toThrow(/duplicate key in collection workflows: the name_1 index/);
    await again.close();
  });

  describe('with the workflow engine indexes', () => {
    let store: EmbeddedStore;
    beforeEach(async () => {
      store = await openEmbeddedStore(path.join(dir, 'db'));
      for (const declared of declaredCollections) {
        for (const index of declared.indexes) await store.collection(declared.collection).createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
      }
      const tasks = store.collection('tasks');
      await tasks.insertMany(Array.from({ length: 200 }, (_, i) => ({ status: i % 2 ? 'queued' : 'complete', queuedAt: i, runAfter: 0, jobId: `j${i % 7}` })));
    });
    afterEach(async () => store.close());

    const plan = (collection: string, ...args: Parameters<EmbeddedCollection['explain']>) =>
      (store.collection(collection) as EmbeddedCollection).explain(...args).then((lines) => lines.join('\n'));

    it('the claim is one UPDATE that searches the claim index in queue order, no table scan, no sort', async () => {
      expect(findDeclaredCollection('tasks')!.indexes.map((i) => i.name)).toContain('status_1_queuedAt_1_runAfter_1');
      const claim = await plan('tasks', { status: 'queued', runAfter: { $lte: Date.now() } }, { claim: true, sort: { queuedAt: 1 } });
      expect(claim).toMatch(/SEARCH c:tasks USING (COVERING )?INDEX i:tasks:status_1_queuedAt_1_runAfter_1 \(k:status=\?\)/);
      expect(claim).not.toMatch(/SCAN c:tasks|USE TEMP B-TREE/);
    });

    it('the sweeper searches the lease index', async () => {
      const sweep = await plan('tasks', { status: 'running', leaseUntil: { $lt: Date.now() } });
      expect(sweep).toMatch(/SEARCH c:tasks USING (COVERING )?INDEX i:tasks:status_1_leaseUntil_1 \(k:status=\? AND k:leaseUntil<\?\)/);
    });

    it('the child jobs and the lease sweep read partial indexes, listed as declared, which only a query naming their field uses', async () => {
      const children = await plan('jobs', { 'parent.job': 'job-1' }, { sort: { 'metrics.start_time': 1 } });
      expect(children).toMatch(/SEARCH c:jobs USING INDEX i:jobs:parent\.job_1_metrics\.start_time_1 \(k:parent\.job=\?\)/);
      expect(children).not.toMatch(/TEMP B-TREE/);
      const listed = await store.collection('tasks').listIndexes();
      expect(listed.find((spec) => spec.name === 'status_1_leaseUntil_1')).toEqual({ key: { status: 1, leaseUntil: 1 }, name: 'status_1_leaseUntil_1', partialFilterExpression: { leaseUntil: { $exists: true } } });
      // A query that does not compare leaseUntil cannot use an index that leaves tasks out.
      expect(await plan('tasks', { status: 'running' })).not.toMatch(/status_1_leaseUntil_1/);
      // Records not yet advanced, for recovery: the index holds only those (advanced: false).
      const unadvanced = await plan('tasks', { advanced: false, 'metrics.end_time': { $lt: 5 } }, { sort: { 'metrics.end_time': 1 } });
      expect(unadvanced).toMatch(/SEARCH c:tasks USING INDEX i:tasks:advanced_1_metrics\.end_time_1 \(k:advanced=\? AND k:metrics\.end_time<\?\)/);
      expect(unadvanced).not.toMatch(/TEMP B-TREE/);
      expect(await plan('tasks', { advanced: true })).not.toMatch(/advanced_1_metrics/);
      const tasks = store.collection('tasks');
      await tasks.insertMany([{ _id: 'leased', status: 'running', leaseUntil: 5 }, { _id: 'free', status: 'running' }]);
      expect((await tasks.find({ status: 'running', leaseUntil: { $lt: 10 } })).map((t) => t._id)).toEqual(['leased']);
      expect((await tasks.find({ status: 'running' })).map((t) => t._id).sort()).toEqual(['free', 'leased']);
    });

    it('the claim and the recovery of half-started jobs read indexes of queued tasks and running jobs only, also after a restart', async () => {
      const claimPlan = () => plan('tasks', { status: 'queued', runAfter: { $lte: Date.now() } }, { claim: true, sort: { queuedAt: 1 } });
      const halfStarted = () => plan('jobs', { status: 'running', last_updated: { $lt: Date.now() } }, { sort: { last_updated: 1 } });
      expect(await halfStarted()).toMatch(/SEARCH c:jobs USING INDEX i:jobs:status_1_last_updated_1 \(k:status=\? AND k:last_updated<\?\)/);
      // Another status is not in those indexes: its queries read others.
      expect(await plan('tasks', { status: 'complete' }, { sort: { queuedAt: 1 } })).not.toMatch(/status_1_queuedAt_1_runAfter_1/);
      expect(await plan('jobs', { status: 'complete', last_updated: { $lt: 5 } })).not.toMatch(/status_1_last_updated_1/);
      // Tasks waiting for an operator, read by every Jobs list, the work queue and attention: their own small index.
      const waiting = await plan('tasks', { status: 'waiting', childJob: { $exists: false } }, { sort: { queuedAt: 1 } });
      expect(waiting).toMatch(/SEARCH c:tasks USING INDEX i:tasks:status_1_queuedAt_1 \(k:status=\?\)/);
      expect(waiting).not.toMatch(/SCAN c:tasks|TEMP B-TREE/);
      // The tasks a worker holds, re-queued at its start, are found through the lease index.
      expect(await plan('tasks', { status: 'running', leaseUntil: { $gt: 0 } })).toMatch(/USING INDEX i:tasks:status_1_leaseUntil_1/);
      // The value the index names is a literal in the claim's SQL: SQLite plans it once, not at each call's binding.
      const claimSql = () => (store.collection('tasks') as EmbeddedCollection).explain({ status: 'queued', runAfter: { $lte: 1 } }, { claim: true, sort: { queuedAt: 1 }, sql: true });
      expect((await claimSql())[0]).toContain(`"k:status" = 'queued'`);
      await store.close();
      store = await openEmbeddedStore(path.join(dir, 'db'));
      expect((await claimSql())[0]).toContain(`"k:status" = 'queued'`);
      expect(await claimPlan()).toMatch(/SEARCH c:tasks USING (COVERING )?INDEX i:tasks:status_1_queuedAt_1_runAfter_1 \(k:status=\?\)/);
      expect(await halfStarted()).toMatch(/USING INDEX i:jobs:status_1_last_updated_1/);
      // What the claim reads: the oldest queued task, whatever else the collection holds.
      const claimed = await store.collection('tasks').findOneAndUpdate({ status: 'queued', runAfter: { $lte: Date.now() } }, { $set: { status: 'running' } }, { sort: { queuedAt: 1 } });
      expect(claimed).toMatchObject({ status: 'running', queuedAt: 1 });
    });

    it('refuses a partial filter the embedded store cannot serve, naming the index, and creates nothing', async () => {
      const jobs = store.collection('jobs');
      await expect(jobs.createIndex({ key: { status: 1 }, name: 'running_only', partialFilterExpression: { status: { $in: ['running', 'paused'] } } })).rejects.toThrow(
        /index running_only on jobs: partialFilterExpression has \{"status":\{"\$in":\["running","paused"\]\}\}; the embedded store takes \{ "<field>": \{ "\$exists": true \} \}, \{ "<field>": true \| false \} and \{ "<field>": "<text>" \} conditions/,
      );
      expect((await jobs.listIndexes()).map((spec) => spec.name)).not.toContain('running_only');
    });

    it('the Jobs list reads its page from the start time index, filtered or not, without sorting', async () => {
      const page = await plan('jobs', {}, { sort: { 'metrics.start_time': -1 }, skip: 50, limit: 50 });
      expect(page).toMatch(/SCAN c:jobs USING INDEX i:jobs:metrics\.start_time_-1/);
      expect(page).not.toMatch(/TEMP B-TREE/);
      const byStatus = await plan('jobs', { status: 'running' }, { sort: { 'metrics.start_time': -1 }, limit: 50 });
      expect(byStatus).toMatch(/SEARCH c:jobs USING INDEX i:jobs:status_1_metrics\.start_time_-1/);
      expect(byStatus).not.toMatch(/TEMP B-TREE/);
    });
  });

  it('stores field names with "." and a leading "$" and reads them back exactly', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    const jobs = store.collection('jobs');
    const variables = { 'device.name': 'r1', $ref: '#/a', nested: { '$in': [1, 2], 'a.b.c': { $set: true } }, '': 'empty key' };
    const id = await jobs.insertOne({ variables });
    expect((await jobs.findOne({ _id: id }))?.variables).toEqual(variables);
    await jobs.updateOne({ _id: id }, { $set: { status: 'running' } });
    expect(await jobs.findOne({ _id: id })).toEqual({ _id: id, variables, status: 'running' });
    await store.close();
  });

  it('keeps dates as dates, ordered and compared as dates, apart from strings', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    const c = store.collection('events');
    await c.insertMany([
      { _id: 'early', at: new Date('2022-01-01T00:00:00Z') },
      { _id: 'late', at: new Date('2023-06-01T00:00:00Z') },
      { _id: 'text', at: 'zzz' },
      { _id: 'mark', at: '\uFDD0D2022-05-01T00:00:00.000Z' },
    ]);
    const after = await c.find({ at: { $gt: new Date('2022-06-01T00:00:00Z') } });
    expect(after.map((d) => d._id)).toEqual(['late']);
    expect((after[0]!.at as Date).toISOString()).toBe('2023-06-01T00:00:00.000Z');
    expect(await c.findOne({ _id: 'mark' })).toEqual({ _id: 'mark', at: '\uFDD0D2022-05-01T00:00:00.000Z' });
    // A string range takes strings, never dates: the user's string that looks like a stored date is a string past 'a', as in MongoDB.
    expect((await c.find({ at: { $gte: 'a' } })).map((d) => d._id)).toEqual(['text', 'mark']);
    expect((await c.find({ at: { $lt: '\uFFFF' } })).map((d) => d._id)).toEqual(['text', 'mark']);
    expect((await c.find({ _id: { $ne: 'mark' } }, { sort: { at: 1 } })).map((d) => d._id)).toEqual(['text', 'early', 'late']);
    await store.close();
  });

  it('leaves out the fields an exclusion projection names, keeping every other value exactly', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    const c = store.collection('jobs');
    const kept = { _id: 'j', at: new Date('2022-01-01T00:00:00Z'), mark: '\uFDD0x', n: 0.1, big: 2 ** 60, neg: -0.5e-7, s: 'quote " \\ \u00e9 \u2028 \n', 'a.b': { $x: [1, null, true] }, metrics: { start_time: 5, user: 'u' } };
    await c.insertOne({ ...kept, tasks: { t1: { name: 'big' } }, transitions: {}, metrics: { ...kept.metrics, end_time: 9 } });
    expect(await c.findOne({ _id: 'j' }, { projection: { tasks: 0, transitions: 0, 'metrics.end_time': 0, absent: 0 } })).toEqual(kept);
    await store.close();
  });

  it('tells booleans from numbers and null from missing', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    const c = store.collection('mixed');
    await c.insertMany([{ _id: 't', v: true }, { _id: 'one', v: 1 }, { _id: 'f', v: false }, { _id: 'zero', v: 0 }, { _id: 'null', v: null }, { _id: 'none' }]);
    const ids = async (filter: Record<string, unknown>) => (await c.find(filter)).map((d) => d._id).sort();
    expect(await ids({ v: true })).toEqual(['t']);
    expect(await ids({ v: 1 })).toEqual(['one']);
    expect(await ids({ v: false })).toEqual(['f']);
    expect(await ids({ v: null })).toEqual(['none', 'null']);
    expect(await ids({ v: { $exists: false } })).toEqual(['none']);
    expect(await ids({ v: { $ne: true } })).toEqual(['f', 'none', 'null', 'one', 'zero']);
    expect(await ids({ v: { $nin: [0, null] } })).toEqual(['f', 'one', 't']);
    await store.close();
  });

  it('commits a transaction whole or not at all; other calls wait for it', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    await expect(
      store.transaction!(async (tx) => {
        await tx.collection('jobs').insertOne({ _id: 'j1' });
        await tx.collection('tasks').insertOne({ _id: 't1' });
        throw new Error('stop here');
      }),
    ).rejects.toThrow('stop here');
    expect(await store.collection('jobs').count()).toBe(0);
    expect(await store.collection('tasks').count()).toBe(0);

    // A caller outside the transaction (its own async context, bound before it began) waits for the commit.
    let outsideSaw = -1;
    const outside = AsyncResource.bind(() => void store.collection('jobs').count().then((n) => (outsideSaw = n)));
    await store.transaction!(async (tx) => {
      await tx.collection('jobs').insertOne({ _id: 'j2' });
      outside();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(outsideSaw).toBe(-1);
      // Calls in the transaction's context go in, whatever handle they use.
      expect(await store.collection('jobs').count()).toBe(1);
      await tx.collection('tasks').insertOne({ _id: 't2' });
    });
    await expect.poll(() => outsideSaw).toBe(1);
    await store.close();
  });

  it('runs transactions asked for together (one commit), each answered as it went; one that fails is rolled back alone', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    const jobs = store.collection('jobs');
    // Ten tasks ending in the same turn of the event loop, the fourth failing after its write.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        store.transaction!(async (tx) => {
          await tx.collection('jobs').insertOne({ _id: `j${i}` });
          if (i === 3) throw new Error('task 3 failed');
          return i;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', ...Array(6).fill('fulfilled')]);
    expect((results[3] as PromiseRejectedResult).reason.message).toBe('task 3 failed');
    expect((await jobs.find({}, { sort: { _id: 1 } })).map((j) => j._id)).toEqual(['j0', 'j1', 'j2', 'j4', 'j5', 'j6', 'j7', 'j8', 'j9']);
    await store.close();
  });


  it('counts the time its transactions held the write lock, and none for reads', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    await store.collection('jobs').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    const before = store.lockHeldMs();
    await store.collection('jobs').find({});
    expect(store.lockHeldMs()).toBe(before);
    // A transaction that keeps the lock across a 30 ms wait: at least that long is counted.
    await store.transaction!(async (tx) => {
      await tx.collection('jobs').insertOne({ _id: 'c' });
      await new Promise((r) => setTimeout(r, 30));
    });
    expect(store.lockHeldMs() - before).toBeGreaterThanOrEqual(29);
    await store.close();
  });
  it('reports the integrity check of the file', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    await store.collection('jobs').insertOne({ _id: 'j1' });
    // Run in the background at open: the first result comes within moments for a small file.
    let result = await store.integrity();
    for (let i = 0; !result && i < 200; i++) result = await new Promise((r) => setTimeout(r, 25)).then(() => store.integrity());
    expect(result).toMatchObject({ ok: true, problems: [] });
    await store.close();
  });

  it('refuses an unsupported operator with a clear error, not a crash', async () => {
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    await store.collection('jobs').insertOne({ _id: 'j1' });
    const error = await store.collection('jobs').find({ name: { $geoWithin: {} } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).reason).toBe('invalid');
    expect((error as Error).message).toMatch(/unsupported query operator \$geoWithin on name/);
    await store.close();
  });

  it('copies the WAL into the database file in the background while the store stays open', async () => {
    const store = await openEmbeddedStore(dir);
    const size = () => (existsSync(store.file) ? statSync(store.file).size : 0);
    await store.collection('jobs').insertOne({ _id: 'j0' });
    const before = size();
    // Far below the WAL bound at which a commit checkpoints itself: only the checkpoint thread copies these pages.
    await store.collection('jobs').insertMany(Array.from({ length: 200 }, (_v, i) => ({ _id: `j${i + 1}`, text: 'x'.repeat(500) })));
    const deadline = Date.now() + 10_000;
    while (size() <= before + 16 * 4096 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(size()).toBeGreaterThan(before + 16 * 4096);
    expect(await store.collection('jobs').count()).toBe(201);
    await store.close();
  });

  it('shares one connection between the stores one process opens on a file', async () => {
    const db = path.join(dir, 'db');
    const a = await openEmbeddedStore(db);
    const b = await openEmbeddedStore(db);
    await a.collection('tasks').insertOne({ _id: 't1' });
    expect(await b.collection('tasks').findOne({ _id: 't1' })).toEqual({ _id: 't1' });
    await a.close();
    expect(await b.collection('tasks').count()).toBe(1);
    await b.close();
    await expect(Promise.resolve().then(() => b.collection('tasks'))).rejects.toThrow(/closed/);
  });

  it('prints no SQLite ExperimentalWarning, and lets other warnings through', () => {
    const script = `
      const { openEmbeddedStore } = await import(${JSON.stringify(path.resolve('core/store/embedded/store.ts'))});
      const store = await openEmbeddedStore(${JSON.stringify(path.join(dir, 'warn'))});
      await store.collection('x').insertOne({ a: 1 });
      await store.close();
      process.emitWarning('a warning of the test', 'ExperimentalWarning');`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/SQLite is an experimental feature/);
    expect(run.stderr).toMatch(/a warning of the test/);
  });
});
