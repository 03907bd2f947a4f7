// Durable timers (core/engine/jobs/timers.ts): a task that waits (delay, stub's delay, MOP's
// reattempt, a retrySettings delay) holds no worker slot; its record is queued for its due time
// and ends then as the task said it would. The due time is the store's: a host closed without a
// graceful stop (as kill -9 leaves it) and opened again on the same data ends the wait at its
// original due time, not a full wait later.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import type { Store } from '../../../core/store/port';
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';
import { methodRunner } from '../../../core/engine/jobs/execute';
import { jobView } from '../../../core/engine/jobs/view';
import { tempEmbeddedStore, waitFor, workflow, type TempStore } from '../queue/support';

const one = (name: string, task: Parameters<typeof workflow>[1][string]) => workflow(name, { t: task }, [['workflow_start', 't'], ['t', 'workflow_end']]);
const delay = (seconds: number) => one(`delay-${seconds}`, { name: 'delay', variables: { incoming: { time: seconds }, outgoing: { time_in_milliseconds: '$var.job.waited' } } });
const upper = one('upper', { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } });

let temp: TempStore | undefined;
const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await temp?.dispose();
  temp = undefined;
});

function engineOn(store: Store, options: { concurrency?: number; runMethod?: TaskMethodRunner } = {}) {
  const engine = new Engine({
    store,
    serverId: 'timers',
    serverName: 'timers',
    processTasksOnStart: true,
    runMethod: options.runMethod,
    worker: { idleMs: 50, leaseMs: 2_000, ...(options.concurrency ? { concurrency: options.concurrency } : {}) },
  });
  engines.push(engine);
  return engine;
}

const jobOf = (store: Store, id: string) => store.collection('jobs').findOne({ _id: id });
const taskOf = async (store: Store, jobId: string, taskId = 't') => (await store.collection('tasks').find({ jobId, taskId }, { sort: { iteration: -1 }, limit: 1 }))[0];

