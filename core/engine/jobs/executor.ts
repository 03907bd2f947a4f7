// The executor: carries out what the decision core (decide.ts) decides for a job's
// event, with what that needs of the store: the writes in order (a task's job
// variables carried to the first of them, records inserted in one call), one queued
// task handed to the worker that ran the ended task, claimed in the write that queues
// it (eager dispatch), with the job and records it was decided from (held state), and
// what follows from it: a child job that ended tells its parent's childJob task, a
// canceled job cancels its children. Follow-ups are worked off here, depth first,
// before the call that caused them returns: nothing calls back into a runner.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Store } from '../../store/port';
import { unitOfWork } from '../../store/unit-of-work';
import { ConsoleError } from '../../errors';
import type { TaskClaim } from './claims';
import type { TaskOutcome } from '../tasks/library';
import { serverOf, type TaskRecord } from '../queue/queue';
import { decide, type Decision, type JobEvent, type Write } from './decide';
import { loopOutcome, type ChildStart, type ChildStep } from './children';
import type { OperatorAction, OperatorWrite } from './actions';
import { operatorWritten, type FollowUp } from './operator-writes';
import type { AdvanceHandoff, Held } from './held';

export type { AdvanceHandoff, Handoff } from './held';
import type { AdvancedMarks } from '../queue/advanced-marks';
import type { JobWrites } from './job-writes';
import type { JobReads } from './reads';
import { endFields } from './records';
import type { TasksInWrite } from './in-write';
import { jobErrors, messageText, type JobFailure } from './job-error';
import type { JobDoc, JobStatus } from './types';
import { sayStatus } from './status-log';
import { decodeVariables } from '../../values/undefined-codec';
import { answeringDomain } from '../../errors';

export interface AfterEnd {
  atomic?: boolean;
  /** Inside a unit of work (an operator's action): the mark is written now, in it, not batched with marks of other callers. */
  inUnit?: boolean;
  handoff?: AdvanceHandoff;
  held?: Pick<Held, 'job' | 'records'>;
  /** The job as it still is in the store (its records are read). */
  job?: JobDoc;
  marking?: Promise<{ error: unknown } | undefined>[];
  /** The record ended because its timer fired (timers.ts). */
  timer?: boolean;
}

export interface ExecutorParts {
  store: Store;
  reads: JobReads;
  writes: JobWrites;
  /** `advanced: true` writes of tasks ending side by side, together (no transactions: MongoDB). */
  marks: AdvancedMarks;
  log: Logger;
  /** Starts a child job (the job starter); it works off its own follow-ups. */
  startJob(start: ChildStart): Promise<void>;
  /** Runs the built-in tasks the engine carries out itself in the write that queues them (absent: the worker runs every task). */
  tasksInWrite?: TasksInWrite;
}

export class JobExecutor {
  /** Told when a task was queued that no worker holds yet (the task worker's poke), and when one was run in the write that queued it. */
  onQueued?: () => void;
  onRanInWrite?: () => void;
  /** Jobs whose start is being decided before their document is written (`started`): their writes change the job held. */
  private readonly unwritten = new WeakSet<JobDoc>();

  constructor(private readonly parts: ExecutorParts) {}

  private get jobs() {
    return this.parts.reads.jobs;
  }

  private get tasks() {
    return this.parts.reads.tasks;
  }

  /**
   * After a record ended: its job variables written and its job advanced, then the record marked
   * advanced. `known`: the record as just written. `atomic`: in the transaction that ended it
   * (which wrote `advanced: true` already). `marking`: the mark's write goes there, not waited
   * for, so the caller hands the job's next task on first (its outcome: undefined, or the error).
   */
  async afterEnd(recordId: string, known?: TaskRecord, options: AfterEnd = {}): Promise<void> {
    const { reads, marks } = this.parts;
    const record = known ?? (await reads.record(recordId));
    if (!record || record.advanced !== false) return;
    // Not handed them: the job and its records are read side by side, after the end was written.
    const [job, records] = options.held ? [options.held.job, options.held.records] : await reads.jobAndRecords(record.jobId, options.job);
    if (job) await this.run(job, records, { kind: options.timer ? 'timer-fired' : 'task-ended', record }, options.handoff);
    if (options.atomic) return;
    if (options.inUnit) await this.tasks.updateOne({ _id: recordId }, { $set: { advanced: true } });
    else if (options.marking) options.marking.push(marks.mark(recordId).then(() => undefined, (error: unknown) => ({ error })));
    else await marks.mark(recordId);
  }

