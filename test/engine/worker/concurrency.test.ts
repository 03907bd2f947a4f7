// A worker keeps at most `concurrency` tasks in hand, counting the next task of a job that
// eager dispatch hands to it: without that count, each ending task both handed off its job's
// next task and freed a slot the claim loop filled, and the tasks in flight grew to one per job.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';
import { linearStrings, tempEmbeddedStore, waitFor } from '../queue/support';
import { slowUpperCase } from './slow-tasks';

/** Runs `jobs` jobs of 4 tasks on one worker; answers the most tasks that ran at once. */
async function mostAtOnce(concurrency: number | undefined, jobs: number, claims: { asked: number; got: number }[] = []) {
  const temp = await tempEmbeddedStore();
  let now = 0;
  let most = 0;
  const slow = slowUpperCase(3);
  const counting: TaskMethodRunner = async (task, incoming, options) => {
    most = Math.max(most, ++now);
    try {
      return await slow(task, incoming, options);
    } finally {
      now--;
    }
  };
  const engine = new Engine({ store: temp.store, serverId: 'one', serverName: 'one', processTasksOnStart: false, runMethod: counting, worker: { ...(concurrency ? { concurrency } : {}), idleMs: 10 } });
  try {
    await temp.store.collection('workflows').insertOne(linearStrings('four', 4));
    for (let i = 0; i < jobs; i++) await engine.runner.start('four', { variables: { text: `job ${i}` } });
    const claimMany = engine.runner.queue.claimMany.bind(engine.runner.queue);
    engine.runner.queue.claimMany = async (workerId, leaseMs, n) => {
      const got = await claimMany(workerId, leaseMs, n);
      claims.push({ asked: n, got: got.length });
      return got;
    };
    await (await engine.open()).startWorker();
    await waitFor('every job to end', async () => (await temp.store.collection('jobs').count({ status: 'running' })) === 0, 60_000);
    expect(await temp.store.collection('jobs').count({ status: 'complete' })).toBe(jobs);
    return most;
  } finally {
    await engine.close();
    await temp.dispose();
  }
}

describe('a worker keeps its tasks in hand within its concurrency', () => {
  it('with 3 slots and 20 jobs of 4 tasks, never more than 3 tasks run at once, and every job completes', async () => {
    expect(await mostAtOnce(3, 20)).toBe(3);
  });

  it('by default, built-in tasks run 8 at once (adapter calls in flight may take the other slots)', async () => {
    expect(await mostAtOnce(undefined, 20)).toBe(8);
  });

  it('claims the tasks queued before it started as many at once as it has room for (at most 8)', async () => {
    const three: { asked: number; got: number }[] = [];
    expect(await mostAtOnce(3, 10, three)).toBe(3);
    expect(three[0]).toEqual({ asked: 3, got: 3 });
    const byDefault: { asked: number; got: number }[] = [];
    expect(await mostAtOnce(undefined, 20, byDefault)).toBe(8);
    expect(byDefault[0]).toEqual({ asked: 8, got: 8 });
    for (const claim of [...three, ...byDefault]) expect(claim.got).toBeLessThanOrEqual(claim.asked);
  });

  it('with 1 slot, jobs still run one task after another to complete', async () => {
    expect(await mostAtOnce(1, 5)).toBe(1);
  });
});