describe('a task waiting on a timer holds no worker slot', () => {
  it('40 jobs waiting on 300 s delays leave room: 5 one-task jobs started after them all complete', async () => {
    temp = await tempEmbeddedStore();
    await temp.store.collection('workflows').insertMany([delay(300), upper]);
    // Fewer slots than waiting jobs: with a slot held per wait, none of the one-task jobs could run.
    const engine = await engineOn(temp.store, { concurrency: 4 }).open();
    const waiting: string[] = [];
    for (let i = 0; i < 40; i++) waiting.push((await engine.runner.start('delay-300'))._id);
    await waitFor('the 40 delays to be waiting on their timers', async () => (await temp!.store.collection('tasks').count({ taskId: 't', status: 'queued', timer: { $exists: true } })) === 40);
    expect(engine.worker.busy).toBe(0);
    const quick: string[] = [];
    for (let i = 0; i < 5; i++) quick.push((await engine.runner.start('upper', { variables: { text: `job ${i}` } }))._id);
    // A generous deadline on the outcome (a shared machine), not a timing of it.
    await waitFor('the 5 one-task jobs to complete', async () => (await Promise.all(quick.map((id) => jobOf(temp!.store, id)))).every((j) => j?.status === 'complete'), 15_000);
    for (const [i, id] of quick.entries()) expect((await jobOf(temp.store, id))?.variables).toMatchObject({ result: `JOB ${i}` });
    // The delays still wait, each until its own due time, shown on the job page as "waiting until".
    const record = await taskOf(temp.store, waiting[0]!);
    expect(record?.status).toBe('queued');
    const view = jobView((await jobOf(temp.store, waiting[0]!)) as never, [record as never], []);
    expect(view.taskRuns[0]).toMatchObject({ status: 'queued', waitingUntil: (record?.timer as { due: number }).due });
    // Queued as of its due time in the store (the claim reads the tasks due now first); shown as first queued.
    expect(record?.queuedAt).toBe((record?.timer as { due: number }).due);
    expect(view.taskRuns[0]?.queuedAt).toBeLessThan(Date.now());
    expect((record?.timer as { due: number }).due).toBeGreaterThan(Date.now() + 250_000);
    expect((await jobOf(temp.store, waiting[0]!))?.status).toBe('running');
  });

  it('a delay ends as it would have: after its time, with time_in_milliseconds, keeping its start time', async () => {
    temp = await tempEmbeddedStore();
    await temp.store.collection('workflows').insertOne(delay(0.4));
    const engine = await engineOn(temp.store, { concurrency: 1 }).open();
    const started = Date.now();
    const { _id } = await engine.runner.start('delay-0.4');
    await waitFor('the delay job to complete', async () => (await jobOf(temp!.store, _id))?.status === 'complete', 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect((await jobOf(temp.store, _id))?.variables).toMatchObject({ waited: 400 });
    const record = await taskOf(temp.store, _id);
    expect(record).toMatchObject({ status: 'complete', finishState: 'success', outgoing: { time_in_milliseconds: 400 } });
    expect(record?.timer).toBeUndefined();
    const metrics = record?.metrics as { start_time: number; end_time: number };
    expect(metrics.end_time - metrics.start_time).toBeGreaterThanOrEqual(400);
    expect(record?.queuedAt).toBeLessThanOrEqual(metrics.start_time);
  });

  it("stub's delay and MOP's reattempt wait without a slot and end with their response", async () => {
    temp = await tempEmbeddedStore();
    const stub = one('stub', { name: 'stub', variables: { incoming: { type: 'error', delay: 0.3, response: 'device down' }, outgoing: { response: null } } });
    // reattempt loops back to a task twice (0.005 minutes = 0.3 s apart), then ends in error: the error transition ends the job.
    const reattempt = workflow(
      'poll',
      {
        check: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: {} } },
        again: { name: 'reattempt', app: 'MOP', variables: { incoming: { job_id: '', attemptID: 'check', minutes: 0.005, attempts: 2 }, outgoing: { response: '$var.job.said' } } },
        gaveUp: { name: 'newVariable', variables: { incoming: { name: 'gaveUp', value: true }, outgoing: {} } },
      },
      [['workflow_start', 'check'], ['check', 'again'], ['again', 'check', 'success'], ['again', 'gaveUp', 'error'], ['gaveUp', 'workflow_end']],
    );
    await temp.store.collection('workflows').insertMany([stub, reattempt, upper]);
    const engine = await engineOn(temp.store, { concurrency: 1, runMethod: methodRunner(() => undefined) }).open();
    const stubJob = (await engine.runner.start('stub'))._id;
    const pollJob = (await engine.runner.start('poll'))._id;
    await waitFor('the stub to wait on its timer', async () => (await taskOf(temp!.store, stubJob))?.timer);
    // One slot, and the stub and a reattempt waiting: a one-task job still runs.
    const quick = (await engine.runner.start('upper', { variables: { text: 'go' } }))._id;
    await waitFor('the one-task job to complete', async () => (await jobOf(temp!.store, quick))?.status === 'complete', 10_000);
    await waitFor('the stub job to end', async () => (await jobOf(temp!.store, stubJob))?.status === 'error', 10_000);
    expect(await taskOf(temp.store, stubJob)).toMatchObject({ status: 'error', finishState: 'error', error: 'device down', outgoing: { response: 'device down' } });
    await waitFor('the polling job to give up', async () => (await jobOf(temp!.store, pollJob))?.status === 'complete', 10_000);
    const job = await jobOf(temp.store, pollJob);
    expect(job?.variables).toMatchObject({ gaveUp: true, said: 'check was attempted again 2 times: no attempt left' });
    const runs = await temp.store.collection('tasks').find({ jobId: pollJob, taskId: 'again' }, { sort: { iteration: 1 } });
    expect(runs.map((r) => r.finishState)).toEqual(['success', 'success', 'error']);
    expect(runs[1]?.outgoing).toEqual({ response: 'reattempting check (2 of 2)' });
    // Each reattempt waited its 0.3 s on a timer.
    for (const run of runs.slice(0, 2)) {
      const { start_time, end_time } = run.metrics as { start_time: number; end_time: number };
      expect(end_time - start_time).toBeGreaterThanOrEqual(300);
    }
    expect(runs[2]?.error).toBe('check was attempted again 2 times: no attempt left');
  });

  it("retrySettings' delay holds no slot either: the retried task waits in the queue", async () => {
    temp = await tempEmbeddedStore();
    let calls = 0;
    const flaky: TaskMethodRunner = async (task, incoming, options) => {
      if (task.name === 'flaky') return ++calls < 2 ? { state: 'error', outgoing: {}, error: 'not yet' } : { state: 'success', outgoing: { done: true } };
      return methodRunner(() => undefined)(task, incoming, options);
    };
    const retried = one('retried', { name: 'flaky', app: 'Device', retrySettings: { autoRetry: true, limit: 2, delay: 60_000 } } as never);
    await temp.store.collection('workflows').insertMany([retried, upper]);
    const engine = await engineOn(temp.store, { concurrency: 1, runMethod: flaky }).open();
    const { _id } = await engine.runner.start('retried');
    await waitFor('the retry to wait', async () => (await taskOf(temp!.store, _id))?.autoRetries === 1);
    const record = await taskOf(temp.store, _id);
    expect(record?.status).toBe('queued');
    const view = jobView((await jobOf(temp.store, _id)) as never, [record as never], []);
    expect(view.taskRuns[0]?.waitingUntil).toBe(record?.runAfter);
    const quick = (await engine.runner.start('upper', { variables: { text: 'go' } }))._id;
    await waitFor('the one-task job to complete', async () => (await jobOf(temp!.store, quick))?.status === 'complete', 10_000);
    expect(engine.worker.busy).toBe(0);
  });
});