  /**
   * A job's start where the store's unit of work is one transaction: its first advance is decided and
   * made with the job not yet written, its writes made to the job held, then the job is written once
   * as it is then (`write`: its tasks may have run in this write, in-write.ts), then what follows.
   */
  async started(job: JobDoc, handoff: AdvanceHandoff | undefined, write: () => Promise<void>): Promise<void> {
    this.unwritten.add(job);
    const follow = await this.decideAndApply(job, [], { kind: 'started' }, handoff).finally(() => this.unwritten.delete(job));
    await write();
    if (follow.length) await this.drain(follow);
  }

  /** Decides the job's event and carries it out, then what follows from it. */
  async run(job: JobDoc, records: TaskRecord[], event: JobEvent, handoff?: AdvanceHandoff): Promise<void> {
    const decision = decide({ job, records, event, now: Date.now() });
    const follow = await this.apply(job, records, decision, handoff);
    if (follow.length) await this.drain(follow);
  }

  /** Works off follow-ups, depth first (each one's own before the next); `inUnit`: inside an operator's unit of work. */
  async drain(work: FollowUp[], inUnit = false): Promise<void> {
    for (let next = work.shift(); next; next = work.shift()) work.unshift(...(await this.followUp(next, inUnit)));
  }

  private async followUp(work: FollowUp, inUnit: boolean): Promise<FollowUp[]> {
    switch (work.kind) {
      case 'ended':
        await this.afterEnd(work.recordId, undefined, { inUnit });
        return [];
      case 'event': {
        const job = await this.parts.reads.job(work.jobId);
        if (!job) return [];
        const { event } = work;
        const needsRecords = event.kind === 'advance' || (event.kind === 'operator' && (event.action.kind === 'retry' || event.action.kind === 'finish'));
        const records = needsRecords ? await this.parts.reads.records(work.jobId, job) : [];
        return this.decideAndApply(job, records, event);
      }
      case 'child-ended': {
        const child = await this.parts.reads.job(work.childId);
        const waitingId = child?.parent?.record;
        if (!child || typeof waitingId !== 'string') return [];
        const waiting = await this.parts.reads.record(waitingId);
        const parent = waiting && (await this.parts.reads.job(waiting.jobId));
        return waiting && parent ? this.decideAndApply(parent, [], { kind: 'child-ended', child, waiting }) : [];
      }
      case 'end-waiting':
        return this.endWaiting(work.recordId, work.outcome);
      case 'start-child':
        try {
          await this.parts.startJob(work.start);
        } catch (error) {
          return [{ kind: 'end-waiting', recordId: work.start.parent.record, outcome: { state: 'error', outgoing: {}, error: `${work.failure}: ${error instanceof Error ? error.message : String(error)}` } }];
        }
        return this.endedAlready(work.start.id);
    }
  }

  private decideAndApply(job: JobDoc, records: TaskRecord[], event: JobEvent, handoff?: AdvanceHandoff): Promise<FollowUp[]> {
    return this.apply(job, records, decide({ job, records, event, now: Date.now() }), handoff);
  }

  /** A child job that ended already (an empty workflow) is told to its parent now. */
  async endedAlready(childId: string): Promise<FollowUp[]> {
    const child = await this.parts.reads.job(childId);
    return child && child.status !== 'running' && child.status !== 'paused' ? [{ kind: 'child-ended', childId }] : [];
  }

  /** Ends a childJob record that waits for its children (the job is then advanced). */
  async endWaiting(recordId: string, outcome: TaskOutcome): Promise<FollowUp[]> {
    const record = await this.parts.reads.record(recordId);
    if (!record) return [];
    const fields = endFields(decodeVariables(record.incoming), outcome);
    const result = await this.tasks.updateOne({ _id: recordId, status: { $in: ['running', 'waiting'] } }, { $set: fields, $unset: { leaseUntil: '' } });
    return result.matched ? [{ kind: 'ended', recordId }] : [];
  }

  /** Carries out a decision on `job` (kept up to date with what is written); returns what follows. */
  async apply(job: JobDoc, records: TaskRecord[], decision: Decision, handoff?: AdvanceHandoff): Promise<FollowUp[]> {
    let set = decision.variablesSet;
    if (decision.variables) Object.assign(job, { variables: decision.variables, last_updated: Date.now() });
    // The next task reads the job's variables: they are written before its record, or with the completion.
    // Called only when a $set waits (an async call per write would cost a promise each).
    const flush = async ($set: Record<string, unknown>) => {
      set = undefined;
      if (!this.unwritten.has(job)) await this.jobs.updateOne({ _id: job._id }, { $set });
    };
    const follow: FollowUp[] = [];
    for (const write of decision.writes) {
      if (write.kind === 'insert') {
        if (write.records.length && set) await flush(set);
        follow.push(...(await this.insert(job, records, write, handoff)));
      } else if (write.kind === 'fail') {
        if (set) await flush(set);
        follow.push(...(await this.writeStatus(job, 'error', write.error)));
      } else if (write.kind === 'complete') {
        const $set = set;
        set = undefined;
        follow.push(...(await this.complete(job, write.end, $set)));
      } else {
        follow.push(...(await this.other(job, write)));
      }
    }
    if (set) await flush(set);
    return follow;
  }

