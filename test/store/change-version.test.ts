// The embedded store's change versions: what lets the job runner keep a job and its
// task records between two tasks instead of reading them again (core/engine/jobs/held.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { Engine } from '../../core/engine/index';
import { methodRunner } from '../../core/engine/jobs/execute';
import type { Store } from '../../core/store/port';
import { interceptCollections } from './support/intercept';
import { stepsWorkflow } from './support/steps';

let dir: string;
let store: EmbeddedStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'change-version-'));
  store = await openEmbeddedStore(path.join(dir, 'db'));
  store.trackChanges!('tasks', 'jobId');
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('change versions of the embedded store', () => {
  it('move when a document of that value is inserted or updated, and only then', async () => {
    const tasks = store.collection('tasks');
    await tasks.insertMany([{ _id: 'a1', jobId: 'a', status: 'queued' }, { _id: 'b1', jobId: 'b', status: 'queued' }]);
    const a = store.changeVersion!('tasks', 'a');
    const b = store.changeVersion!('tasks', 'b');
    expect(a).toBeDefined();
    await tasks.updateOne({ _id: 'a1' }, { $set: { status: 'running' } });
    expect(store.changeVersion!('tasks', 'a')).not.toBe(a);
    expect(store.changeVersion!('tasks', 'b')).toBe(b);
    await tasks.insertOne({ _id: 'b2', jobId: 'b', status: 'queued' });
    expect(store.changeVersion!('tasks', 'b')).not.toBe(b);
    // A claim by status (no jobId in the filter) is seen by the document it changed.
    const c = store.changeVersion!('tasks', 'c');
    const before = store.changeVersion!('tasks', 'b');
    await tasks.insertOne({ _id: 'c1', jobId: 'c', status: 'queued', queuedAt: 0 });
    const afterInsert = store.changeVersion!('tasks', 'c');
    expect(afterInsert).not.toBe(c);
    await tasks.findOneAndUpdate({ status: 'queued', queuedAt: 0 }, { $set: { status: 'running' } });
    expect(store.changeVersion!('tasks', 'c')).not.toBe(afterInsert);
    expect(store.changeVersion!('tasks', 'b')).toBe(before);
  });

  it('of a collection tracked by _id move when a document is inserted under an _id the store made', async () => {
    store.trackChanges!('jobs', '_id');
    const jobs = store.collection('jobs');
    const id = await jobs.insertOne({ name: 'made its own id' });
    // A version ends in the count of writes seen for the value: one insert, then an update (before and after).
    const other = store.changeVersion!('jobs', 'another id');
    expect(store.changeVersion!('jobs', id)).toMatch(/\.1$/);
    await jobs.updateOne({ _id: id }, { $set: { status: 'running' } });
    expect(store.changeVersion!('jobs', id)).toMatch(/\.3$/);
    expect(store.changeVersion!('jobs', 'another id')).toBe(other);
  });

  it('move for every value on a delete, and on any commit of another connection to the file', async () => {
    const tasks = store.collection('tasks');
    await tasks.insertMany([{ _id: 'a1', jobId: 'a' }, { _id: 'b1', jobId: 'b' }]);
    let a = store.changeVersion!('tasks', 'a');
    await tasks.deleteOne({ _id: 'b1' });
    expect(store.changeVersion!('tasks', 'a')).not.toBe(a);

    a = store.changeVersion!('tasks', 'a');
    // Another console process on the file: its own connection.
    const other = new DatabaseSync(store.file);
    other.exec(`PRAGMA busy_timeout = 5000`);
    other.prepare(`UPDATE "c:tasks" SET doc = json_set(doc, '$.status', 'x') WHERE _id = 'a1'`).run();
    other.close();
    expect(store.changeVersion!('tasks', 'a')).not.toBe(a);
  });

  it('taken before a read ask no statement, and differ from one in a later transaction once another connection committed', async () => {
    const tasks = store.collection('tasks');
    await tasks.insertOne({ _id: 'a1', jobId: 'a' });
    const now = store.changeVersion!('tasks', 'a');
    expect(store.changeVersion!('tasks', 'a', true)).toBe(now);
    expect(await store.transaction!(async () => store.changeVersion!('tasks', 'a'))).toBe(now);
    const other = new DatabaseSync(store.file);
    other.exec(`PRAGMA busy_timeout = 5000`);
    other.prepare(`UPDATE "c:tasks" SET doc = json_set(doc, '$.status', 'x') WHERE _id = 'a1'`).run();
    other.close();
    // The commit is not asked about before a read (the last seen part stands), and moves the version inside the next transaction.
    const before = store.changeVersion!('tasks', 'a', true);
    expect(before).toBe(now);
    expect(await store.transaction!(async () => store.changeVersion!('tasks', 'a'))).not.toBe(before);
  });

  it('move for a value holding a lone surrogate whatever spelling wrote it or asks (stored as U+FFFD, as MongoDB\'s driver writes it)', async () => {
    const tasks = store.collection('tasks');
    await tasks.insertOne({ _id: 's1', jobId: 'j\uD800', status: 'queued' });
    const lone = store.changeVersion!('tasks', 'j\uD800');
    const replaced = store.changeVersion!('tasks', 'j\uFFFD');
    expect(lone).toBe(replaced);
    // The update reads the document from its text, where the value is U+FFFD: both spellings move.
    await tasks.updateOne({ _id: 's1' }, { $set: { status: 'running' } });
    expect(store.changeVersion!('tasks', 'j\uD800')).not.toBe(lone);
    expect(store.changeVersion!('tasks', 'j\uD800')).toBe(store.changeVersion!('tasks', 'j\uFFFD'));
  });

  it('are not given for a collection nobody tracks', () => {
    expect(store.changeVersion!('jobs', 'a')).toBeUndefined();
  });
});