describe('operator actions on a job waiting on a timer', () => {
  it('a pause and resume during the wait keep the due time; a cancel stops the wait for good', async () => {
    temp = await tempEmbeddedStore();
    await temp.store.collection('workflows').insertOne(delay(1));
    const engine = await engineOn(temp.store).open();
    const paused = (await engine.runner.start('delay-1'))._id;
    const canceled = (await engine.runner.start('delay-1'))._id;
    const armed = await waitFor('the delay to wait on its timer', async () => (await taskOf(temp!.store, paused))?.timer as { due: number } | undefined);
    await waitFor('the other delay to wait', async () => (await taskOf(temp!.store, canceled))?.timer);
    await engine.runner.pause(paused);
    await engine.runner.cancel(canceled);
    // Resumed at once: its task is queued to run now, and is queued again for its due time when claimed.
    await engine.runner.resume(paused);
    await waitFor('the resumed job to complete', async () => (await jobOf(temp!.store, paused))?.status === 'complete', 10_000);
    const end = ((await taskOf(temp.store, paused))?.metrics as { end_time: number }).end_time;
    expect(end).toBeGreaterThanOrEqual(armed.due);
    await new Promise((r) => setTimeout(r, 300));
    expect(await jobOf(temp.store, canceled)).toMatchObject({ status: 'canceled' });
    expect(await taskOf(temp.store, canceled)).toMatchObject({ status: 'canceled' });
  });
});

describe('a timer survives its host', () => {
  it('a delay whose host was killed (kill -9) ends at its original due time, not a full wait later', async () => {
    temp = await tempEmbeddedStore();
    const dir = temp.dir;
    await temp.store.close();
    // The doomed host is another process on the same data: it starts a 3 s delay, then is killed 1 s into it.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'timer-worker.ts'), dir, '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    try {
      const [, id, startedText] = await waitFor(`the doomed host to start its delay (${output})`, async () => /waiting (\S+) (\d+)/.exec(output) ?? undefined);
      const started = Number(startedText);
      await new Promise((r) => setTimeout(r, 1_000));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const store = await openEmbeddedStore(dir);
      temp.store = store;
      const armed = (await taskOf(store, id!))?.timer as { due: number };
      expect(armed.due).toBeGreaterThanOrEqual(started + 3_000);
      expect(armed.due).toBeLessThan(started + 4_000);
      await engineOn(store).open();
      await waitFor('the delay job to complete', async () => (await jobOf(store, id!))?.status === 'complete', 10_000);
      const record = await taskOf(store, id!);
      const { start_time, end_time } = record?.metrics as { start_time: number; end_time: number };
      // Ended at its due time (a poll later at most), not 3 s after the new host opened.
      expect(end_time).toBeGreaterThanOrEqual(armed.due);
      expect(end_time - armed.due).toBeLessThan(1_500);
      expect(start_time).toBeLessThan(started + 1_000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  it('a graceful stop and start keeps the due time too', async () => {
    temp = await tempEmbeddedStore();
    await temp.store.collection('workflows').insertOne(delay(1.5));
    const engine = await engineOn(temp.store).open();
    const { _id } = await engine.runner.start('delay-1.5');
    const armed = await waitFor('the delay to wait on its timer', async () => (await taskOf(temp!.store, _id))?.timer as { due: number } | undefined);
    await engine.stopWorker();
    await new Promise((r) => setTimeout(r, 500));
    await engine.startWorker();
    await waitFor('the delay job to complete', async () => (await jobOf(temp!.store, _id))?.status === 'complete', 10_000);
    const end = ((await taskOf(temp.store, _id))?.metrics as { end_time: number }).end_time;
    expect(end).toBeGreaterThanOrEqual(armed.due);
    expect(end - armed.due).toBeLessThan(1_500);
  });
});
