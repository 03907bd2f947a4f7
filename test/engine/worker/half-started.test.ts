// Jobs a server left half-started where the store has no transactions (MongoDB: the job
// document, with its workflow_start, and the advance are two writes): the worker's
// recovery pass finishes the start or fails the job, and the job's history says so.
// Each half-start is written by hand, as a console killed between the writes leaves it,
// on the embedded store and on the wire test server.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { JobDoc } from '../../../core/engine/jobs/types';
import { boundaryRecord } from '../../../core/engine/jobs/records';
import { readJobHistory } from '../../../core/engine/jobs/history';
import { jobView } from '../../../core/engine/jobs/view';
import { HalfStartedJobs, unusableTasks } from '../../../core/engine/worker/half-started';
import type { EmbeddedCollection } from '../../../core/store/embedded/collection';
import type { Store } from '../../../core/store/port';
import { declaredCollections } from '../../../core/indexes/declared';
import { bothStores } from '../queue/both-stores';
import { linearStrings, tempEmbeddedStore, waitFor, workflow } from '../queue/support';
import { pino } from 'pino';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

const LEASE_MS = 1000;
const subjects = bothStores('half-started jobs', 'half_started');

/** The job document as JobRunner.start writes it, `ageMs` old. */
function jobDocument(id: string, wf: ReturnType<typeof workflow>, variables: Record<string, unknown>, ageMs: number): JobDoc {
  const at = Date.now() - ageMs;
  return { _id: id, name: wf.name, description: '', status: 'running', variables, metrics: { start_time: at, user: 'admin@pronghorn' }, children: [], tasks: wf.tasks, transitions: wf.transitions, last_updated: at };
}