  /**
   * Records in one call; one queued one may be claimed for the worker that ran the ended task, or
   * started the job. A claimed task the engine runs itself from its library is run now and written
   * ended, and the job advanced in the same write (in-write.ts), up to TASKS_PER_WRITE of them.
   */
  private async insert(job: JobDoc, records: TaskRecord[], write: Extract<Write, { kind: 'insert' }>, handoff?: AdvanceHandoff): Promise<FollowUp[]> {
    let claimed: TaskRecord | undefined;
    let claim: { workerId: string; leaseUntil: number } | undefined;
    if (write.handOff && handoff && handoff.claimed.length === 0) {
      for (const next of write.records) {
        if (next.status !== 'queued' || next.runAfter > next.queuedAt) continue;
        claim = handoff.take();
        if (!claim) continue;
        Object.assign(next, { status: 'running', workerId: claim.workerId, attempt: 1, leaseUntil: claim.leaseUntil, metrics: { claimed_at: next.queuedAt, start_time: next.queuedAt, server_id: serverOf(claim.workerId) } });
        claimed = next;
        break;
      }
    }
    const inWrite = claimed && claim && handoff ? await this.parts.tasksInWrite?.end(job, [...records, ...write.records], claimed, handoff.inWrite) : undefined;
    // Written ended (no lease), and advanced in this write.
    if (inWrite && claimed) write.records[write.records.indexOf(claimed)] = { ...inWrite.ended, advanced: true };
    const written = await this.parts.writes.insertRecords(write.records);
    if (write.records.some((r) => r.status === 'queued' && written.has(r._id))) this.onQueued?.();
    if (!claimed || !handoff) return [];
    if (!written.has(claimed._id)) return (handoff.drop?.(), []);
    // Records another server wrote first are not known here: those held are then not used for the advance.
    const exact = write.records.every((r) => written.has(r._id));
    if (inWrite && claim) {
      this.onRanInWrite?.();
      // The next task of the chain takes the same claim (the worker's slot, reserved once).
      const chained: AdvanceHandoff = { ...handoff, take: () => claim, inWrite: inWrite.left };
      const now = exact ? [...records, ...write.records] : await this.parts.reads.records(job._id, job);
      return this.decideAndApply(job, now, { kind: 'task-ended', record: inWrite.ended }, chained);
    }
    const held: Held = exact ? { job, records: [...records, ...write.records] } : { job, records, inexact: true };
    handoff.claimed.push({ record: claimed, held });
    return [];
  }

  /** The job complete with workflow_end reached (its record: records.ts withBoundaries) and the variables its last task wrote, in one write. */
  private async complete(job: JobDoc, end: TaskRecord, set: Record<string, unknown> | undefined): Promise<FollowUp[]> {
    const now = Date.now();
    const reachedEnd = { from: end.from, iteration: end.iteration };
    // When workflow_end was reached (a recovered end: when its record says).
    const endTime = end.metrics.end_time ?? now;
    const $set = { ...set, status: 'complete', reachedEnd, 'metrics.end_time': endTime, last_updated: now };
    // A job not written yet holds its variables already (apply).
    const matched = this.unwritten.has(job) ? job.status === 'running' || job.status === 'paused' : (await this.jobs.updateOne({ _id: job._id, status: { $in: ['running', 'paused'] } }, { $set })).matched > 0;
    // Ended otherwise meanwhile (canceled): the variables are still the job's.
    if (!matched) {
      if (set && !this.unwritten.has(job)) await this.jobs.updateOne({ _id: job._id }, { $set: set });
      return [];
    }
    Object.assign(job, { status: 'complete', reachedEnd, last_updated: now, metrics: { ...job.metrics, end_time: endTime } });
    // A job not written yet is said complete by its start, after it (start.ts).
    if (!this.unwritten.has(job)) sayStatus(this.parts.log, job, 'complete');
    // Only a child job has a parent task to finish (`parent` is set at its start, never after).
    return job.parent ? [{ kind: 'child-ended', childId: job._id }] : [];
  }

