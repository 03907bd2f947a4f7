// One drill: readiness, load (jobs of the drill workflow, each task a ledger call), failure of
// the active site, failover on the standby, verification from the job records and the ledger,
// optional failback. Each step is logged with its time; a failing step stops the drill, says
// why, and leaves both sites as they are (described in the report).
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { ledgerAdapter, startLab, startLabSite, type Lab } from './lab';
import { startLedger, drillWorkflow, drillJobVariables, DRILL_WORKFLOW, type Ledger } from './ledger';
import { checkReadiness, FAILOVER_APPLICATIONS } from './readiness';
import { SiteError, type Site } from './site';
import type { DrillReport, DrillStep, LabDrillOptions } from './types';

/** The task worker's lease: a task of a dead site goes back to the queue after it (core/engine/worker). */
export const WORKER_LEASE_MS = 30_000;
const TASKS_PER_JOB = 3;

class StepFailed extends Error {}

export async function runLabDrill(options: LabDrillOptions, onChange: (report: DrillReport) => void = () => undefined): Promise<DrillReport> {
  const jobs = options.jobs;
  const report: DrillReport = {
    id: options.id ?? randomUUID(),
    kind: 'lab',
    failure: options.failure,
    failback: options.failback,
    status: 'running',
    passed: false,
    startedAt: Date.now(),
    jobs,
    jobsCompleted: 0,
    tasksLost: 0,
    taskRecordsCompletedTwice: 0,
    sideEffects: 0,
    sideEffectsRepeated: 0,
    rtoMs: null,
    drainMs: null,
    leaseMs: WORKER_LEASE_MS,
    targets: { rtoMs: options.targets?.rtoMs ?? WORKER_LEASE_MS, drainMs: options.targets?.drainMs ?? 4 * WORKER_LEASE_MS },
    readiness: [],
    sites: [],
    steps: [],
  };
  const changed = () => onChange(structuredClone(report));
  async function step<T>(name: string, work: (s: DrillStep) => Promise<T>): Promise<T> {
    const s: DrillStep = { name, startedAt: Date.now(), endedAt: null, ok: false };
    report.steps.push(s);
    changed();
    try {
      const result = await work(s);
      s.ok = true;
      return result;
    } catch (error) {
      s.error = (error as Error).message;
      throw new StepFailed(`${name}: ${s.error}`);
    } finally {
      s.endedAt = Date.now();
      changed();
    }
  }

  let ledger: Ledger | undefined;
  let lab: Lab | undefined;
  try {
    ledger = await step('Start the ledger of side effects', async (s) => {
      const started = await startLedger();
      s.detail = started.url;
      return started;
    });
    const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'dr-lab-')));
    lab = await step('Start the lab: two consoles on one database', async (s) => {
      const started = await startLab({ dir, ledgerUrl: ledger!.url, mongoUrl: options.mongoUrl, standbyProcessTasksOnStart: options.standbyProcessTasksOnStart });
      lab = started;
      // Each site runs its own instance of the ledger adapter (a site that already sees it answers 409).
      for (const site of [started.active.site, started.standby.site]) {
        try {
          await site.call('POST', '/adapters', { properties: ledgerAdapter(ledger!.url) });
        } catch (error) {
          if ((error as SiteError).status !== 409) throw error;
        }
      }
      // The standby as the Manual Failover procedure prepares it: its applications stopped (unless
      // the drill rehearses a misconfigured standby).
      const standbyApps = options.standbyProcessTasksOnStart ? 'standby left as configured' : `standby: ${await applications(started.standby.site, 'stop')}`;
      s.detail = `active ${started.active.site.ref.url} (pid ${started.active.process.pid}), standby ${started.standby.site.ref.url} (pid ${started.standby.process.pid}); ${started.database}; ${standbyApps}`;
      return started;
    });
    const { active, standby } = lab;
    report.database = lab.database;
    report.sites = await Promise.all([active, standby].map((l) => describeSite(l.site)));

    await step('Readiness check', async (s) => {
      report.readiness = await checkReadiness({ active: active.site, standby: standby.site, adapters: ['http-request'] });
      const failed = report.readiness.filter((i) => i.state === 'fail');
      s.detail = `${report.readiness.filter((i) => i.state === 'pass').length} passed, ${failed.length} failed, ${report.readiness.filter((i) => i.state === 'skipped').length} skipped`;
      if (failed.length) throw new Error(failed.map((i) => `${i.title}: ${i.detail} (fix: ${i.fix})`).join('; '));
    });

    const startState = await Promise.all([active, standby].map((l) => workerState(l.site)));
    const jobIds: string[] = [];
    await step(`Load: ${jobs} jobs of "${DRILL_WORKFLOW}" (${TASKS_PER_JOB} ledger tasks each)`, async (s) => {
      await active.site.call('POST', '/workflows?overwrite=true', drillWorkflow(TASKS_PER_JOB));
      for (let i = 0; i < jobs; i++) {
        const key = `${report.id.slice(0, 8)}-${i}`;
        const answer = await active.site.call<{ data: { _id: string } }>('POST', '/operations-manager/jobs/start', {
          workflow: DRILL_WORKFLOW,
          options: { description: `DR drill ${report.id}`, variables: drillJobVariables(ledger!.url, key, TASKS_PER_JOB) },
        });
        jobIds.push(answer.data._id);
      }
      // The failure lands mid-load: once every job started and a quarter of the side effects happened.
      const target = Math.max(1, Math.floor((jobs * TASKS_PER_JOB) / 4));
      await waitUntil(`a quarter of the load (${target} ledger calls)`, 120_000, () => ledger!.calls.length >= target);
      s.detail = `${jobIds.length} jobs started; ${ledger!.calls.length} of ${jobs * TASKS_PER_JOB} ledger calls before the failure`;
    });

    const failureAt = await step(failureName(options.failure), async (s) => {
      const at = Date.now();
      if (options.failure === 'kill') {
        await active.kill('SIGKILL');
        s.detail = `pid ${active.process.pid} killed`;
      } else {
        await active.site.call('POST', '/workflow_engine/taskWorker/deactivate');
        s.detail = `task worker of ${active.site.name} stopped; ${await applications(active.site, 'stop')}`;
      }
      return at;
    });

    await step('Failover: start the task worker and the applications on the standby', async (s) => {
      const apps = await applications(standby.site, 'start');
      await standby.site.call('POST', '/workflow_engine/taskWorker/activate');
      s.detail = `task worker started; ${apps}`;
    });

    await step('Verify: every job ends, no task lost or completed twice', async (s) => {
      const bound = 3 * WORKER_LEASE_MS + 60_000;
      // Each job of the load is read until it ends (complete, error or canceled).
      const details = new Map<string, JobDetail>();
      let pending = [...jobIds];
      await waitUntil(`every job of the load to end within ${bound / 1000} s`, bound, async () => {
        const still: string[] = [];
        for (const id of pending) {
          const { data } = await standby.site.call<{ data: JobDetail }>('GET', `/operations-manager/jobs/${encodeURIComponent(id)}`);
          if (data.status === 'running' || data.status === 'paused') still.push(id);
          else details.set(id, data);
        }
        pending = still;
        s.detail = `${jobIds.length - pending.length} of ${jobIds.length} jobs ended`;
        changed();
        return pending.length === 0;
      }, 500);
      const standbyId = (await standby.site.call<{ serverId: string }>('GET', '/health/status')).serverId;
      let firstOnStandby = Infinity;
      let lastEnd = failureAt;
      const notComplete: string[] = [];
      for (const id of jobIds) {
        const data = details.get(id)!;
        if (data.status === 'complete') report.jobsCompleted++;
        else notComplete.push(`${id} ${data.status}${data.error ? `: ${data.error}` : ''}`);
        const completed = new Map<string, number>();
        for (const run of data.taskRuns) {
          if (run.status !== 'complete' || !/^d\d+$/.test(run.taskId)) continue;
          const key = `${run.taskId}#${run.iteration}`;
          completed.set(key, (completed.get(key) ?? 0) + 1);
          const end = run.metrics.end_time ?? 0;
          lastEnd = Math.max(lastEnd, end);
          if (run.workerId?.startsWith(`${standbyId}:`) && end >= failureAt) firstOnStandby = Math.min(firstOnStandby, end);
        }
        for (let i = 1; i <= TASKS_PER_JOB; i++) if (!completed.has(`d${i}#0`)) report.tasksLost++;
        for (const count of completed.values()) if (count > 1) report.taskRecordsCompletedTwice += count - 1;
      }
      report.rtoMs = Number.isFinite(firstOnStandby) ? firstOnStandby - failureAt : null;
      report.drainMs = lastEnd - failureAt;
      report.sideEffects = ledger!.calls.length;
      report.sideEffectsRepeated = ledger!.repeated();
      s.detail = `${report.jobsCompleted}/${jobs} jobs complete; tasks lost ${report.tasksLost}; completed twice ${report.taskRecordsCompletedTwice}; side effects repeated ${report.sideEffectsRepeated} (tasks in flight when ${active.site.name} failed, run again: at-least-once)`;
      if (notComplete.length) s.detail += `; not complete: ${notComplete.slice(0, 5).join('; ')}${notComplete.length > 5 ? ' …' : ''}`;
      if (report.tasksLost || report.taskRecordsCompletedTwice || report.jobsCompleted < jobs) throw new Error(s.detail);
    });

    if (options.failback) {
      await step('Failback: the active site works tasks again, the standby stands by', async (s) => {
        await standby.site.call('POST', '/workflow_engine/taskWorker/deactivate');
        if (!active.alive()) lab!.active = await startLabSite(active);
        // The active's applications first, then the standby's stopped again.
        await applications(lab!.active.site, 'start');
        await lab!.active.site.call('POST', '/workflow_engine/taskWorker/activate');
        await applications(standby.site, 'stop');
        const endState = await Promise.all([lab!.active, lab!.standby].map((l) => workerState(l.site)));
        s.detail = `active worker ${endState[0]!.running ? 'running' : 'stopped'}, standby worker ${endState[1]!.running ? 'running' : 'stopped'}`;
        if (JSON.stringify(endState) !== JSON.stringify(startState)) throw new Error(`both sites are not back to their starting state: before ${JSON.stringify(startState)}, after ${JSON.stringify(endState)}`);
      });
    }
    const missed: string[] = [];
    if (!((report.rtoMs ?? Infinity) < report.targets.rtoMs)) missed.push(`RTO ${report.rtoMs ?? 'not measured'} ms is not below the target ${report.targets.rtoMs} ms`);
    if (!((report.drainMs ?? Infinity) <= report.targets.drainMs)) missed.push(`drain ${report.drainMs ?? 'not measured'} ms is above the target ${report.targets.drainMs} ms`);
    report.passed = missed.length === 0;
    if (missed.length) report.error = `target missed: ${missed.join('; ')}`;
    report.status = 'done';
  } catch (error) {
    report.status = 'failed';
    report.passed = false;
    report.error = error instanceof StepFailed ? error.message : `unexpected: ${(error as Error).message}`;
    if (lab) report.leftAs = `the lab is stopped after the failure: active ${lab.active.alive() ? 'was running' : 'was down'}, standby ${lab.standby.alive() ? 'was running' : 'was down'}`;
  } finally {
    report.endedAt = Date.now();
    await lab?.close().catch((error: Error) => (report.error = `${report.error ?? ''} (stopping the lab: ${error.message})`.trim()));
    await ledger?.close().catch((error: Error) => console.warn(`drill ledger: ${error.message}`));
    changed();
  }
  return report;
}

