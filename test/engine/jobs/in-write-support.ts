// What the tests of built-in tasks run in the write (in-write.test.ts, in-write-property.test.ts)
// share: engines on temporary embedded stores, workflows as exported, and the job and its records made
// comparable between two engines (ids, times and the worker's id made alike).
import { afterEach } from 'vitest';
import { Engine, type EngineOptions } from '../../../core/engine/index';
import type { JobDoc } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import { tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';

const opened: { temp: TempStore; engine: Engine }[] = [];

/** An engine on a new embedded store, its worker running; closed after the test. */
export async function open(extra: Partial<EngineOptions> = {}) {
  const temp = await tempEmbeddedStore();
  const engine = await new Engine({ store: temp.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 }, ...extra }).open();
  opened.push({ temp, engine });
  return { engine, store: temp.store };
}

/** Closes the engines `open` made (call once per test file). */
export function closeEnginesAfterEach() {
  afterEach(async () => {
    for (const { temp, engine } of opened.splice(0)) {
      await engine.close();
      await temp.dispose();
    }
  });
}

export type T = Record<string, unknown>;

/** A workflow as exported: `[src, dst, state?, type?]` transitions. */
export function wf(name: string, tasks: Record<string, T>, transitions: [string, string, string?, string?][]) {
  const table: Record<string, Record<string, { type: string; state: string }>> = { workflow_end: {} };
  for (const [src, dst, state, type] of transitions) (table[src] ??= {})[dst] = { type: type ?? 'standard', state: state ?? 'success' };
  const full: Record<string, T> = { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } };
  for (const [id, task] of Object.entries(tasks)) full[id] = { app: 'WorkFlowEngine', type: 'automatic', location: 'Application', ...task };
  return { name, tasks: full, transitions: table, errorHandler: null };
}

/** The evaluation task of one comparison. */
export const evaluation = (left: unknown, operator: string, right: unknown) => ({
  name: 'evaluation',
  variables: { incoming: { all_true_flag: true, evaluation_groups: [{ all_true_flag: true, evaluations: [{ query: '', operand_1: left, operator, operand_2: right }] }] }, outgoing: { return_value: null } },
});

/** The job and its records with ids, times and the worker's id made alike. */
export function comparable(job: JobDoc, records: TaskRecord[]) {
  const text = JSON.stringify({ job, records: [...records].sort((a, b) => a._id.localeCompare(b._id)) }).replaceAll(job._id, 'JOB');
  const times = new Set(['start_time', 'end_time', 'claimed_at', 'queuedAt', 'runAfter', 'last_updated', 'timestamp']);
  return JSON.parse(text, (key, value) => (times.has(key) ? typeof value : key === 'workerId' ? String(value).split(':')[0] : value)) as unknown;
}

/** Starts `name` and waits for its job to end: the job and its records, comparable. */
export async function endedJob(engine: Engine, name: string, variables: Record<string, unknown>) {
  const started = await engine.runner.start(name, { variables });
  const job = await waitFor(`job of ${name} to end`, async () => {
    const now = await engine.runner.job(started._id);
    return now && now.status !== 'running' ? now : undefined;
  });
  return comparable(job, await engine.runner.records(job._id));
}
