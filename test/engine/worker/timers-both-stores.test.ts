// Durable timers on both stores: a delay's record waits in the queue with its due time and the
// outcome it ends with, a worker claims it only then, and the job completes with the delay's
// outgoing value; a manual task and a childJob task waiting on its child hold no slot either.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { TaskQueue } from '../../../core/engine/queue/queue';
import { bothStores } from '../queue/both-stores';
import { waitFor, workflow } from '../queue/support';

const subjects = bothStores('durable timers', 'timers');

const one = (name: string, task: Parameters<typeof workflow>[1][string]) => workflow(name, { t: task }, [['workflow_start', 't'], ['t', 'workflow_end']]);

describe.each(subjects)('durable timers on the $name', (subject) => {
  it('a delay waits in the queue, holding no slot, and ends at its due time with its outgoing value', async () => {
    const { store, dispose } = await subject.open();
    const engine = new Engine({ store, serverId: 'both', serverName: 'both', processTasksOnStart: true, worker: { idleMs: 50, concurrency: 1 } });
    try {
      await store.collection('workflows').insertMany([
        one('wait', { name: 'delay', variables: { incoming: { time: 0.5 }, outgoing: { time_in_milliseconds: '$var.job.waited' } } }),
        one('ask', { name: 'ViewData', type: 'manual', variables: { incoming: { header: 'h', message: 'm', body: 'b', btn_success: 'OK', btn_failure: 'No' }, outgoing: {} } }),
        one('parent', { name: 'childJob', variables: { incoming: { task: '', workflow: 'long wait', variables: {} }, outgoing: {} } }),
        one('long wait', { name: 'delay', variables: { incoming: { time: 300 }, outgoing: {} } }),
        one('upper', { name: 'toUpperCase', variables: { incoming: { str: 'go' }, outgoing: { uppercaseString: '$var.job.result' } } }),
      ]);
      await engine.open();
      const queue = new TaskQueue(store);
      const asked = (await engine.runner.start('ask'))._id;
      const parent = (await engine.runner.start('parent'))._id;
      const waited = (await engine.runner.start('wait'))._id;
      const jobs = store.collection('jobs');
      const tasks = store.collection('tasks');
      await waitFor('the delay to wait on its timer', async () => (await tasks.findOne({ jobId: waited, taskId: 't' }))?.timer);
      const armed = (await tasks.findOne({ jobId: waited, taskId: 't' }))!;
      const due = (armed.timer as { due: number }).due;
      expect(armed).toMatchObject({ status: 'queued', runAfter: due, timer: { outcome: { state: 'success', outgoing: { time_in_milliseconds: 500 } } } });
      expect(await queue.nextDue(Date.now())).toBeLessThanOrEqual(due);
      await waitFor('the child to wait on its timer', async () => (await jobs.findOne({ 'parent.job': parent }))?._id && (await tasks.count({ taskId: 't', status: 'queued', timer: { $exists: true } })) === 2);
      // One slot: a manual task, a childJob waiting on its child, and two timers leave it free.
      const quick = (await engine.runner.start('upper'))._id;
      await waitFor('the one-task job to complete', async () => (await jobs.findOne({ _id: quick }))?.status === 'complete', 10_000);
      await waitFor('the delay job to complete', async () => (await jobs.findOne({ _id: waited }))?.status === 'complete', 10_000);
      const ended = (await tasks.findOne({ jobId: waited, taskId: 't' }))!;
      expect((ended.metrics as { end_time: number }).end_time).toBeGreaterThanOrEqual(due);
      expect(ended.timer).toBeUndefined();
      expect((await jobs.findOne({ _id: waited }))?.variables).toMatchObject({ waited: 500 });
      expect(await tasks.findOne({ jobId: asked, taskId: 't' })).toMatchObject({ status: 'waiting' });
      expect(await tasks.findOne({ jobId: parent, taskId: 't' })).toMatchObject({ status: 'waiting' });
      expect(engine.worker.busy).toBe(0);
    } finally {
      await engine.close();
      await dispose();
    }
  });
});
