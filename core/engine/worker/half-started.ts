// Recovery of jobs a server left half-started (or half-ended). Where the store has no
// transactions (MongoDB), starting a job is two writes: the job document (which holds its
// workflow_start), then the advance that queues the first tasks; ending one is one write
// (an earlier version wrote a workflow_end record first). A console killed between them
// leaves a job `running` that nothing moves: no task queued, running or waiting, no
// ended task waiting to be advanced. This pass finds such jobs once they are older
// than a lease (a job merely starting on another server is younger), and finishes the
// start (the advance: idempotent, with deterministic record ids) or the end, or fails the job when its tasks cannot be run, naming why.
// Each is written to the job's history, which the Job page shows. It reads through the runner
// and writes nothing itself: finishing the end is the decision core's `end-recorded` event,
// failing the job its status write, and the history entry the executor's.
import type { Logger } from 'pino';
import { StoreError } from '../../store/errors';
import { END, START } from '../jobs/graph';
import { jobErrorText, jobErrors } from '../jobs/job-error';
import type { JobRunner } from '../jobs/runner';
import type { JobDoc } from '../jobs/types';
import type { TaskRecord } from '../queue/queue';

export interface HalfStartedOptions {
  /** A job younger than this (by `last_updated`) may still be starting: it is left alone. */
  leaseMs: number;
  serverId: string;
  log: Logger;
  /** Jobs looked at per pass (the next pass goes on from where this one stopped). */
  limit?: number;
}

export interface RecoveryOutcome {
  jobId: string;
  event: 'start-recovered' | 'start-failed' | 'end-recovered';
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Why the job's tasks cannot be run, or undefined when they can. */
export function unusableTasks(job: Pick<JobDoc, 'tasks' | 'transitions'>): string | undefined {
  if (!isObject(job.tasks)) return `its tasks are ${job.tasks === undefined ? 'missing' : `not an object (${Array.isArray(job.tasks) ? 'an array' : typeof job.tasks})`}`;
  for (const id of [START, END]) if (!(id in job.tasks)) return `its tasks have no ${id}`;
  for (const [id, task] of Object.entries(job.tasks)) if (!isObject(task)) return `task "${id}" is not an object`;
  if (job.transitions !== undefined && !isObject(job.transitions)) return 'its transitions are not an object';
  for (const [src, targets] of Object.entries(job.transitions ?? {})) {
    if (!(src in job.tasks)) return `a transition leaves from "${src}", which is not one of its tasks`;
    if (!isObject(targets)) return `the transitions from "${src}" are not an object`;
    for (const dst of Object.keys(targets)) if (!(dst in job.tasks)) return `the transition from "${src}" leads to "${dst}", which is not one of its tasks`;
  }
  if (Object.keys(job.transitions?.[START] ?? {}).length === 0) return 'no transition leaves workflow_start';
  return undefined;
}

export class HalfStartedJobs {
  /** Where the next pass goes on (a `last_updated`), so every stalled job is reached however many jobs run long. */
  private cursor = 0;

  constructor(
    private readonly runner: JobRunner,
    private readonly options: HalfStartedOptions,
  ) {}

