// Two servers working one queue: every task ends exactly once (fencing), on the
// embedded store (two workers in one process share it) and over the wire on the
// MongoDB-compatible test server (two connections, as two hosts would have).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Store } from '../../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { linearStrings, tempEmbeddedStore, waitFor } from '../queue/support';
import { slowUpperCase } from './slow-tasks';

const JOBS = 30;
const TASKS = 4;

/** Counts, per task record, the completions the store accepted. */
function countCompletions(engine: Engine, counts: Map<string, number>) {
  const queue = engine.runner.queue;
  const complete = queue.complete.bind(queue);
  queue.complete = async (claim, fields) => {
    const accepted = await complete(claim, fields);
    if (accepted) counts.set(claim._id, (counts.get(claim._id) ?? 0) + 1);
    return accepted;
  };
}

async function twoServers(storeA: Store, storeB: Store) {
  await storeA.collection('workflows').insertOne(linearStrings('four', TASKS));
  const counts = new Map<string, number>();
  const engines = [storeA, storeB].map(
    (store, i) =>
      new Engine({
        store,
        serverId: `server-${i}`,
        serverName: `server ${i}`,
        processTasksOnStart: false,
        runMethod: slowUpperCase(5),
        worker: { concurrency: 4, idleMs: 10, leaseMs: 5_000 },
      }),
  );
  for (const engine of engines) countCompletions(engine, counts);
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) ids.push((await engines[i % 2]!.runner.start('four', { variables: { text: `job ${i}` } }))._id);
  for (const engine of engines) await (await engine.open()).startWorker();
  try {
    await waitFor('every job to end', async () => (await storeA.collection('jobs').count({ status: 'running' })) === 0, 60_000);
  } finally {
    for (const engine of engines) await engine.close();
  }
  const jobs = await storeA.collection('jobs').find({});
  return { ids, jobs, counts, records: await storeA.collection('tasks').find({ taskId: { $nin: ['workflow_start', 'workflow_end'] } }) };
}

function expectExactlyOnce(result: Awaited<ReturnType<typeof twoServers>>) {
  expect(result.jobs.map((j) => j.status)).toEqual(Array(JOBS).fill('complete'));
  for (const job of result.jobs) expect((job.variables as { result: string }).result).toBe(String((job.variables as { text: string }).text).toUpperCase());
  expect(result.records).toHaveLength(JOBS * TASKS);
  for (const record of result.records) expect(result.counts.get(String(record._id)), String(record._id)).toBe(1);
  // Both servers worked (the queue was shared, not drained by one).
  const workers = new Set(result.records.map((r) => String(r.workerId).split(':')[0]));
  expect(workers).toEqual(new Set(['server-0', 'server-1']));
}

describe('two workers on one store', () => {
  it('embedded store: every task completes exactly once', async () => {
    const temp = await tempEmbeddedStore();
    try {
      expectExactlyOnce(await twoServers(temp.store, temp.store));
    } finally {
      await temp.dispose();
    }
  });

  const found = jongodbBinary();
  if ('unavailable' in found) console.warn(`[two workers over the wire] skipped: ${found.unavailable}`);
  describe.skipIf('unavailable' in found)('over the wire (jongodb)', () => {
    let mongo: TestMongo;
    beforeAll(async () => {
      mongo = await startJongodb();
    });
    afterAll(() => mongo?.stop());

    it('two connections (two hosts): every task completes exactly once', async () => {
      const a = openMongoStore({ url: mongo.url, db: 'two_workers' });
      const b = openMongoStore({ url: mongo.url, db: 'two_workers' });
      try {
        expectExactlyOnce(await twoServers(a, b));
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});
