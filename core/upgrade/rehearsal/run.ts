// One rehearsal: the chosen workflows run twice, under the release the site upgrades from and under
// 2022.1, each release in its own scratch embedded store in a temporary folder (the profile's
// workflows and JST documents copied in; the profile's store is only read), with engines that
// follow that release's semantics. Adapter tasks reach the profile's simulated instances (or ones
// in their package's stub mode) only: a call that would reach a real instance is not made, and the
// workflow is reported as one that could not run. The folder is removed whatever happens.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Store } from '../../store/port';
import { openEmbeddedStore } from '../../store/embedded/store';
import { Engine } from '../../engine';
import type { AdapterCaller } from '../../engine/jobs/execute';
import type { TransformationRunner } from '../../engine/jobs/own-tasks';
import { jobErrorText } from '../../engine/jobs/job-error';
import type { JobDoc } from '../../engine/jobs/types';
import { RELEASE_SEMANTICS, type SemanticsRelease } from '../../release/semantics';
import { sampleFromSchema } from '../../contract/transformations';
import type { RehearsalReport, RehearseBody } from '../../contract/rehearsal';
import { ConsoleError, errorMessage } from '../../errors';
import { firstDivergence, shown } from './divergence';

type Doc = Record<string, unknown>;
const isObject = (value: unknown): value is Doc => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a rehearsal reaches of the profile's adapters: an instance by the name a task calls, and its call. */
export interface RehearsalAdapters {
  /** The instance a task's app (and adapter_id) resolves to; throws when none does. */
  resolve(app: string, args: Doc): string;
  /** Whether the instance answers without a device: simulated, or its package in stub mode. */
  answersSafely(id: string): boolean;
  call: AdapterCaller['call'];
}

export interface RehearsalDeps {
  /** The documents of a collection of the profile (workflows, transformations), read only. */
  source: (collection: 'workflows' | 'transformations') => Promise<Doc[]>;
  adapters?: () => RehearsalAdapters | undefined;
  /** Runs JST documents of a scratch store (the transformation task). */
  transformationsFor?: (store: Store) => TransformationRunner;
  /** Where the scratch folder goes (the system's temporary folder unless given). */
  tmpDir?: string;
  /** How long one job may run before the workflow is reported as one that could not run (20 s). */
  jobTimeoutMs?: number;
}

export interface Progress {
  signal?: AbortSignal;
  onWorkflow?(name: string, done: number, total: number): void;
}

const COPIED = ['workflows', 'transformations'] as const;

/** A scratch store and its engine, following one release's semantics. */
async function scratch(dir: string, release: SemanticsRelease, deps: RehearsalDeps, refused: Set<string>) {
  const store = await openEmbeddedStore(dir);
  for (const name of COPIED) {
    const docs = await deps.source(name);
    if (docs.length) await store.collection(name).insertMany(docs);
  }
  const adapters = deps.adapters?.();
  // Without the profile's adapters (the headless command) no adapter call is made: the workflow could not run.
  const caller: AdapterCaller = {
    async call(app, method, args, options) {
      if (!adapters) {
        refused.add(app);
        return { ok: false, error: { message: `the rehearsal has no simulated instance for "${app}": "${method}" was not called` }, output: '' };
      }
      let id: string;
      try {
        id = adapters.resolve(app, args);
      } catch (error) {
        // No instance answers this app here: both runs would fail alike, which says nothing of the upgrade.
        refused.add(app);
        return { ok: false, error: { message: errorMessage(error) }, output: '' };
      }
      if (!adapters.answersSafely(id)) {
        refused.add(id);
        return { ok: false, error: { message: `the rehearsal calls simulated instances only: "${id}" is a real adapter instance, "${method}" was not called` }, output: '' };
      }
      return adapters.call(id, method, args, options);
    },
  };
  const engine = await new Engine({
    store,
    serverId: `rehearsal-${release}`,
    serverName: `rehearsal ${release}`,
    processTasksOnStart: true,
    semantics: RELEASE_SEMANTICS[release],
    adapters: () => caller,
    ...(deps.transformationsFor ? { transformations: deps.transformationsFor(store) } : {}),
    worker: { idleMs: 10 },
  }).open();
  return {
    engine,
    async close() {
      await engine.close();
      await store.close();
    },
  };
}

type Scratch = Awaited<ReturnType<typeof scratch>>;

