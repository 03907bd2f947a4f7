// The steps every drill shares once its two sites answer: prepare both, describe them, the
// readiness check, the load, the failure (staged by the kind of drill), failover on the standby,
// verification from the job records and the ledger, and optional failback. Each step is logged
// with its time; a failing step stops the drill, and the report says how both sites were left.
import { jobErrorText } from '../engine/jobs/job-error';
import { checkReadiness } from './readiness';
import { drillJobVariables, DRILL_WORKFLOW, type Ledger } from './ledger';
import { waitUntil, WORKER_LEASE_MS, type DrillRun } from './runner';
import { applications, describeSite, prepareSite, setProcessTasksOnStart, workerState } from './site-ops';
import { SiteError, type Site } from './site';
import type { DrillOptions, DrillSiteInfo } from './types';
import { collectWorkflows, copyAndSimulate, countSimulatedCalls, sampleVariables, type WorkflowSource } from './own-workflows';
import { simulatedOnlyProblems } from './simulated-only';

export const TASKS_PER_JOB = 3;

export interface DrillPair {
  active: Site;
  standby: Site;
}

export interface FailureStaging {
  /** The failure step's name. */
  name: string;
  /** Stages the failure of the active site; answers the step's detail. */
  fail(): Promise<string>;
  /** How the active site is after the failure (for the report when a later step fails). */
  after: string;
  /**
   * The drill declares the failed site gone (kill -9, a site cut off): once its heartbeat stops, the
   * standby queues its tasks again at once, fenced, instead of waiting out their lease.
   */
  declaresGone?: boolean;
  /** Failback: the active site answering again (a killed lab site restarted, a gone site back), and what was done for it. */
  revive(): Promise<{ site: Site; note?: string }>;
}

interface JobDetail {
  status: string;
  /** The service's array; one text from a site of an earlier version (job-error.ts reads both). */
  error?: unknown;
  taskRuns: { taskId: string; iteration: number; name?: string; simulated?: string; status: string; workerId?: string; metrics: { end_time?: number } }[];
}

/** What a drill runs with: its report being built, the ledger of side effects, and the operator's options. */
export interface DrillContext {
  run: DrillRun;
  ledger: Ledger;
  options: DrillOptions;
  /** Where the operator's chosen workflows are copied from: given, the load runs them instead of the ledger workflow. */
  source?: WorkflowSource;
}