interface JobDetail {
  status: string;
  error?: string;
  taskRuns: { taskId: string; iteration: number; status: string; workerId?: string; metrics: { end_time?: number } }[];
}

function failureName(failure: LabDrillOptions['failure']) {
  if (failure === 'kill') return 'Failure: kill -9 of the active site';
  return 'Failure: stop the task worker and applications of the active site';
}

async function workerState(site: Site) {
  const status = await site.call<{ taskWorker: { running: boolean; startupValue: boolean } }>('GET', '/workflow_engine/workers/status');
  return { running: status.taskWorker.running, startupValue: status.taskWorker.startupValue };
}

/** Starts or stops the failover applications where the site has them; says what it did. */
async function applications(site: Site, action: 'start' | 'stop') {
  const done: string[] = [];
  for (const app of FAILOVER_APPLICATIONS) {
    try {
      await site.call('PUT', `/applications/${app}/${action}`);
      done.push(`${app} ${action === 'start' ? 'started' : 'stopped'}`);
    } catch (error) {
      if ((error as SiteError).status !== 404) throw error;
      done.push(`${app}: not on this site`);
    }
  }
  return done.join(', ');
}

async function describeSite(site: Site) {
  const health = await site.call<{ serverId: string; serverName: string; profile: string; store: string }>('GET', '/health/status');
  // The site masks its secrets itself (profiles.get answers ******** for each).
  const entry = await site.call<{ profile: Record<string, unknown> }>('GET', `/profiles/${encodeURIComponent(health.profile)}`);
  return { name: site.name, url: site.ref.url, serverId: health.serverId, serverName: health.serverName, store: health.store, properties: entry.profile };
}

async function waitUntil(what: string, timeoutMs: number, probe: () => boolean | Promise<boolean>, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
