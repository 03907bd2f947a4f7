// Fair task scheduling: a job that loops for ever (a revert loop of two tasks, as the
// pre-builts' polling loops are) runs on a worker slot only for a bounded turn of
// hand-offs; then its next task is queued behind the tasks of other jobs, which are
// claimed oldest first. Without that, ten loops on eight slots kept every slot, and
// jobs started after them stayed queued while the loops made thousands of task runs.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';
import type { Store } from '../../../core/store/port';
import { bothStores } from '../queue/both-stores';
import { tempEmbeddedStore, waitFor, workflow } from '../queue/support';

// Both stores: the embedded one (a task's end and its next task's claim in one transaction)
// and the wire test server (MongoDB's protocol, no transactions).
const subjects = bothStores('fair task scheduling', 'fairness');

/** workflow_start → poll → check, and check back to poll by a revert transition, for ever. */
function loopForever() {
  const doc = workflow('loop-forever', { poll: { name: 'poll' }, check: { name: 'check' } }, [
    ['workflow_start', 'poll'],
    ['poll', 'check'],
  ]);
  doc.transitions.check = { poll: { type: 'revert', state: 'success' } };
  return doc;
}

/** A childJob task that starts one `one-task` child per element of `data_array`, all at once. */
const fanOut = () =>
  workflow('fan-out', { children: { name: 'childJob', type: 'operation', variables: { incoming: { workflow: 'one-task', loopType: 'parallel', data_array: [{}, {}, {}, {}, {}] }, outgoing: {} } } }, [
    ['workflow_start', 'children'],
    ['children', 'workflow_end'],
  ]);

const oneTask = () => workflow('one-task', { only: { name: 'only' } }, [['workflow_start', 'only'], ['only', 'workflow_end']]);

/** Every task succeeds at once (the loops' tasks too: they never reach workflow_end). */
const instant: TaskMethodRunner = async () => ({ state: 'success', outgoing: {} });

let opened: { store: Store; dispose(): Promise<void> } | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await opened?.dispose();
  engine = undefined;
  opened = undefined;
});

/** An engine on a fresh store with the workflows above, whose tasks all succeed at once. */
async function open(subject: (typeof subjects)[number]) {
  opened = await subject.open();
  const { store } = opened;
  for (const doc of [loopForever(), oneTask(), fanOut()]) await store.collection('workflows').insertOne(doc);
  engine = await new Engine({ store, serverId: 'fair', serverName: 'fair', processTasksOnStart: true, runMethod: instant, worker: { concurrency: 8, idleMs: 20 } }).open();
  return engine.runner;
}

/** 10 jobs looping for ever, each gone round a few times (one per slot at least): they hold the worker. */
async function startLoops(runner: Engine['runner']) {
  const loops: string[] = [];
  for (let i = 0; i < 10; i++) loops.push((await runner.start('loop-forever'))._id);
  await waitFor('the loops to go round', async () => {
    const rounds = await Promise.all(loops.map(async (id) => (await runner.records(id)).length));
    return rounds.filter((n) => n >= 10).length >= 8;
  });
  return loops;
}

describe.each(subjects)('fair task scheduling on the $name', (subject) => {
  it('completes a job that fans out child jobs while 10 jobs loop for ever (its children\'s tasks are not starved)', async () => {
    const runner = await open(subject);
    const loops = await startLoops(runner);
    const parent = await runner.start('fan-out');
    const job = await waitFor('the fan-out job to end', async () => {
      const now = await runner.job(parent._id);
      return now && now.status !== 'running' ? now : undefined;
    }, 60_000);
    expect(job.status).toBe('complete');
    expect(await runner.jobs.count({ 'parent.job': parent._id, status: 'complete' })).toBe(5);
    for (const id of loops) expect((await runner.job(id))?.status).toBe('running');
    for (const id of loops) await runner.cancel(id);
  }, 90_000);

  it('completes 20 one-task jobs started after 10 jobs that loop for ever, while the loops run', async () => {
    const runner = await open(subject);
    const loops = await startLoops(runner);

    const singles: string[] = [];
    for (let i = 0; i < 20; i++) singles.push((await runner.start('one-task'))._id);
    const statuses = await waitFor(
      'the 20 one-task jobs to complete',
      async () => {
        const all = await Promise.all(singles.map(async (id) => (await runner.job(id))?.status));
        return all.every((s) => s === 'complete') ? all : undefined;
      },
      60_000,
    ).catch(async (error: Error) => {
      const all = await Promise.all(singles.map(async (id) => (await runner.job(id))?.status));
      throw new Error(`${error.message}: ${all.filter((s) => s === 'complete').length} of 20 complete`);
    });
    expect(statuses).toEqual(Array(20).fill('complete'));

    // The loops were still running all along, and went on meanwhile.
    for (const id of loops) expect((await runner.job(id))?.status).toBe('running');
    for (const id of loops) await runner.cancel(id);
    for (const id of loops) expect((await runner.job(id))?.status).toBe('canceled');
  }, 90_000);
});

describe('fair task scheduling of built-in tasks run in the write that queues them (embedded store)', () => {
  /** The loop and the one-task job of WorkFlowEngine built-ins, which the engine runs in its writes, 16 a write (in-write.ts). */
  const builtIns = () => {
    const loop = loopForever();
    Object.assign(loop.tasks.poll!, { name: 'toUpperCase', app: 'WorkFlowEngine', variables: { incoming: { str: 'poll' }, outgoing: {} } });
    Object.assign(loop.tasks.check!, { name: 'toLowerCase', app: 'WorkFlowEngine', variables: { incoming: { str: 'CHECK' }, outgoing: {} } });
    const single = workflow('one-task', { only: { name: 'toUpperCase', app: 'WorkFlowEngine', variables: { incoming: { str: 'one' }, outgoing: {} } } }, [['workflow_start', 'only'], ['only', 'workflow_end']]);
    return [loop, single];
  };

  it('completes 20 one-task jobs started after 10 loops of built-ins, while the loops run; the loops cancel', async () => {
    opened = await tempEmbeddedStore();
    for (const doc of builtIns()) await opened.store.collection('workflows').insertOne(doc);
    engine = await new Engine({ store: opened.store, serverId: 'fair', serverName: 'fair', processTasksOnStart: true, worker: { concurrency: 8, idleMs: 20 } }).open();
    const runner = engine.runner;
    const loops = await startLoops(runner);
    const singles: string[] = [];
    for (let i = 0; i < 20; i++) singles.push((await runner.start('one-task'))._id);
    await waitFor('the 20 one-task jobs to complete', async () => (await Promise.all(singles.map(async (id) => (await runner.job(id))?.status))).every((s) => s === 'complete'), 60_000);
    for (const id of loops) expect((await runner.job(id))?.status).toBe('running');
    // The loops went on beside them: a write runs at most 16 of their tasks, then hands on.
    const rounds = await Promise.all(loops.map(async (id) => (await runner.records(id)).length));
    expect(Math.min(...rounds)).toBeGreaterThan(10);
    for (const id of loops) await runner.cancel(id);
    for (const id of loops) expect((await runner.job(id))?.status).toBe('canceled');
  }, 90_000);
});
