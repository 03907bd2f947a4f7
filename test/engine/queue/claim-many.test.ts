// A worker's claim of the tasks it has room for, on both stores: on the embedded store up to n in one
// write, oldest first; on MongoDB one per call (n calls there would keep each claimed task waiting for
// the claims after it), each as the single claim gives it.
import { describe, expect, it } from 'vitest';
import { TaskQueue } from '../../../core/engine/queue/queue';
import { bothStores } from './both-stores';
import { queuedRecord } from './support';

const subjects = bothStores('claims of several tasks', 'claimmany');

describe.each(subjects)('claimMany on the $name', (subject) => {
  it('claims the oldest queued tasks that may run, up to n where one write takes them all, and then none', async () => {
    const { store, dispose } = await subject.open();
    try {
      const queue = new TaskQueue(store);
      const now = Date.now();
      await queue.tasks.insertMany([queuedRecord(3, now + 3), queuedRecord(1, now + 1), { ...queuedRecord(9, now), runAfter: now + 60_000 }, queuedRecord(2, now + 2)]);
      const perCall = store.kind === 'embedded' ? 8 : 1;
      const taken: string[] = [];
      for (let calls = 0; calls < 5; calls++) {
        const records = await queue.claimMany('site-a:w1', 1000, 8, now + 10);
        if (!records.length) break;
        expect(records.length).toBe(Math.min(perCall, 3 - taken.length));
        for (const r of records) expect(r).toMatchObject({ status: 'running', workerId: 'site-a:w1', attempt: 1, leaseUntil: now + 1010, metrics: { server_id: 'site-a' } });
        taken.push(...records.map((r) => r._id));
      }
      // job-9 may only run in a minute.
      expect(taken).toEqual(['job-1:t:0', 'job-2:t:0', 'job-3:t:0']);
      expect(await queue.tasks.count({ status: 'running', workerId: 'site-a:w1' })).toBe(3);
    } finally {
      await dispose();
    }
  });
});