async function settle(run: Scratch, id: string, timeoutMs: number, signal?: AbortSignal): Promise<JobDoc | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await run.engine.runner.job(id);
    if (job && job.status !== 'running' && job.status !== 'paused') return job;
    if (Date.now() > until || signal?.aborted) return job ?? undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const outcomeOf = (job: JobDoc) => ({ status: job.status, ...(job.error ? { error: jobErrorText(job) ?? '' } : {}), variables: shown(job.variables) });

/** The workflows named, or all of the profile's; a name the profile lacks is a 400 naming it. */
async function chosen(source: RehearsalDeps['source'], body: RehearseBody): Promise<Doc[]> {
  const all = await source('workflows');
  if (body.all) return all.sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const byName = new Map(all.map((w) => [String(w.name), w]));
  const missing = (body.workflows ?? []).filter((n) => !byName.has(n));
  if (missing.length) throw new ConsoleError('bad_input', `body.workflows: no workflow named ${missing.map((n) => `"${n}"`).join(', ')} on this console`, { issues: [{ path: 'body.workflows', message: `unknown: ${missing.join(', ')}` }] });
  return (body.workflows ?? []).map((n) => byName.get(n)!);
}

/** Runs the rehearsal; the scratch folder is gone when it returns or throws. */
export async function rehearse(deps: RehearsalDeps, body: RehearseBody, progress: Progress = {}): Promise<RehearsalReport> {
  const workflows = await chosen(deps.source, body);
  const dir = await mkdtemp(path.join(deps.tmpDir ?? os.tmpdir(), 'console-rehearsal-'));
  const report: RehearsalReport = { from: body.from, to: '2022.1', workflows: workflows.length, same: 0, differ: [], couldNotRun: [], inputsBuilt: [] };
  const refused = { before: new Set<string>(), after: new Set<string>() };
  const runs: Scratch[] = [];
  try {
    const before = await scratch(path.join(dir, body.from), body.from, deps, refused.before);
    runs.push(before);
    const after = await scratch(path.join(dir, '2022.1'), '2022.1', deps, refused.after);
    runs.push(after);
    const timeout = deps.jobTimeoutMs ?? 20_000;
    for (const [index, workflow] of workflows.entries()) {
      if (progress.signal?.aborted) throw new Error('canceled');
      const name = String(workflow.name);
      progress.onWorkflow?.(name, index, workflows.length);
      let variables = body.variables?.[name];
      if (!variables) {
        const sample = workflow.inputSchema === undefined ? {} : sampleFromSchema(workflow.inputSchema);
        variables = isObject(sample) ? sample : {};
        report.inputsBuilt.push(name);
      }
      refused.before.clear();
      refused.after.clear();
      try {
        const jobs: JobDoc[] = [];
        for (const run of [before, after]) {
          const started = await run.engine.runner.start(name, { variables, user: 'upgrade rehearsal' });
          run.engine.worker.poke();
          const job = await settle(run, started._id, timeout, progress.signal);
          if (!job || job.status === 'running' || job.status === 'paused') {
            throw new Error(`its job did not end within ${Math.round(timeout / 1000)} s (${job?.status ?? 'not found'}; a manual task or a long wait?)`);
          }
          jobs.push(job);
        }
        const real = [...new Set([...refused.before, ...refused.after])];
        if (real.length) throw new Error(`it calls the adapter instance${real.length > 1 ? 's' : ''} ${real.map((r) => `"${r}"`).join(', ')}, not simulated here (simulate ${real.length > 1 ? 'them' : 'it'} on the console first: POST /adapters/simulate)`);
        const [jobBefore, jobAfter] = jobs as [JobDoc, JobDoc];
        const divergence = firstDivergence(await before.engine.runner.records(jobBefore._id), await after.engine.runner.records(jobAfter._id));
        const sameOutcome = jobBefore.status === jobAfter.status;
        if (!divergence && sameOutcome) report.same++;
        else {
          report.differ.push({
            workflow: name,
            firstDivergence: divergence ?? { task: 'workflow_end', differs: ['status'], before: { reached: true, status: jobBefore.status }, after: { reached: true, status: jobAfter.status } },
            outcome: { before: outcomeOf(jobBefore), after: outcomeOf(jobAfter) },
          });
        }
      } catch (error) {
        if (progress.signal?.aborted) throw error;
        report.couldNotRun.push({ workflow: name, why: errorMessage(error) });
      }
    }
    progress.onWorkflow?.('', workflows.length, workflows.length);
    return report;
  } finally {
    for (const run of runs) await run.close();
    await rm(dir, { recursive: true, force: true });
  }
}
