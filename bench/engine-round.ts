// The engine on a fresh embedded file doing the bench's one-task or 10-task work (WorkFlowEngine
// toUpperCase), enqueue + run: used by the queues bench (queues.ts) and the equal-work rounds
// (engine-equal.ts).
import { rm } from 'node:fs/promises';
import type { Engine } from '../core/engine/index';
import { openBenchEngine } from './engine-support';
import { BATCH, backlogBelow, folderBytes, type Work } from './queues-peers';

/** The engine on a fresh embedded file: jobs of `steps` tasks, `concurrency` at once. */
export async function engineRound(seconds: number, steps: number, concurrency: number, before?: { jobs: number; waiting: boolean }): Promise<Work & { tasks: number }> {
  const { dir, store, engine } = await openBenchEngine({ steps, processTasksOnStart: true, concurrency });
  try {
    const jobs = store.collection('jobs');
    if (before) await jobsBefore(engine, before.jobs, before.waiting);
    // The jobs of this round only: those running less those running before it (waiting on timers),
    // counted on the status index alone. A range on the start time made each poll (one a ms while the
    // backlog is full) read every running job's document: ~350 us, 0.6 a 10-task job.
    const runningBefore = await jobs.count({ status: 'running' });
    const running = async () => (await jobs.count({ status: 'running' })) - runningBefore;
    const started = performance.now();
    let added = 0;
    // A batch is BATCH tasks: 200 one-task jobs, 20 ten-task jobs.
    const batch = Math.max(1, Math.round(BATCH / steps));
    while (performance.now() - started < seconds * 1000) {
      await backlogBelow(batch, running);
      for (let i = 0; i < batch; i++) await engine.runner.start('bench', { variables: { text: `job ${added++}` } });
    }
    const deadline = Date.now() + 600_000;
    while ((await running()) > 0) {
      if (Date.now() > deadline) throw new Error('bench: the engine did not finish its jobs within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const elapsedMs = performance.now() - started;
    await engine.close();
    const complete = await jobs.count({ status: 'complete', name: 'bench' });
    if (complete !== added) throw new Error(`bench: ${added - complete} of ${added} engine jobs did not complete`);
    await store.close();
    return { items: added, tasks: added * steps, elapsedMs, bytesPerItem: (await folderBytes(dir)) / added };
  } finally {
    await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * `count` jobs of a delay started before the round is timed: each waiting on a timer of an hour
 * (`waiting`: no worker slot held), or of no time (they complete at once: the same starts, the same
 * store size, the same code warmed up, and nothing waiting: the baseline of the ratio).
 */
async function jobsBefore(engine: Engine, count: number, waiting: boolean) {
  const store = engine.options.store;
  await store.collection('workflows').insertOne({
    name: 'waits',
    tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' }, wait: { name: 'delay', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { time: waiting ? 3600 : 0 }, outgoing: {} } } },
    transitions: { workflow_start: { wait: { type: 'standard', state: 'success' } }, wait: { workflow_end: { type: 'standard', state: 'success' } } },
  });
  for (let i = 0; i < count; i++) await engine.runner.start('waits');
  const settled = waiting ? () => store.collection('tasks').count({ status: 'queued', timer: { $exists: true } }) : () => store.collection('jobs').count({ name: 'waits', status: 'complete' });
  const deadline = Date.now() + 120_000;
  while ((await settled()) < count) {
    if (Date.now() > deadline) throw new Error(`bench: ${count} jobs of a delay did not settle within 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