  /** One pass over the jobs that may be stalled; returns what it recovered or failed. */
  async pass(now = Date.now()): Promise<RecoveryOutcome[]> {
    const { runner } = this;
    const limit = this.options.limit ?? 50;
    const olderThan = now - this.options.leaseMs;
    // Served by the jobs index status_1_last_updated_1 (equality, then the sort and range).
    const range: Record<string, number> = { $lt: olderThan };
    if (this.cursor > 0) range.$gte = this.cursor;
    const candidates = await runner.jobs.find({ status: 'running', last_updated: range }, { sort: { last_updated: 1 }, limit, projection: { _id: 1, last_updated: 1 } });
    if (candidates.length < limit) this.cursor = 0;
    else {
      const first = Number(candidates[0]?.last_updated);
      const last = Number(candidates.at(-1)?.last_updated);
      this.cursor = last === first ? last + 1 : last;
    }
    const outcomes: RecoveryOutcome[] = [];
    for (const candidate of candidates) {
      const outcome = await this.recover(String(candidate._id), olderThan);
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  /** Whether something still moves the job: a task queued, running or waiting, or an ended task not advanced yet (the unadvanced pass's). */
  private async moving(jobId: string): Promise<boolean> {
    const tasks = this.runner.tasks;
    const projection = { _id: 1 } as const;
    if (await tasks.findOne({ jobId, status: { $in: ['queued', 'running', 'waiting'] } }, { projection })) return true;
    return Boolean(await tasks.findOne({ jobId, advanced: false }, { projection }));
  }

  /** Whether a record of the job was written that is not among `before`. */
  private async wroteSince(jobId: string, before: TaskRecord[]): Promise<boolean> {
    const known = before.map((r) => r._id);
    return Boolean(await this.runner.tasks.findOne({ jobId, _id: { $nin: known } }, { projection: { _id: 1 } }));
  }

  private async recover(jobId: string, olderThan: number): Promise<RecoveryOutcome | undefined> {
    if (await this.moving(jobId)) return undefined;
    const job = await this.runner.job(jobId);
    // Read again: it may have moved on meanwhile.
    if (!job || job.status !== 'running' || !(Number(job.last_updated) < olderThan)) return undefined;
    const records = await this.runner.records(jobId);
    const end = records.find((r) => r.taskId === END);
    if (end) return this.finishEnd(job, end);

    const problem = unusableTasks(job);
    if (problem) return this.fail(job, `the job cannot start: ${problem}`);
    // The job document holds workflow_start's record (records.ts withBoundaries).
    const onlyStart = records.every((r) => r.taskId === START);
    try {
      await this.runner.advance(jobId, job);
    } catch (error) {
      if (error instanceof StoreError) throw error; // the store: the next pass tries again
      return this.fail(job, `the job cannot start: ${error instanceof Error ? error.message : String(error)}`);
    }
    const after = await this.runner.job(jobId);
    // Whether the advance queued anything is read from the records it wrote (records are never
    // removed), not from what is moving now: a worker may run and end a queued task between reads.
    if (after?.status === 'running' && !(await this.wroteSince(jobId, records))) {
      // Nothing could be queued: the operator sees the job as it is; the next pass looks again.
      this.options.log.warn({ jobId, workflow: job.name }, `job ${jobId} of workflow "${job.name}" is running with no task to run, and advancing it queued none`);
      return undefined;
    }
    if (after?.status === 'error') return this.record(job, 'start-failed', `recovery could not finish the start of this job: ${jobErrorText(after) ?? 'error'}`);
    const what = onlyStart
      ? 'a server stopped after writing the job (and its workflow_start) and before queuing the first tasks; the start was finished and they were queued'
      : 'no task was queued, running or waiting; the job was advanced again';
    return this.record(job, 'start-recovered', `recovered: ${what} (server ${this.options.serverId})`);
  }

  /** A workflow_end task record (written by an earlier version) and the job's status was not: the job completed. */
  private async finishEnd(job: JobDoc, end: TaskRecord): Promise<RecoveryOutcome | undefined> {
    await this.runner.endRecorded(job, end);
    // Written only where the job was still running (the completion is conditional on it).
    const after = await this.runner.job(job._id);
    if (after?.status !== 'complete') return undefined;
    this.runner.log.info({ jobId: job._id, workflow: job.name, status: 'complete', from: 'running' }, `job of workflow "${job.name}" complete (its end was recorded; the status is written by recovery)`);
    return this.record(job, 'end-recovered', `recovered: a server stopped after the workflow_end record and before writing the job complete; written complete (server ${this.options.serverId})`);
  }

  private async fail(job: JobDoc, reason: string): Promise<RecoveryOutcome | undefined> {
    await this.runner.setStatus({ ...job }, 'error', { task: START, message: reason });
    // Written only where the job was still running (setStatus is conditional on it).
    const after = await this.runner.job(job._id);
    if (after?.status !== 'error' || jobErrors(after).at(-1)?.message !== reason) return undefined;
    return this.record(job, 'start-failed', `recovery failed this job: ${reason}`);
  }

  private async record(job: JobDoc, event: RecoveryOutcome['event'], message: string): Promise<RecoveryOutcome> {
    await this.runner.recordHistory({ jobId: job._id, event, message, serverId: this.options.serverId });
    const level = event === 'start-failed' ? 'warn' : 'info';
    this.options.log[level]({ jobId: job._id, workflow: job.name, event, serverId: this.options.serverId }, `job ${job._id} of workflow "${job.name}": ${message}`);
    return { jobId: job._id, event, message };
  }
}