export async function runDrillSteps(drill: DrillContext, pair: DrillPair, failure: FailureStaging): Promise<void> {
  const { run, ledger, options } = drill;
  // The operator's own workflows (round-robin) instead of the ledger workflow, on simulated instances.
  const own = drill.source && options.workflows?.length ? { source: drill.source, names: options.workflows } : undefined;
  const { report, step } = run;
  const { standby } = pair;
  let active = pair.active;
  // How each site is, as far as the drill changed it: the report says so when a step fails.
  const state = { active: 'working tasks as found', standby: 'standing by as found' };
  try {
    const chosen = own && (await collectWorkflows(own.source, own.names));
    if (chosen) {
      await step('Check: the chosen workflows call simulated adapter instances only', async (s) => {
        const problems = await simulatedOnlyProblems(chosen, [active, standby]);
        if (problems.length) throw new Error(problems.join('; '));
        s.detail = `no task of ${[...chosen.workflows.keys()].map((n) => `"${n}"`).join(', ')} reaches a real adapter instance on ${active.name} or ${standby.name}, and both let jobs use simulated instances`;
      });
    }
    let copies = new Map<Site, string[]>();
    await step('Prepare both sites: the drill ledger adapter and the drill workflow', async (s) => {
      for (const site of [active, standby]) await prepareSite(site, ledger, TASKS_PER_JOB);
      s.detail = `adapter instance and workflow "${DRILL_WORKFLOW}" on ${active.name} and ${standby.name}; ledger ${ledger.url}`;
      if (!chosen) return;
      const changed = '; the chosen workflows copied where missing, what they lack simulated';
      state.active += changed;
      state.standby += changed;
      const copied = await copyAndSimulate(chosen, [active, standby]);
      copies = copied.changes;
      s.detail += `; ${copied.detail}`;
    });
    const [activeInfo, standbyInfo] = await Promise.all([describeSite(active), describeSite(standby)]);
    // What the drill copied to each site and simulated there is kept with the site in the report.
    const entry = ({ profileId: _profileId, ...info }: DrillSiteInfo & { profileId: string }, site: Site) => ({ ...info, changes: (copies.get(site) ?? []).map((c) => `${c} (load: workflows)`) });
    report.sites = [entry(activeInfo, active), entry(standbyInfo, standby)];

    await step('Readiness check', async (s) => {
      const workflows = [DRILL_WORKFLOW, ...(options.workflows ?? []).filter((w) => w !== DRILL_WORKFLOW)];
      report.readiness = await checkReadiness({ active, standby, workflows });
      const failed = report.readiness.filter((i) => i.state === 'fail');
      s.detail = `${report.readiness.filter((i) => i.state === 'pass').length} passed, ${failed.length} failed, ${report.readiness.filter((i) => i.state === 'skipped').length} skipped`;
      if (failed.length) throw new Error(failed.map((i) => `${i.title}: ${i.detail} (fix: ${i.fix})`).join('; '));
    });

    const startState = await Promise.all([workerState(active), workerState(standby)]);
    const jobIds: string[] = [];
    const loadName = own ? `Load: ${options.jobs} jobs of ${own.names.map((n) => `"${n}"`).join(', ')} (round-robin, on simulated instances)` : `Load: ${options.jobs} jobs of "${DRILL_WORKFLOW}" (${TASKS_PER_JOB} ledger tasks each)`;
    await step(loadName, async (s) => {
      state.active = 'working the drill load';
      if (own) {
        const variables = new Map<string, Record<string, unknown>>();
        for (const name of own.names) variables.set(name, options.variables?.[name] ?? (await sampleVariables(active, name)));
        for (let i = 0; i < options.jobs; i++) {
          const workflow = own.names[i % own.names.length] ?? DRILL_WORKFLOW;
          const answer = await active.call<{ data: { _id: string } }>('POST', '/operations-manager/jobs/start', { workflow, options: { description: `DR drill ${report.id}`, variables: variables.get(workflow) ?? {} } });
          jobIds.push(answer.data._id);
        }
        s.detail = `${jobIds.length} jobs started`;
        return;
      }
      for (let i = 0; i < options.jobs; i++) {
        const key = `${report.id.slice(0, 8)}-${i}`;
        const answer = await active.call<{ data: { _id: string } }>('POST', '/operations-manager/jobs/start', {
          workflow: DRILL_WORKFLOW,
          options: { description: `DR drill ${report.id}`, variables: drillJobVariables(ledger.url, key, TASKS_PER_JOB) },
        });
        jobIds.push(answer.data._id);
      }
      // The failure lands mid-load: once every job started and a quarter of the side effects happened.
      const target = Math.max(1, Math.floor((options.jobs * TASKS_PER_JOB) / 4));
      await waitUntil(`a quarter of the load (${target} ledger calls)`, 120_000, () => ledger.calls.length >= target);
      s.detail = `${jobIds.length} jobs started; ${ledger.calls.length} of ${options.jobs * TASKS_PER_JOB} ledger calls before the failure`;
    });

    const failureAt = await step(failure.name, async (s) => {
      const at = Date.now();
      s.detail = await failure.fail();
      state.active = failure.after;
      return at;
    });

    await step(`Failover: start the task worker and the applications on the standby${options.persistProcessTasksOnStart ? ', persist processTasksOnStart: true' : ''}`, async (s) => {
      const apps = await applications(standby, 'start');
      await standby.call('POST', '/workflow_engine/taskWorker/activate');
      state.standby = 'task worker and applications started (working tasks)';
      s.detail = `task worker started; ${apps}`;
      if (failure.declaresGone) s.detail += `; ${await declareGone(standby, activeInfo)}`;
      if (options.persistProcessTasksOnStart) {
        const before = await setProcessTasksOnStart(standby, standbyInfo.profileId, true);
        const change = `processTasksOnStart ${before} → true in profile "${standbyInfo.profileId}" (failover)`;
        report.sites[1]?.changes?.push(change);
        state.standby += `; ${change}`;
        s.detail += `; ${change}`;
      }
    });

    await step('Verify: every job ends, no task lost or completed twice', async (s) => {
      const bound = 3 * WORKER_LEASE_MS + 60_000;
      // Each job of the load is read from the standby until it ends (complete, error or canceled).
      const details = new Map<string, JobDetail>();
      let pending = [...jobIds];
      await waitUntil(`every job of the load to end within ${bound / 1000} s`, bound, async () => {
        const still: string[] = [];
        for (const id of pending) {
          const { data } = await standby.call<{ data: JobDetail }>('GET', `/operations-manager/jobs/${encodeURIComponent(id)}`);
          if (data.status === 'running' || data.status === 'paused') still.push(id);
          else details.set(id, data);
        }
        pending = still;
        s.detail = `${jobIds.length - pending.length} of ${jobIds.length} jobs ended`;
        run.changed();
        return pending.length === 0;
      }, 500);
      let firstOnStandby = Infinity;
      let lastEnd = failureAt;
      let activeAfter = 0;
      const notComplete: string[] = [];
      for (const id of jobIds) {
        // Every job ended by now: the wait above fails the step otherwise.
        const data: JobDetail = details.get(id) ?? { status: 'not read', taskRuns: [] };
        if (data.status === 'complete') report.jobsCompleted++;
        else notComplete.push(`${id} ${data.status}${jobErrorText(data) ? `: ${jobErrorText(data)}` : ''}`);
        const completed = new Map<string, number>();
        for (const task of data.taskRuns) {
          if (task.status !== 'complete' || (!own && !/^d\d+$/.test(task.taskId))) continue;
          const key = `${task.taskId}#${task.iteration}`;
          completed.set(key, (completed.get(key) ?? 0) + 1);
          const end = task.metrics.end_time ?? 0;
          lastEnd = Math.max(lastEnd, end);
          if (task.workerId?.startsWith(`${standbyInfo.serverId}:`) && end >= failureAt) firstOnStandby = Math.min(firstOnStandby, end);
          if (task.workerId?.startsWith(`${activeInfo.serverId}:`) && end >= failureAt) activeAfter++;
        }
        if (!own) for (let i = 1; i <= TASKS_PER_JOB; i++) if (!completed.has(`d${i}#0`)) report.tasksLost++;
        for (const count of completed.values()) if (count > 1) report.taskRecordsCompletedTwice += count - 1;
      }
      report.rtoMs = Number.isFinite(firstOnStandby) ? firstOnStandby - failureAt : null;
      report.drainMs = lastEnd - failureAt;
      report.simulatedCalls = countSimulatedCalls([...details.values()]);
      report.sideEffects = own ? report.simulatedCalls.reduce((sum, c) => sum + c.calls, 0) : ledger.calls.length;
      report.sideEffectsRepeated = own ? 0 : ledger.repeated();
      s.detail = `${report.jobsCompleted}/${options.jobs} jobs complete; tasks lost ${report.tasksLost}; completed twice ${report.taskRecordsCompletedTwice}; side effects repeated ${report.sideEffectsRepeated} (tasks in flight when ${active.name} failed, run again: at-least-once); ${activeAfter} tasks completed by ${active.name} after the failure (in flight at it)`;
      if (notComplete.length) s.detail += `; not complete: ${notComplete.slice(0, 5).join('; ')}${notComplete.length > 5 ? ' …' : ''}`;
      if (options.failure === 'gone') s.detail += await stillHeartbeating(standby, activeInfo, failureAt);
      if (own) s.detail += `; simulated calls: ${report.simulatedCalls.map((c) => `${c.instance}.${c.method} ${c.calls}`).join(', ') || 'none'}`;
      // A job of the operator's own workflow may end in error (what its simulated answers lead to): it ended once.
      if (report.tasksLost || report.taskRecordsCompletedTwice || (!own && report.jobsCompleted < options.jobs)) throw new Error(s.detail);
    });

    if (options.failback) {
      await step('Failback: the active site works tasks again, the standby stands by', async (s) => {
        const notes: string[] = [];
        await standby.call('POST', '/workflow_engine/taskWorker/deactivate');
        state.standby = 'task worker stopped (failback)';
        const revived = await failure.revive();
        active = revived.site;
        if (revived.note) notes.push(revived.note);
        // The active's applications and worker first, then the standby's applications stopped again.
        await applications(active, 'start');
        await active.call('POST', '/workflow_engine/taskWorker/activate');
        state.active = 'working tasks again (failback)';
        await applications(standby, 'stop');
        // Each site's processTasksOnStart back to its value at the start.
        for (const [site, info, index] of [[active, activeInfo, 0], [standby, standbyInfo, 1]] as const) {
          const was = startState[index].startupValue;
          const before = await setProcessTasksOnStart(site, info.profileId, was);
          if (before !== was) {
            const change = `processTasksOnStart ${before} → ${was} in profile "${info.profileId}" (failback)`;
            report.sites[index]?.changes?.push(change);
            notes.push(`${site.name}: ${change}`);
          }
        }
        state.standby = 'standing by again (failback)';
        const endState = await Promise.all([workerState(active), workerState(standby)]);
        s.detail = [`active worker ${endState[0].running ? 'running' : 'stopped'}, standby worker ${endState[1].running ? 'running' : 'stopped'}`, ...notes].join('; ');
        if (JSON.stringify(endState) !== JSON.stringify(startState)) throw new Error(`both sites are not back to their starting state: before ${JSON.stringify(startState)}, after ${JSON.stringify(endState)}`);
      });
    }
  } catch (error) {
    report.leftAs = `${active.name} (${active.ref.url}): ${state.active}; ${standby.name} (${standby.ref.url}): ${state.standby}`;
    throw error;
  }
}

