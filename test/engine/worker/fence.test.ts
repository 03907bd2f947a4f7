// Declaring a failed server gone: refused while its heartbeat goes on; once it stopped, the tasks
// its workers held are queued again at once, and its late write of one of them matches nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fenceServer } from '../../../core/engine/worker/fence';
import { TaskQueue } from '../../../core/engine/queue/queue';
import { requeueTasksOf } from '../../../core/engine/worker/recover';
import { tempEmbeddedStore, type TempStore } from '../queue/support';

let temp: TempStore;
beforeEach(async () => {
  temp = await tempEmbeddedStore();
});
afterEach(() => temp.dispose());

describe('declaring a server gone', () => {
  it('re-queues its running tasks once its heartbeat stopped, fenced against its late writes', async () => {
    const queue = new TaskQueue(temp.store);
    const beats = temp.store.collection('wfe_workers');
    const now = Date.now();
    await queue.tasks.insertOne({ _id: 't1', jobId: 'j1', taskId: 'a', iteration: 0, name: 'x', app: 'A', type: 'automatic', status: 'queued', queuedAt: now, runAfter: 0, attempt: 0, metrics: {} });
    const claimed = await queue.claim('site-a:w1', 30_000, now);
    expect(claimed?.status).toBe('running');
    const deps = { beats, requeue: (serverId: string, at: number) => requeueTasksOf(queue.tasks, serverId, '', at), selfId: 'site-b', intervalMs: 5000 };

    await beats.insertOne({ _id: 'site-a', heartbeatAt: now - 1000 });
    await expect(fenceServer(deps, 'site-a', now)).rejects.toThrow(/heartbeat has not stopped/);
    await expect(fenceServer(deps, 'site-b', now)).rejects.toThrow(/is this server/);

    const answer = await fenceServer(deps, 'site-a', now + 10_000);
    expect(answer).toEqual({ serverId: 'site-a', heartbeatAt: now - 1000, requeued: 1 });
    expect((await queue.tasks.findOne({ _id: 't1' }))?.status).toBe('queued');
    // The gone server's worker, only cut off, cannot complete its old attempt.
    expect(await queue.complete({ _id: 't1', workerId: 'site-a:w1', attempt: 1 }, { status: 'complete' })).toBe(false);
  });
});
