// Every exported workflow (the project's fixtures; the real exports of the corpus when they are
// there) runs on the job runner without the runner
// itself failing: made-up adapter answers (an empty object for each declared
// outgoing variable), JST results left empty, delays cut to zero. Each job must
// settle (complete, error naming a task, waiting for an operator, or a polling
// loop the test stops), and no task error may be an internal exception.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { methodRunner } from '../../../core/engine/jobs/execute';
import type { JobDoc } from '../../../core/engine/jobs/types';
import { latestRecords } from '../../../core/engine/jobs/graph';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import { corpus, fixtures, noteCorpusSkip } from '../../support/iap';
import { tempEmbeddedStore, type TempStore } from '../queue/support';
import { jobErrorText } from '../../../core/engine/jobs/job-error';

/** A loop (revert or forEach) that has not ended after this many task runs is stopped by the test. */
const LOOP_CAP = 150;
const INTERNAL = /TypeError|ReferenceError|Cannot read|is not a function|is not iterable|Maximum call stack/;

type Schema = { type?: unknown; required?: string[]; properties?: Record<string, Schema> };
function sample(schema: Schema | undefined): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (type === 'array') return [];
  if (type === 'object') return Object.fromEntries((schema?.required ?? []).map((k) => [k, sample(schema?.properties?.[k])]));
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  return 'x';
}

let temp: TempStore;
let engine: Engine;
const byName = new Map<string, Record<string, unknown>>();
beforeAll(async () => {
  for (const source of [fixtures, corpus]) for (const { doc } of source.workflows()) byName.set(String(doc.name), doc);
  const builtIn = methodRunner(() => undefined);
  temp = await tempEmbeddedStore();
  engine = await new Engine({
    store: temp.store,
    serverId: 'corpus',
    serverName: 'corpus',
    processTasksOnStart: true,
    worker: { idleMs: 5, concurrency: 16 },
    loadWorkflow: async (name) => (byName.get(name) as never) ?? null,
    transformations: { run: async () => ({}) },
    runMethod: async (task, incoming, options) => {
      if ((task.app ?? 'WorkFlowEngine') !== 'WorkFlowEngine' || task.location === 'Adapter') {
        return { state: 'success', outgoing: Object.fromEntries(Object.keys(task.variables?.outgoing ?? {}).map((n) => [n, {}])) };
      }
      if (task.name === 'delay' || task.name === 'stub') return builtIn(task, { ...incoming, time: 0, delay: '' }, options);
      return builtIn(task, incoming, options);
    },
  }).open();
});
afterAll(async () => {
  await engine?.close();
  await temp?.dispose();
});

function settled(job: JobDoc, records: TaskRecord[]): string | undefined {
  if (job.status !== 'running') return job.status;
  const latest = [...latestRecords(records).values()] as TaskRecord[];
  if (latest.some((r) => r.status === 'queued' || r.status === 'running')) return undefined;
  if (latest.some((r) => r.status === 'waiting' && !r.childJob)) return 'waiting for an operator';
  return undefined;
}

/** Whether a task of the job, or of a running child job at any depth, is queued or running. */
async function working(id: string, depth = 0): Promise<boolean> {
  if (depth > 5) return false;
  const latest = [...latestRecords(await engine.runner.records(id)).values()] as TaskRecord[];
  if (latest.some((r) => r.status === 'queued' || r.status === 'running')) return true;
  for (const child of await engine.runner.jobs.find({ 'parent.job': id, status: 'running' })) {
    if (await working(String(child._id), depth + 1)) return true;
  }
  return false;
}