/** Declares the failed site gone on the standby as soon as its heartbeat has stopped (409 until then); answers the step's detail. */
async function declareGone(standby: Site, active: DrillSiteInfo): Promise<string> {
  let answer: { requeued: number } | undefined;
  let stillBeating = false;
  // A site declared gone that still beats (only cut off from the drill, not from the database) keeps its tasks: their lease decides.
  await waitUntil(`the heartbeat of ${active.name} to stop`, 20_000, async () => {
    try {
      answer = await standby.call<{ requeued: number }>('POST', `/workflow_engine/servers/${encodeURIComponent(active.serverId)}/gone`);
      return true;
    } catch (error) {
      if (error instanceof SiteError && error.code === 'conflict') return false;
      throw error;
    }
  }, 250).catch((error: unknown) => {
    if (!(error instanceof Error && error.message.startsWith('gave up waiting'))) throw error;
    stillBeating = true;
  });
  if (stillBeating) return `${active.name} still beats 20 s after it was declared gone: its tasks are left to their lease`;
  return `${active.name} declared gone once its heartbeat stopped: ${answer?.requeued ?? 0} of its tasks queued again at once (fenced)`;
}

/** After "gone", what the standby sees of the active site's heartbeat (the active itself is not called). */
async function stillHeartbeating(standby: Site, active: DrillSiteInfo, failureAt: number) {
  const { servers } = await standby.call<{ servers: { serverId: string; heartbeatAt?: number; taskWorker: boolean }[] }>('GET', '/workflow_engine/workers/status');
  const beat = servers.find((s) => s.serverId === active.serverId)?.heartbeatAt;
  if (beat === undefined) return `; the standby sees no heartbeat of ${active.name}`;
  const after = beat - failureAt;
  // A beat already on its way at the failure may land just after it; later ones mean the site still runs.
  return after > 2_000
    ? `; note: ${active.name} still wrote a heartbeat ${Math.round(after / 1000)} s after the failure: it was not cut off from the database, so both sites may have worked tasks`
    : `; ${active.name} wrote no heartbeat after the failure: it is cut off`;
}