/** The store, counting the reads of the task records of a job (the advance's read) and of a job by its id. */
function countingReads(inner: Store) {
  const reads = { records: 0, jobs: 0 };
  const wrapped = interceptCollections(inner, (name, collection) =>
    name === 'tasks'
      ? {
          find: (filter, options) => {
            if (Object.keys(filter).length === 1 && 'jobId' in filter) reads.records++;
            return collection.find(filter, options);
          },
        }
      : name === 'jobs'
        ? {
            findOne: (filter, options) => {
              if (Object.keys(filter).length === 1 && '_id' in filter) reads.jobs++;
              return collection.findOne(filter, options);
            },
          }
        : undefined,
  );
  return { store: wrapped, reads };
}

describe('the job runner keeps what it wrote between two tasks of a job', () => {
  const verify = process.env.CONSOLE_VERIFY_HELD;
  // The check reads the records itself: off here, where the reads are counted.
  beforeEach(() => void (process.env.CONSOLE_VERIFY_HELD = '0'));
  afterEach(() => void (process.env.CONSOLE_VERIFY_HELD = verify));

  /** A running engine on the counting store, with a 6-task workflow `six`. */
  async function sixTaskEngine() {
    const { store: counted, reads } = countingReads(store);
    await counted.collection('workflows').insertOne(stepsWorkflow('six', 6));
    // The library's tasks through a runner of the test's: the worker runs each (none in the start's write, in-write.ts), an advance after each.
    const engine = new Engine({ store: counted, serverId: 's', serverName: 's', processTasksOnStart: true, runMethod: methodRunner(() => undefined), worker: { idleMs: 5 } });
    await engine.open();
    return { engine, reads };
  }

  it('runs a 6-task job reading its task records at most once', async () => {
    const { engine, reads } = await sixTaskEngine();
    try {
      const job = await engine.runner.start('six', { variables: { text: 'abc' } });
      await expect.poll(async () => (await engine.runner.job(job._id))?.status, { timeout: 10_000 }).toBe('complete');
      expect((await engine.runner.job(job._id))?.variables).toMatchObject({ result: 'ABC' });
      expect(reads.records).toBeLessThanOrEqual(1);
    } finally {
      await engine.close();
    }
  });

  it('reads them again when something else wrote the job meanwhile (an operator, another process)', async () => {
    const { engine, reads } = await sixTaskEngine();
    try {
      // A write to the job's records by another path between each task: every advance reads.
      const tasks = store.collection('tasks');
      const job = await engine.runner.start('six', { variables: { text: 'abc' } });
      const touch = setInterval(() => void tasks.updateMany({ jobId: job._id }, { $set: { touched: true } }), 0);
      await expect.poll(async () => (await engine.runner.job(job._id))?.status, { timeout: 10_000 }).toBe('complete');
      clearInterval(touch);
      expect((await engine.runner.job(job._id))?.variables).toMatchObject({ result: 'ABC' });
      expect(reads.records).toBeGreaterThan(1);
    } finally {
      await engine.close();
    }
  });

  it("ends a queued job's task with the job its run read, unless the job was written since", async () => {
    const { store: counted, reads } = countingReads(store);
    await counted.collection('workflows').insertOne(stepsWorkflow('one', 1));
    const engine = await new Engine({ store: counted, serverId: 's', serverName: 's', processTasksOnStart: false, worker: { idleMs: 5 } }).open();
    try {
      const jobs = [];
      for (const text of ['a', 'b', 'c']) jobs.push(await engine.runner.start('one', { variables: { text } }));
      // Each written after its task was claimed and before it ended: read again at the end.
      const written = await engine.runner.start('one', { variables: { text: 'd' } });
      const write = setInterval(() => void store.collection('jobs').updateOne({ _id: written._id }, { $set: { description: 'touched' } }), 0);
      reads.jobs = 0;
      await engine.startWorker();
      for (const job of [...jobs, written]) await expect.poll(async () => (await store.collection('jobs').findOne({ _id: job._id }))?.status, { timeout: 10_000 }).toBe('complete');
      clearInterval(write);
      const run = reads.jobs;
      const answered = await Promise.all([...jobs, written].map((job) => engine.runner.job(job._id)));
      expect(answered.map((job) => [job?.variables.result, job?.description])).toEqual([['A', ''], ['B', ''], ['C', ''], ['D', 'touched']]);
      // One read of each job by its task's run (not one more at its end); the written job's end may read it again.
      expect(run).toBeGreaterThanOrEqual(4);
      expect(run).toBeLessThanOrEqual(5);
    } finally {
      await engine.close();
    }
  });
});