describe.each(subjects)('half-started jobs on the $name', (subject) => {
  let store: Store;
  let dispose: () => Promise<void>;
  let engine: Engine | undefined;
  const wf = linearStrings('recover-me', 2);

  async function open(processTasksOnStart: boolean) {
    ({ store, dispose } = await subject.open());
    await store.collection('workflows').insertOne(wf);
    engine = await new Engine({ store, serverId: 'site-b', serverName: 'site-b', processTasksOnStart, worker: { leaseMs: LEASE_MS, sweepMs: 100, idleMs: 20 } }).open();
    return engine;
  }
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
    await dispose?.();
  });

  // The recovery pass writes the job's history after the advance that queued its tasks, so a
  // worker may end the job first: the history is waited for, not read at once.
  const historyOf = (id: string) =>
    waitFor(`the history of job ${id}`, async () => {
      const entries = await readJobHistory(store, id);
      return entries.length > 0 ? entries : undefined;
    });

  const settled = (id: string) =>
    waitFor(`job ${id} to end`, async () => {
      const job = await engine!.runner.job(id);
      return job && job.status !== 'running' ? job : undefined;
    });

  it('finishes a start that wrote the job document alone: the job runs to complete, and its history says it was recovered', async () => {
    ({ store, dispose } = await subject.open());
    await store.collection('jobs').insertOne(jobDocument('half-1', wf, { text: 'MiXed' }, 3 * LEASE_MS));
    await store.collection('workflows').insertOne(wf);
    engine = await new Engine({ store, serverId: 'site-b', serverName: 'site-b', processTasksOnStart: true, worker: { leaseMs: LEASE_MS, sweepMs: 100, idleMs: 20 } }).open();

    const job = await settled('half-1');
    expect(job.status).toBe('complete');
    expect(job.variables.result).toBe('mixed');
    const records = await engine.runner.records('half-1');
    expect(records.map((r) => r.taskId)).toEqual(['workflow_start', 't1', 't2', 'workflow_end']);
    const history = await historyOf('half-1');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ jobId: 'half-1', event: 'start-recovered', serverId: 'site-b' });
    expect(history[0]!.message).toMatch(/stopped after writing the job \(and its workflow_start\) and before queuing the first tasks/);
    // The Job page reads it with the job.
    const view = jobView(job, records, [], history);
    expect(view.history).toEqual([{ timestamp: history[0]!.timestamp, event: 'start-recovered', message: history[0]!.message, serverId: 'site-b' }]);
  });

  it('finishes a start that wrote the job and its workflow_start record but never queued the first task', async () => {
    ({ store, dispose } = await subject.open());
    const doc = jobDocument('half-2', wf, { text: 'Abc' }, 3 * LEASE_MS);
    await store.collection('jobs').insertOne(doc);
    await store.collection('tasks').insertOne(boundaryRecord('half-2', { taskId: 'workflow_start', iteration: 0, from: [] }, doc.last_updated));
    engine = await new Engine({ store, serverId: 'site-b', serverName: 'site-b', processTasksOnStart: true, worker: { leaseMs: LEASE_MS, sweepMs: 100, idleMs: 20 } }).open();

    const job = await settled('half-2');
    expect(job.status).toBe('complete');
    expect(job.variables.result).toBe('abc');
    const [entry] = await historyOf('half-2');
    expect(entry!.message).toMatch(/and before queuing the first tasks; the start was finished/);
    expect((await engine.runner.records('half-2')).filter((r) => r.taskId === 'workflow_start')).toHaveLength(1);
  });

  it('completes a job whose workflow_end record was written and its status was not', async () => {
    const e = await open(false);
    const doc = jobDocument('half-end', wf, { text: 'x' }, 3 * LEASE_MS);
    await store.collection('jobs').insertOne(doc);
    await store.collection('tasks').insertOne(boundaryRecord('half-end', { taskId: 'workflow_start', iteration: 0, from: [] }, doc.last_updated));
    await store.collection('tasks').insertOne({ ...boundaryRecord('half-end', { taskId: 'workflow_end', iteration: 0, from: ['half-end:workflow_start:0'] }, doc.last_updated + 5) });
    const outcomes = await new HalfStartedJobs(e.runner, { leaseMs: LEASE_MS, serverId: 'site-b', log: pino({ level: 'silent' }) }).pass();
    expect(outcomes.map((o) => [o.jobId, o.event])).toEqual([['half-end', 'end-recovered']]);
    const job = (await e.runner.job('half-end'))!;
    expect(job.status).toBe('complete');
    expect(job.metrics.end_time).toBe(doc.last_updated + 5);
  });

  it('says it recovered a start even when a worker ended the task it queued before the pass looked again', async () => {
    const e = await open(false);
    await store.collection('jobs').insertOne(jobDocument('half-race', wf, { text: 'Race' }, 3 * LEASE_MS));
    // The pass's runner, but once the start is finished nothing reads as queued, running, waiting or
    // unadvanced: as between two reads while a worker ends the task the advance queued and queues the next.
    let advanced = false;
    const bound = <O extends object>(target: O, key: string | symbol) => {
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    };
    const tasks = new Proxy(e.runner.tasks, {
      get: (target, key) =>
        key === 'findOne'
          ? (filter: Record<string, unknown>, options?: object) => (advanced && ('status' in filter || 'advanced' in filter) ? Promise.resolve(null) : target.findOne(filter, options))
          : bound(target, key),
    });
    const runner = new Proxy(e.runner, {
      get: (target, key) =>
        key === 'tasks'
          ? tasks
          : key === 'advance'
            ? async (...args: Parameters<typeof target.advance>) => {
                await target.advance(...args);
                advanced = true;
              }
            : bound(target, key),
    });
    const outcomes = await new HalfStartedJobs(runner, { leaseMs: LEASE_MS, serverId: 'site-b', log: pino({ level: 'silent' }) }).pass();
    expect(outcomes.map((o) => [o.jobId, o.event])).toEqual([['half-race', 'start-recovered']]);
    expect((await readJobHistory(store, 'half-race'))[0]).toMatchObject({ jobId: 'half-race', event: 'start-recovered' });
  });

  it('fails a half-started job whose tasks cannot be run, naming why, in its error and its history', async () => {
    const e = await open(false);
    const broken = workflow('broken', { t1: { name: 'toUpperCase' } }, [['workflow_start', 't1'], ['t1', 'ghost']]);
    await store.collection('jobs').insertOne(jobDocument('broken-1', broken, {}, 3 * LEASE_MS));
    const noEnd = { ...jobDocument('broken-2', linearStrings('x', 1), {}, 3 * LEASE_MS), tasks: { workflow_start: { name: 'workflow_start' } } };
    await store.collection('jobs').insertOne(noEnd);

    const outcomes = await new HalfStartedJobs(e.runner, { leaseMs: LEASE_MS, serverId: 'site-b', log: pino({ level: 'silent' }) }).pass();
    expect(outcomes.map((o) => [o.jobId, o.event]).sort()).toEqual([
      ['broken-1', 'start-failed'],
      ['broken-2', 'start-failed'],
    ]);
    const one = (await e.runner.job('broken-1'))!;
    expect(one.status).toBe('error');
    expect(one.error).toEqual([{ task: 'workflow_start', message: 'the job cannot start: the transition from "t1" leads to "ghost", which is not one of its tasks', timestamp: expect.any(Number) }]);
    expect((await readJobHistory(store, 'broken-1'))[0]!.message).toContain('leads to "ghost"');
    expect(jobErrorText((await e.runner.job('broken-2'))!)).toBe('the job cannot start: its tasks have no workflow_end');
    // Nothing was queued for them: workflow_start's record (the job's own) alone.
    expect((await e.runner.records('broken-1')).map((r) => r.taskId)).toEqual(['workflow_start']);
  });

  it('leaves alone a job that is merely starting (younger than a lease) and a healthy one', async () => {
    const e = await open(false);
    // Starting on another server right now: the job document alone, just written.
    await store.collection('jobs').insertOne(jobDocument('young', wf, { text: 'a' }, 0));
    // Healthy and old: its first task is queued (this console does not work tasks), it has not been updated for long.
    const healthy = await e.runner.start('recover-me', { variables: { text: 'b' } });
    await store.collection('jobs').updateOne({ _id: healthy._id }, { $set: { last_updated: Date.now() - 10 * LEASE_MS } });
    // Healthy and old: a manual task waits for an operator.
    const manual = workflow('manual', { ask: { name: 'ViewData', type: 'manual' } }, [['workflow_start', 'ask'], ['ask', 'workflow_end']]);
    await store.collection('jobs').insertOne(jobDocument('waiting', manual, {}, 10 * LEASE_MS));
    await store.collection('tasks').insertOne({ ...boundaryRecord('waiting', { taskId: 'workflow_start', iteration: 0, from: [] }, 0), advanced: true });
    const { finishState: _none, ...ask } = { ...boundaryRecord('waiting', { taskId: 'workflow_start', iteration: 0, from: [] }, 0), _id: 'waiting:ask:0', taskId: 'ask', name: 'ViewData', type: 'manual', status: 'waiting' };
    await store.collection('tasks').insertOne(ask);
    const before = { healthy: await e.runner.records(healthy._id), waiting: await e.runner.records('waiting') };

    const pass = new HalfStartedJobs(e.runner, { leaseMs: LEASE_MS, serverId: 'site-b', log: pino({ level: 'silent' }) });
    expect(await pass.pass()).toEqual([]);
    expect((await e.runner.records('young')).map((r) => r.taskId)).toEqual(['workflow_start']);
    expect((await e.runner.job('young'))!.status).toBe('running');
    expect(await e.runner.records(healthy._id)).toEqual(before.healthy);
    expect(await e.runner.records('waiting')).toEqual(before.waiting);
    for (const id of ['young', healthy._id, 'waiting']) expect(await readJobHistory(store, id)).toEqual([]);
  });

  it('reaches every stalled job however many long-running healthy jobs come before it', async () => {
    const e = await open(false);
    const old = Date.now() - 100 * LEASE_MS;
    for (let i = 0; i < 7; i++) {
      const healthy = await e.runner.start('recover-me', { id: `healthy-${i}`, variables: { text: 'h' } });
      await store.collection('jobs').updateOne({ _id: healthy._id }, { $set: { last_updated: old + i } });
    }
    await store.collection('jobs').insertOne({ ...jobDocument('stalled', wf, { text: 's' }, 0), last_updated: old + 50 });
    const pass = new HalfStartedJobs(e.runner, { leaseMs: LEASE_MS, serverId: 'site-b', log: pino({ level: 'silent' }), limit: 3 });
    const seen: string[] = [];
    for (let i = 0; i < 5 && seen.length === 0; i++) seen.push(...(await pass.pass()).map((o) => o.jobId));
    expect(seen).toEqual(['stalled']);
    expect((await e.runner.records('stalled')).map((r) => [r.taskId, r.status])).toEqual([
      ['workflow_start', 'complete'],
      ['t1', 'queued'],
    ]);
  });
});

