// Built-in tasks run in the write that queues them (core/engine/jobs/in-write.ts), the job then
// written once. The oracle is the worker: the same workflows on an engine whose worker runs every
// task (a method runner of the caller's, here the console's own library, turns running in the write
// off) end with the same job and the same task records, field for field but ids and times.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import type { JobDoc } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import { stepsWorkflow } from '../../store/support/steps';
import { waitFor } from '../queue/support';
import { closeEnginesAfterEach, endedJob, evaluation, open, wf } from './in-write-support';

closeEnginesAfterEach();

const WORKFLOWS = [
  stepsWorkflow('steps', 3),
  // Job variables by name (newVariable, push), a task's output read by a later task, a query.
  wf(
    'variables',
    {
      name: { name: 'newVariable', variables: { incoming: { name: 'greeting', value: 'hello' }, outgoing: { value: null } } },
      push: { name: 'push', variables: { incoming: { job_variable: 'seen', item: '$var.job.greeting' }, outgoing: {} } },
      upper: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.greeting' }, outgoing: { uppercaseString: '$var.job.loud' } } },
      count: { name: 'stringLength', variables: { incoming: { str: '$var.upper.uppercaseString' }, outgoing: { length: '$var.job.size' } } },
      pick: { name: 'query', variables: { incoming: { pass_on_null: false, query: 'a.b', obj: { a: { b: [1, 2] } } }, outgoing: { return_data: '$var.job.picked' } } },
    },
    [['workflow_start', 'name'], ['name', 'push'], ['push', 'upper'], ['upper', 'count'], ['count', 'pick'], ['pick', 'workflow_end']],
  ),
  // A task in error takes its error transition, its error written to a job variable.
  wf(
    'error-path',
    {
      bad: { name: 'toUpperCase', variables: { incoming: { str: 42 }, outgoing: { uppercaseString: null }, error: '$var.job.why' } },
      after: { name: 'toLowerCase', variables: { incoming: { str: 'RECOVERED' }, outgoing: { lowercaseString: '$var.job.note' } } },
    },
    [['workflow_start', 'bad'], ['bad', 'after', 'error'], ['after', 'workflow_end']],
  ),
  // A task in error with no error transition: the job stops in error.
  wf('stops', { bad: { name: 'toUpperCase', variables: { incoming: { str: 42 }, outgoing: { uppercaseString: null } } } }, [['workflow_start', 'bad'], ['bad', 'workflow_end']]),
  // A failure transition, and a revert loop of built-ins (a delay of no time between).
  wf(
    'loop',
    {
      act: { name: 'push', variables: { incoming: { job_variable: 'attempts', item: 'x' }, outgoing: {} } },
      count: { name: 'arrayLength', variables: { incoming: { arr: '$var.job.attempts' }, outgoing: { length: '$var.job.count' } } },
      check: evaluation({ task: 'count', variable: 'length' }, '>=', { task: 'static', variable: 3 }),
      wait: { name: 'delay', variables: { incoming: { time: 0 }, outgoing: { time_in_milliseconds: null } } },
    },
    [['workflow_start', 'act'], ['act', 'count'], ['count', 'check'], ['check', 'workflow_end'], ['check', 'wait', 'failure'], ['wait', 'act', 'success', 'revert']],
  ),
  // More tasks than one write runs (TASKS_PER_WRITE): the rest run in the worker.
  stepsWorkflow('long', 20),
];

async function runAll(engine: Engine) {
  const ended: unknown[] = [];
  for (const workflow of WORKFLOWS) ended.push({ workflow: workflow.name, ...((await endedJob(engine, workflow.name, { text: 'abc' })) as object) });
  return ended;
}

