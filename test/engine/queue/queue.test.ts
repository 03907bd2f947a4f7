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