  /** Sets the job's status (conditional on the one `job` has); a child job that stops tells its parent. */
  async writeStatus(job: JobDoc, status: JobStatus, failure?: JobFailure): Promise<FollowUp[]> {
    const now = Date.now();
    // `error`: the service's array, the failure after those the job holds (job-error.ts).
    const set: Record<string, unknown> = { status, last_updated: now, ...(failure ? { error: [...jobErrors(job), { ...failure, timestamp: now }] } : {}) };
    if (status === 'complete' || status === 'canceled') set['metrics.end_time'] = now;
    const unwritten = this.unwritten.has(job);
    const matched = unwritten || (await this.jobs.updateOne({ _id: job._id, status: job.status }, { $set: set })).matched > 0;
    if (matched && !unwritten) sayStatus(this.parts.log, job, status, { from: job.status, ...(failure !== undefined ? { error: messageText(failure.message), task: failure.task } : {}) });
    Object.assign(job, { status, last_updated: now }, set.error ? { error: set.error } : {});
    if (set['metrics.end_time'] !== undefined) job.metrics = { ...job.metrics, end_time: now };
    return (status === 'error' || status === 'canceled') && job.parent ? [{ kind: 'child-ended', childId: job._id }] : [];
  }

  /** A child's end for its parent's task, and an operator's action. */
  private async other(job: JobDoc, write: Extract<Write, { kind: 'child' }> | OperatorWrite): Promise<FollowUp[]> {
    if (write.kind === 'child') return this.childStep(write.step, write.waiting);
    return operatorWritten(this.parts, job, write);
  }

  private async childStep(step: ChildStep, waiting: TaskRecord): Promise<FollowUp[]> {
    switch (step.kind) {
      case 'none':
        return [];
      case 'end':
        return [{ kind: 'end-waiting', recordId: waiting._id, outcome: step.outcome }];
      case 'start-next':
        return [{ kind: 'start-child', start: step.start, failure: `childJob: element ${step.index}` }];
      case 'collect': {
        const children: JobDoc[] = [];
        for (const id of step.plan.ids) {
          const c = await this.parts.reads.job(id);
          if (c) children.push(c);
          if (step.plan.type === 'sequential' && c && c.status !== 'complete') break;
        }
        const outcome = loopOutcome(step.plan, children);
        return outcome ? [{ kind: 'end-waiting', recordId: waiting._id, outcome }] : [];
      }
    }
  }

  /**
   * An operator's action on a job, as one unit of work (one transaction on the embedded store): the job, its records and claims read, the action
   * decided, its writes and what follows made; refused (a ConsoleError) with nothing written, as by `check` on the job read. Answers the job then.
   */
  async act(jobId: string, action: OperatorAction, check?: (job: JobDoc) => void): Promise<JobDoc> {
    const { reads, store } = this.parts;
    const work = async () => {
      const job = await reads.requireJob(jobId);
      check?.(job);
      const records = action.kind === 'cancel' || action.kind === 'pause' || action.kind === 'resume' ? [] : await reads.records(jobId, job);
      await this.decideAndCarryOut(job, records, action);
    };
    await unitOfWork(store, work, { session: true });
    return reads.requireJob(jobId);
  }

  /** An operator's action on one task record (a claim, a release, a take-over), as `act`; answers the record's claim after it. */
  async actOnRecord(recordId: string, action: Extract<OperatorAction, { recordId: string }>): Promise<TaskClaim | undefined> {
    const { reads, store } = this.parts;
    const work = async () => {
      const record = await reads.record(recordId);
      const job = record && (await reads.job(record.jobId));
      if (!record || !job) throw new ConsoleError('not_found', `no manual task "${recordId}" is waiting for an operator`);
      await this.decideAndCarryOut(job, await reads.records(job._id, job), action);
      return (await reads.claims.findOne({ _id: recordId })) ?? undefined;
    };
    return unitOfWork(store, work, { session: true });
  }

  /** An entry of a job's history written by the engine itself (a recovery). */
  async recordHistory(entry: { jobId: string; event: string; message: string; [field: string]: unknown }): Promise<void> {
    await this.parts.reads.history.insertOne({ _id: randomBytes(12).toString('hex'), ...entry, timestamp: typeof entry.timestamp === 'number' ? entry.timestamp : Date.now() });
  }

  private async decideAndCarryOut(job: JobDoc, records: TaskRecord[], action: OperatorAction) {
    const claims = action.kind === 'cancel' || action.kind === 'pause' || action.kind === 'resume' || action.kind === 'retry' ? undefined : await this.parts.reads.claimsOf(records);
    let decision: Decision;
    try {
      decision = decide({ job, records, event: { kind: 'operator', action }, now: Date.now(), claims });
    } catch (error) {
      // The decision core refuses with a DomainError; the caller is answered a ConsoleError.
      throw answeringDomain(error);
    }
    const follow = await this.apply(job, records, decision);
    if (follow.length) await this.drain(follow, true);
  }
}