describe('built-in tasks run in the write that queues them', () => {
  it('end every job with the job and task records a worker running each task writes (the worker as oracle)', async () => {
    const inWrite = await open();
    const byWorker = await open({ runMethod: methodRunner(() => undefined) });
    for (const { store } of [inWrite, byWorker]) for (const workflow of WORKFLOWS) await store.collection('workflows').insertOne(workflow);
    const [ran, oracle] = [await runAll(inWrite.engine), await runAll(byWorker.engine)];
    expect(ran).toEqual(oracle);
    // Field for field in the same order, as a reader of the documents (the service's tools, the API's answers) sees them.
    expect(JSON.stringify(ran)).toBe(JSON.stringify(oracle));
    // What the workflows say, read in the records: not two runs alike by accident.
    expect(ran.map((r) => (r as { job: JobDoc }).job.status)).toEqual(['complete', 'complete', 'complete', 'error', 'complete', 'complete']);
    expect((ran[1] as { job: JobDoc }).job.variables).toMatchObject({ greeting: 'hello', seen: ['hello'], loud: 'HELLO', size: 5, picked: [1, 2] });
    expect((ran[2] as { job: JobDoc }).job.variables).toMatchObject({ note: 'recovered', why: expect.stringContaining('str') });
    expect((ran[4] as { job: JobDoc }).job.variables).toMatchObject({ count: 3 });
  });

  it("end a job whose tasks all ran in its start's write before the start answers, counted as the worker's; the answer is the job as it started", async () => {
    const { engine, store } = await open();
    await store.collection('workflows').insertOne(stepsWorkflow('two', 2));
    const started = await engine.runner.start('two', { variables: { text: 'abc' } });
    // As the service answers a start: the job as created.
    expect(started).toMatchObject({ status: 'running', variables: { text: 'abc' } });
    expect(started.variables.result).toBeUndefined();
    // Read at once, it has ended.
    const job = await engine.runner.job(started._id);
    expect(job).toMatchObject({ status: 'complete', variables: { result: 'ABC' } });
    const records = await engine.runner.records(started._id);
    expect(records.filter((r) => r.taskId.startsWith('t')).map((r) => [r.taskId, r.status, r.attempt, r.advanced, 'leaseUntil' in r])).toEqual([
      ['t1', 'complete', 1, true, false],
      ['t2', 'complete', 1, true, false],
    ]);
    expect(engine.worker.stats.completed).toBe(2);
  });

  it('say a job that ended in its start\'s write started, then complete or stopped in error, in that order, once each', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const { engine, store } = await open({ log: pino({ level: 'info' }, stream) });
    for (const workflow of [stepsWorkflow('two', 2), WORKFLOWS[3]!]) await store.collection('workflows').insertOne(workflow);
    const ok = await engine.runner.start('two', { variables: { text: 'abc' } });
    const stops = await engine.runner.start('stops');
    const said = (id: string) => lines.filter((l) => l.jobId === id && l.component === 'jobs' && typeof l.status === 'string' && !('taskId' in l)).map((l) => [l.status, l.msg]);
    expect(said(ok._id)).toEqual([['running', 'job of workflow "two" started'], ['complete', 'job of workflow "two" complete']]);
    expect(said(stops._id)).toEqual([['running', 'job of workflow "stops" started'], ['error', expect.stringMatching(/^job of workflow "stops" stopped in error: task bad \(toUpperCase\) failed/)]]);
  });

  it('leave the task after the sixteenth of a write, a wait and a retry to the worker: the job is running when the start answers', async () => {
    const { engine, store } = await open();
    await store.collection('workflows').insertOne(stepsWorkflow('long', 17));
    const waits = wf('waits', { wait: { name: 'delay', variables: { incoming: { time: 0.2 }, outgoing: { time_in_milliseconds: null } } } }, [['workflow_start', 'wait'], ['wait', 'workflow_end']]);
    const retries = wf('retries', { bad: { name: 'toUpperCase', retrySettings: { autoRetry: true, limit: 1, delay: 10 }, variables: { incoming: { str: 1 }, outgoing: {} } } }, [['workflow_start', 'bad'], ['bad', 'workflow_end', 'error']]);
    for (const workflow of [waits, retries]) await store.collection('workflows').insertOne(workflow);
    for (const name of ['long', 'waits', 'retries']) {
      const started = await engine.runner.start(name, { variables: { text: 'abc' } });
      const job = (await engine.runner.job(started._id))!;
      expect(job.status, name).toBe('running');
      const ended = await waitFor(`job of ${name} to end`, async () => {
        const now = await engine.runner.job(job._id);
        return now && now.status !== 'running' ? now : undefined;
      });
      expect(ended.status, name).toBe('complete');
    }
    const retried = (await store.collection<TaskRecord>('tasks').find({ taskId: 'bad' }))[0];
    expect(retried).toMatchObject({ status: 'error', autoRetries: 1, attempt: expect.any(Number) });
  });

  it("never run a task of a method runner the caller gave: it may wait or call out, so its worker runs each", async () => {
    const ran: string[] = [];
    const { engine, store } = await open({
      runMethod: async (task, incoming) => {
        ran.push(String(incoming.step));
        return { state: 'success', outgoing: { uppercaseString: String(incoming.str).toUpperCase() } };
      },
    });
    await store.collection('workflows').insertOne(stepsWorkflow('two', 2));
    const job = await engine.runner.start('two', { variables: { text: 'abc' } });
    expect((await engine.runner.job(job._id))?.status).toBe('running');
    await waitFor('the job to end', async () => ((await engine.runner.job(job._id))?.status === 'complete' ? true : undefined));
    expect(ran).toEqual(['t1', 't2']);
  });
});