/** A job held only by running child jobs, each settled waiting for an operator (at any depth). */
async function waitingInChild(id: string, depth = 0): Promise<string | undefined> {
  if (depth > 5) return undefined;
  const records = await engine.runner.records(id);
  const latest = [...latestRecords(records).values()] as TaskRecord[];
  if (latest.some((r) => r.status === 'queued' || r.status === 'running')) return undefined;
  const children = await engine.runner.jobs.find({ 'parent.job': id, status: 'running' });
  if (!children.length) return undefined;
  for (const child of children) {
    const own = settled(child, await engine.runner.records(String(child._id)));
    if (own !== 'waiting for an operator' && !(await waitingInChild(String(child._id), depth + 1))) return undefined;
  }
  return 'waiting for an operator (in a child job)';
}

noteCorpusSkip('the real exports on the runner');

describe.each([
  { source: fixtures, least: 4 },
  { source: corpus, least: 39 },
])('every exported workflow on the runner $source.tag', ({ source, least }) => {
  it.skipIf(!source.present)('settles each job, and no task error is an internal exception', async () => {
    const started: { name: string; id: string }[] = [];
    for (const { doc } of source.workflows()) {
      const name = String(doc.name);
      const job = await engine.runner.start(name, { variables: sample(doc.inputSchema as Schema) as Record<string, unknown> });
      started.push({ name, id: job._id });
    }
    expect(started.length).toBeGreaterThanOrEqual(least);

    const outcome = new Map<string, string>();
    const deadline = Date.now() + 90_000;
    while (outcome.size < started.length && Date.now() < deadline) {
      for (const { name, id } of started) {
        if (outcome.has(name)) continue;
        const job = (await engine.runner.job(id))!;
        const records = await engine.runner.records(id);
        const state = settled(job, records) ?? (await waitingInChild(id));
        if (state) outcome.set(name, state);
        else if (records.length > LOOP_CAP) {
          await engine.runner.cancel(id);
          outcome.set(name, `a loop still going after ${LOOP_CAP} task runs (stopped by the test)`);
        }
      }
      // A child job's own polling loop would hold its parent for ever: it is stopped the same way.
      for (const child of await engine.runner.jobs.find({ status: 'running', 'parent.job': { $exists: true } })) {
        if ((await engine.runner.records(String(child._id))).length > LOOP_CAP) await engine.runner.cancel(String(child._id));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // A job still working at the deadline (a task of it or of a child job queued or running, and
    // not a loop the test stopped) is a hang too: its tasks starved behind other jobs' (the worker
    // schedules fairly, so none should). It is stopped, then reported.
    const stillWorking: string[] = [];
    for (const { name, id } of started) {
      if (outcome.has(name) || !(await working(id))) continue;
      await engine.runner.cancel(id);
      outcome.set(name, 'still working at the deadline (stopped by the test)');
      stillWorking.push(name);
    }
    expect(stillWorking, 'jobs still working at the deadline').toEqual([]);
    // A job left running with nothing queued, nothing running and no operator task in it or
    // its children would be a hang (a join or a child-job hand-back that never fires).
    const unsettled = started.filter((s) => !outcome.has(s.name)).map((s) => s.name);
    expect(unsettled, 'jobs left running with nothing to do').toEqual([]);

    const internal: string[] = [];
    for (const { name, id } of started) {
      const job = (await engine.runner.job(id))!;
      const error = jobErrorText(job);
      if (error && INTERNAL.test(error)) internal.push(`${name}: ${error}`);
      if (job.status === 'error') expect(error, name).toMatch(/^task \S+ \(.+\) failed|cannot reach workflow_end|child job/);
      for (const r of await engine.runner.records(id)) if (r.error && INTERNAL.test(r.error)) internal.push(`${name} ${r.taskId}: ${r.error}`);
    }
    expect(internal).toEqual([]);
    const tally = new Map<string, number>();
    for (const state of outcome.values()) tally.set(state, (tally.get(state) ?? 0) + 1);
    console.log(`${source.tag} jobs:`, Object.fromEntries(tally));
    if (process.env.SHOW_CORPUS_ERRORS) for (const { name, id } of started) console.log(name, '→', (await engine.runner.job(id))!.error ?? outcome.get(name));
    expect(tally.get('complete') ?? 0).toBeGreaterThan(0);
  }, 150_000);
});
