// The task queue on the embedded store: atomic claims in queue order, leases,
// the sweeper, and fencing by worker id and attempt.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskQueue, type TaskRecord } from '../../../core/engine/queue/queue';
import { queuedRecord, tempEmbeddedStore, type TempStore } from './support';

let temp: TempStore;
let queue: TaskQueue;
beforeEach(async () => {
  temp = await tempEmbeddedStore();
  queue = new TaskQueue(temp.store);
});
afterEach(() => temp.dispose());

const claimOf = (r: TaskRecord) => ({ _id: r._id, workerId: r.workerId!, attempt: r.attempt });

describe('task queue', () => {
  it('claims the oldest queued task that may run, once, with a lease and the next attempt', async () => {
    const now = Date.now();
    await queue.tasks.insertMany([queuedRecord(2, now), queuedRecord(1, now), { ...queuedRecord(3, now), runAfter: now + 60_000 }]);
    const first = await queue.claim('w1', 1000, now);
    expect(first).toMatchObject({ _id: 'job-1:t:0', status: 'running', workerId: 'w1', attempt: 1, leaseUntil: now + 1000 });
    const second = await queue.claim('w2', 1000, now);
    expect(second?._id).toBe('job-2:t:0');
    // job-3 may only run in a minute.
    expect(await queue.claim('w1', 1000, now)).toBeNull();
  });

  it('claims up to n of the oldest queued tasks that may run at once, each with its lease and next attempt', async () => {
    const now = Date.now();
    await queue.tasks.insertMany([queuedRecord(3, now + 3), queuedRecord(1, now + 1), { ...queuedRecord(9, now), runAfter: now + 60_000 }, queuedRecord(2, now + 2)]);
    const taken = await queue.claimMany('site-a:w1', 1000, 2, now + 10);
    expect(taken.map((r) => r._id)).toEqual(['job-1:t:0', 'job-2:t:0']);
    for (const r of taken) {
      expect(r).toMatchObject({ status: 'running', workerId: 'site-a:w1', attempt: 1, leaseUntil: now + 1010, metrics: { claimed_at: now + 10, start_time: now + 10, server_id: 'site-a' } });
    }
    // The rest, and no more: job-9 may only run in a minute.
    expect((await queue.claimMany('site-b:w1', 1000, 8, now + 10)).map((r) => [r._id, r.workerId])).toEqual([['job-3:t:0', 'site-b:w1']]);
    expect(await queue.claimMany('site-b:w1', 1000, 8, now + 10)).toEqual([]);
    // What a claim answers is what the store holds.
    expect(await queue.tasks.findOne({ _id: 'job-2:t:0' })).toEqual(taken[1]);
  });

  it('a worker whose lease expired and was swept can neither renew nor complete; the new holder can', async () => {
    const now = Date.now();
    await queue.tasks.insertOne(queuedRecord(1, now));
    const a = (await queue.claim('worker-a', 100, now))!;
    expect(await queue.renew(claimOf(a), 100, now + 50)).toBe(true);
    // worker-a stops renewing (paused, partitioned, dead): its lease runs out.
    expect(await queue.sweep(now + 1000)).toBe(1);
    const b = (await queue.claim('worker-b', 100, now + 1000))!;
    expect(b).toMatchObject({ _id: a._id, workerId: 'worker-b', attempt: 2 });

    expect(await queue.renew(claimOf(a), 100, now + 1001)).toBe(false);
    expect(await queue.complete(claimOf(a), { status: 'complete', outgoing: { by: 'a' } })).toBe(false);
    expect(await queue.complete(claimOf(b), { status: 'complete', outgoing: { by: 'b' } })).toBe(true);
    // Completing twice is refused too: the record is no longer running.
    expect(await queue.complete(claimOf(b), { status: 'complete', outgoing: { by: 'b again' } })).toBe(false);
    expect(await queue.tasks.findOne({ _id: a._id })).toMatchObject({ status: 'complete', outgoing: { by: 'b' } });
  });

  it('the sweeper leaves tasks whose lease is still running', async () => {
    const now = Date.now();
    await queue.tasks.insertOne(queuedRecord(1, now));
    await queue.claim('w1', 10_000, now);
    expect(await queue.sweep(now + 5_000)).toBe(0);
    expect(await queue.tasks.findOne({ _id: 'job-1:t:0' })).toMatchObject({ status: 'running', workerId: 'w1' });
  });

  it('a stopping worker hands its task back, keeping its place in the queue', async () => {
    const now = Date.now();
    await queue.tasks.insertMany([queuedRecord(1, now), queuedRecord(2, now)]);
    const a = (await queue.claim('w1', 10_000, now))!;
    expect(await queue.release(claimOf(a), now)).toBe(true);
    const again = (await queue.claim('w2', 10_000, now))!;
    expect(again).toMatchObject({ _id: a._id, workerId: 'w2', attempt: 2 });
  });
});