describe('what makes a job\'s tasks unusable', () => {
  it('names the first problem found, and accepts a job as the service exports it', () => {
    const ok = linearStrings('ok', 2);
    expect(unusableTasks(ok as never)).toBeUndefined();
    expect(unusableTasks({ tasks: undefined, transitions: {} } as never)).toBe('its tasks are missing');
    expect(unusableTasks({ tasks: [], transitions: {} } as never)).toBe('its tasks are not an object (an array)');
    expect(unusableTasks({ ...ok, transitions: { ...ok.transitions, ghost: {} } })).toBe('a transition leaves from "ghost", which is not one of its tasks');
    expect(unusableTasks({ ...ok, transitions: {} })).toBe('no transition leaves workflow_start');
    expect(unusableTasks({ ...ok, tasks: { ...ok.tasks, t1: 'x' } } as never)).toBe('task "t1" is not an object');
  });
});

describe('the index of the recovery pass', () => {
  it('is declared on jobs, and the embedded store searches it for the pass query without sorting', async () => {
    const jobs = declaredCollections.find((c) => c.collection === 'jobs')!;
    expect(jobs.indexes.map((i) => i.name)).toContain('status_1_last_updated_1');
    const temp = await tempEmbeddedStore();
    try {
      for (const index of jobs.indexes) await temp.store.collection('jobs').createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
      await temp.store.collection('jobs').insertMany(Array.from({ length: 100 }, (_, i) => ({ status: i % 3 ? 'complete' : 'running', last_updated: i, metrics: { start_time: i } })));
      const plan = (
        await (temp.store.collection('jobs') as EmbeddedCollection).explain(
          { status: 'running', last_updated: { $lt: 80, $gte: 10 } },
          { sort: { last_updated: 1 }, limit: 50, projection: { _id: 1, last_updated: 1 } },
        )
      ).join('\n');
      expect(plan).toMatch(/SEARCH c:jobs USING INDEX i:jobs:status_1_last_updated_1 \(k:status=\? AND k:last_updated>\? AND k:last_updated<\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    } finally {
      await temp.dispose();
    }
  });
});
