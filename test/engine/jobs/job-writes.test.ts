// The writes a job's document gets while it runs: the variables a task gives the job are
// written before the next task's record (which reads them), and the last task's with the
// job's completion, in one write: one round trip fewer per job on MongoDB. On the embedded
// store a job whose tasks all run in its start's write (in-write.ts) is written once, ended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Doc, Store } from '../../../core/store/port';
import { interceptCollections } from '../../store/support/intercept';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { stepsWorkflow } from '../../store/support/steps';
import { tempEmbeddedStore, workflow } from '../queue/support';

/** The store, keeping in order each update of a job document (its `$set` field names) and each task record inserted; and each job inserted, with its status. */
function recordingJobWrites(inner: Store) {
  const writes: string[][] = [];
  const order: string[] = [];
  const jobsInserted: string[] = [];
  const inserted = (docs: Doc[]) => {
    for (const doc of docs) order.push(`record ${String(doc.taskId)}`);
  };
  const store = interceptCollections(inner, (name, collection) => {
    if (name === 'jobs') {
      return {
        insertOne: (doc) => (jobsInserted.push(String(doc.status)), collection.insertOne(doc)),
        updateOne: (filter, update) => {
          const fields = Object.keys((update as { $set?: Record<string, unknown> }).$set ?? {}).sort();
          writes.push(fields);
          order.push(`job ${fields.join(' ')}`);
          return collection.updateOne(filter, update);
        },
      };
    }
    if (name !== 'tasks') return undefined;
    return {
      insertOne: (doc) => (inserted([doc]), collection.insertOne(doc)),
      insertMany: (docs) => (inserted(docs), collection.insertMany(docs)),
    };
  });
  return { store, writes, order, jobsInserted };
}

/** t1 upper-cases the job's `text` into the job's `middle`; t2 reads `middle` and lower-cases it into `result`. */
const handOnThroughTheJob = workflow(
  'through-the-job',
  {
    t1: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.middle' } } },
    t2: { name: 'toLowerCase', variables: { incoming: { str: '$var.job.middle' }, outgoing: { lowercaseString: '$var.job.result' } } },
  },
  [
    ['workflow_start', 't1'],
    ['t1', 't2'],
    ['t2', 'workflow_end'],
  ],
);

/**
 * Runs one job of `tasks` steps (the last writes `result` to the job), or of `through-the-job`; answers the job and its writes.
 * `byWorker`: the library's tasks through a method runner of the test's, so the worker runs each (none in the start's write).
 */
async function runJob(inner: Store, tasks: number | 'through-the-job', text = 'abc', byWorker = false) {
  const { store, writes, order, jobsInserted } = recordingJobWrites(inner);
  const name = tasks === 'through-the-job' ? tasks : `steps-${tasks}`;
  if (!(await store.collection('workflows').findOne({ name }))) await store.collection('workflows').insertOne(tasks === 'through-the-job' ? handOnThroughTheJob : stepsWorkflow(name, tasks));
  const engine = new Engine({ store, serverId: 's', serverName: 's', processTasksOnStart: true, worker: { idleMs: 5 }, ...(byWorker ? { runMethod: methodRunner(() => undefined) } : {}) });
  await engine.open();
  try {
    const started = await engine.runner.start(name, { variables: { text } });
    await expect.poll(async () => (await engine.runner.job(started._id))?.status, { timeout: 15_000 }).toBe('complete');
    return { job: (await engine.runner.job(started._id))!, records: await engine.runner.records(started._id), writes, order, jobsInserted };
  } finally {
    await engine.close();
  }
}

function expectOneWriteAtTheEnd({ job, writes, records }: Awaited<ReturnType<typeof runJob>>) {
  expect(job.variables).toMatchObject({ text: 'abc', result: 'ABC' });
  expect(job.metrics.end_time).toBeGreaterThanOrEqual(job.metrics.start_time);
  // The job's only write after its start: complete, with the variable its last task wrote.
  expect(writes).toEqual([['last_updated', 'metrics.end_time', 'reachedEnd', 'status', 'variables.result']]);
  // workflow_start's and workflow_end's records are the job document's: none is written to the tasks collection.
  expect(records.map((r) => r.taskId)).toEqual(['workflow_start', ...records.slice(1, -1).map((r) => r.taskId), 'workflow_end']);
  expect(records.at(-1)!.from).toEqual([records.at(-2)!._id]);
}

/** t1's variable is written before t2's record is (t2 reads it from the job); t2's with the job's completion. */
function expectMiddleThenEnd({ job, writes, order }: Awaited<ReturnType<typeof runJob>>) {
  expect(job.variables).toMatchObject({ text: 'aBc', middle: 'ABC', result: 'abc' });
  expect(writes).toEqual([
    ['last_updated', 'variables.middle'],
    ['last_updated', 'metrics.end_time', 'reachedEnd', 'status', 'variables.result'],
  ]);
  expect(order).toEqual([
    'record t1',
    'job last_updated variables.middle',
    'record t2',
    'job last_updated metrics.end_time reachedEnd status variables.result',
  ]);
}

describe('a job document is written once when its last task ends', () => {
  it('embedded store: the last task\'s variables and the job complete are one write; a task before it writes its own first', async () => {
    const temp = await tempEmbeddedStore();
    try {
      for (const run of [await runJob(temp.store, 1, 'abc', true), await runJob(temp.store, 3, 'abc', true)]) {
        expectOneWriteAtTheEnd(run);
        // Written after its first advance, in the start's write: running then.
        expect(run.jobsInserted).toEqual(['running']);
      }
      expectMiddleThenEnd(await runJob(temp.store, 'through-the-job', 'aBc', true));
    } finally {
      await temp.dispose();
    }
  });

  it('embedded store: a job whose tasks all run in its start\'s write is written once, complete with every variable, after its records', async () => {
    const temp = await tempEmbeddedStore();
    try {
      for (const tasks of [1, 3] as const) {
        const run = await runJob(temp.store, tasks);
        expect(run.job.variables).toMatchObject({ text: 'abc', result: 'ABC' });
        expect(run.job.metrics.end_time).toBeGreaterThanOrEqual(run.job.metrics.start_time);
        expect([run.writes, run.jobsInserted]).toEqual([[], ['complete']]);
        expect(run.records.map((r) => [r.taskId, r.status])).toEqual([['workflow_start', 'complete'], ...run.records.slice(1, -1).map((r) => [r.taskId, 'complete']), ['workflow_end', 'complete']]);
      }
      const through = await runJob(temp.store, 'through-the-job', 'aBc');
      expect(through.job.variables).toMatchObject({ text: 'aBc', middle: 'ABC', result: 'abc' });
      expect([through.order, through.jobsInserted]).toEqual([['record t1', 'record t2'], ['complete']]);
    } finally {
      await temp.dispose();
    }
  });

  const found = jongodbBinary();
  if ('unavailable' in found) console.warn(`[job writes over the wire] skipped: ${found.unavailable}`);
  describe.skipIf('unavailable' in found)('over the wire (jongodb)', () => {
    let mongo: TestMongo;
    beforeAll(async () => {
      mongo = await startJongodb();
    });
    afterAll(() => mongo?.stop());

    it('MongoDB adapter: the same one write, so a one-task job makes one round trip fewer', async () => {
      const store = openMongoStore({ url: mongo.url, db: 'job_writes' });
      try {
        expectOneWriteAtTheEnd(await runJob(store, 1));
        expectOneWriteAtTheEnd(await runJob(store, 3));
        expectMiddleThenEnd(await runJob(store, 'through-the-job', 'aBc'));
      } finally {
        await store.close();
      }
    });
  });
});
