// Running one claimed task: its incoming values resolved, its method run (a built-in,
// an adapter's, forEach, a JST transformation, or a childJob's children started), then
// its end written and its job advanced, as one transaction where the store has them
// (the end, the job's variables, the next records and `advanced`). A next task may be
// claimed in that write for the worker that ran this one (run once it commits).
import type { Logger } from 'pino';
import type { Store } from '../../store/port';
import { isAtomic, unitOfWork } from '../../store/unit-of-work';
import { decodeVariables, encodeVariables, undefinedStoredAsNull } from '../../values/undefined-codec';
import { DEFAULT_SEMANTICS, type ReleaseSemantics } from '../../release/semantics';
import type { TaskOutcome } from '../tasks/library';
import { fence, type Claim, type TaskQueue, type TaskRecord } from '../queue/queue';
import { childPlan, loopOutcome } from './children';
import { scopeOf } from './decide';
import { isChildJob, type TaskMethodRunner } from './execute';
import type { Handoff, JobExecutor } from './executor';
import type { Held, HeldState } from './held';
import { forEachRun, isForEach, isTransformation, transformationRun, type TransformationRunner } from './own-tasks';
import type { JobReads } from './reads';
import { endFields, safeEncode, storedOutcome, withEnd } from './records';
import { sayTaskError } from './status-log';
import { ERROR_HANDLER, errorHandlerOf, retryOf } from './settings';
import type { JobStarter } from './start';
import type { JobDoc, TaskDefinition } from './types';
import { refersToTasks, resolveIncoming } from './variables';
import { firedOutcome, isDue, timerOf } from './timers';

export interface TaskRunParts {
  store: Store;
  queue: TaskQueue;
  reads: JobReads;
  executor: JobExecutor;
  starter: JobStarter;
  held: HeldState;
  log: Logger;
  runMethod: TaskMethodRunner;
  transformations?: TransformationRunner;
  /** The release whose semantics the run follows (core/release/semantics.ts); absent: 2022.1's. */
  semantics?: ReleaseSemantics;
}

/** What a task's run was handed: the job and records it was queued from, and the worker's hand-off for the next task. */
export type Given = Partial<Held> & {
  handoff?: Handoff;
  /** The task ends because its timer fired (timers.ts). */
  timer?: boolean;
  /** The job as the run read it, and its document's version before (held.ts): its end reads it again only when written since. */
  read?: { job: JobDoc; stamp?: string };
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class TaskRun {
  private readonly semantics: ReleaseSemantics;

  constructor(private readonly parts: TaskRunParts) {
    this.semantics = parts.semantics ?? DEFAULT_SEMANTICS;
  }

  /** Runs a claimed task and ends it; false when the worker's claim was lost or the signal aborted. */
  async execute(record: TaskRecord, signal?: AbortSignal, given: Given = {}): Promise<boolean> {
    const { reads, queue } = this.parts;
    const claim: Claim = { _id: record._id, workerId: record.workerId ?? '', attempt: record.attempt };
    const stamp = given.job ? undefined : this.parts.held.jobStamp(record.jobId, true);
    const job = given.job ?? (await reads.job(record.jobId));
    if (!given.job && job) given = { ...given, read: { job, stamp } };
    if (!job || job.status === 'canceled') return queue.complete(claim, { status: 'canceled', 'metrics.end_time': Date.now() });
    const definition = (record.taskId === ERROR_HANDLER ? errorHandlerOf(job) : job.tasks[record.taskId]) ?? { name: record.name, app: record.app };
    if (record.timer) return this.fire(claim, record, definition, given);
    let incoming: Record<string, unknown> = {};
    let outcome: TaskOutcome;
    try {
      // The job's task records are read only when a value refers to another task.
      const needsRecords = refersToTasks(definition.variables?.incoming) || isForEach(definition);
      const records = needsRecords ? (given.records ?? (await reads.records(job._id, job))) : [];
      const scope = scopeOf(job, records);
      // An operator's edit and retry gives the task its values as they are (retry-with-changes.ts).
      incoming = record.incomingOverride ? decodeVariables(record.incomingOverride) : resolveIncoming(definition.variables?.incoming, scope);
      if (isChildJob(definition)) return await this.startChildren(claim, record, job, incoming);
      if (isForEach(definition)) {
        const previous = records.find((r) => r.taskId === record.taskId && r.iteration === record.iteration - 1);
        outcome = forEachRun(record, previous, incoming);
      } else if (isTransformation(definition)) outcome = await transformationRun(this.parts.transformations, incoming);
      else outcome = await this.parts.runMethod(definition, incoming, { signal, jobVariables: scope.job, iteration: record.iteration, timers: true, semantics: this.semantics });
      outcome = storedOutcome(this.semantics, outcome);
    } catch (error) {
      if (signal?.aborted) return false;
      outcome = { state: 'error', outgoing: {}, error: message(error) };
    }
    if (signal?.aborted) return false;
    // A wait the task asked for: its record is queued for the due time, and this worker's slot is free.
    if (outcome.after !== undefined && outcome.after > 0) {
      const now = Date.now();
      const timer = timerOf(record, outcome, now);
      const set = await queue.wait(claim, timer, safeEncode(incoming, 'incoming'));
      if (set) this.parts.log.debug({ jobId: record.jobId, taskId: record.taskId, recordId: record._id, due: timer.due }, `task ${record.taskId} (${record.name}) waits until ${new Date(timer.due).toISOString()}`);
      return set;
    }
    if (outcome.state === 'error' && (await this.retryLater(claim, record, definition, outcome))) return true;
    return this.finishClaimed(claim, record, { incoming, outcome }, given);
  }

  /** A claimed record whose timer is set: it ends as its task said it would (and retrySettings apply), or waits on when claimed early. */
  private async fire(claim: Claim, record: TaskRecord, definition: TaskDefinition, given: Given): Promise<boolean> {
    const timer = record.timer!;
    // Claimed before its time (a paused job resumed, a lease swept): queued again for it.
    if (!isDue(timer, Date.now())) return this.parts.queue.release(claim, timer.due);
    const outcome = firedOutcome(timer);
    if (outcome.state === 'error' && (await this.retryLater(claim, record, definition, outcome))) return true;
    const incoming = decodeVariables(record.incoming ?? {});
    return this.finishClaimed(claim, { ...record, queuedAt: timer.queued, metrics: { ...record.metrics, start_time: timer.started } }, { incoming, outcome }, { ...given, timer: true });
  }

  /** retrySettings: an error is run again after `delay` ms, up to `limit` times; true when queued again. */
  private async retryLater(claim: Claim, record: TaskRecord, definition: TaskDefinition, outcome: TaskOutcome): Promise<boolean> {
    const retry = retryOf(definition);
    const done = record.autoRetries ?? 0;
    if (!retry || done >= retry.limit) return false;
    const now = Date.now();
    const history = [...(record.retryErrors ?? []), outcome.error ?? 'error'];
    const result = await this.parts.queue.tasks.updateOne(fence(claim), {
      $set: { status: 'queued', runAfter: now + retry.delay, autoRetries: done + 1, retryErrors: history },
      // A timer that fired into this error is spent: the retry runs the task again.
      $unset: { workerId: '', leaseUntil: '', timer: '' },
    });
    if (result.matched > 0) {
      const ids = { jobId: record.jobId, taskId: record.taskId, recordId: record._id, workerId: claim.workerId, retry: done + 1, of: retry.limit };
      this.parts.log.warn({ ...ids, error: outcome.error }, `task ${record.taskId} (${record.name}) failed, retried in ${retry.delay} ms (${done + 1} of ${retry.limit}): ${outcome.error ?? 'error'}`);
    }
    return result.matched > 0;
  }

  /**
   * Writes a claimed task's end and advances its job. Where the store has transactions
   * the end, the job's variables, the next records and `advanced` are one write; a next
   * task may be claimed in it for `given.handoff`'s worker (run once it commits).
   */
  async finishClaimed(claim: Claim, record: TaskRecord, end: { incoming: Record<string, unknown>; outcome: TaskOutcome }, given: Given = {}): Promise<boolean> {
    const { store, queue, held, executor } = this.parts;
    const { outcome } = end;
    // A timer's task keeps the queue and start times of its first run, not its due time.
    const fields = given.timer ? { ...endFields(end.incoming, outcome), queuedAt: record.queuedAt, 'metrics.start_time': record.metrics.start_time } : endFields(end.incoming, outcome);
    const atomic = isAtomic(store);
    const claimed: { record: TaskRecord; held: Held }[] = [];
    const marking: Promise<{ error: unknown } | undefined>[] = [];
    const handoff = given.handoff;
    const write = async () => {
      // Checked before this transaction writes: nothing of the job written since `given` was.
      const found = atomic ? held.current(record.jobId, given) : undefined;
      const current = found instanceof Promise ? await found : found;
      const readJob = atomic && !current ? held.currentJob(record.jobId, given.read) : undefined;
      const job = readJob instanceof Promise ? await readJob : readJob;
      if (!(await queue.complete(claim, atomic ? { ...fields, advanced: true } : fields, given.timer))) return false;
      // The record as just written, given to the advance: re-read inside the transaction it would
      // already say `advanced: true`, and the job would never be advanced.
      const written = withEnd(record, fields);
      const kept = current && { job: current.job, records: current.records.map((r) => (r._id === written._id ? { ...written, advanced: true } : r)) };
      await executor.afterEnd(claim._id, written, { atomic, handoff: handoff && { ...handoff, claimed }, held: kept, job, marking, timer: given.timer });
      held.stampAll(record.jobId, claimed);
      return true;
    };
    const ended = await unitOfWork(store, write);
    if (ended && outcome.state === 'error') {
      sayTaskError(this.parts.log, { jobId: record.jobId, taskId: record.taskId, recordId: claim._id, workerId: claim.workerId, task: record.name }, outcome.error);
    }
    for (const next of claimed) handoff?.run(next.record, next.held);
    // The `advanced` mark (MongoDB) is written while the next task runs; left unwritten, the sweeper advances the record again.
    if (marking.length) for (const mark of await Promise.all(marking)) if (mark) throw mark.error;
    return ended;
  }

  /** childJob: names its children on the record, starts them, and leaves the task waiting for them. */
  private async startChildren(claim: Claim, record: TaskRecord, job: JobDoc, incoming: Record<string, unknown>): Promise<boolean> {
    const { executor, starter } = this.parts;
    const plan = await childPlan(job, record, incoming, { transformations: this.parts.transformations, undefinedAs: this.semantics.childUndefined });
    if (plan.kind === 'error') return this.finishClaimed(claim, record, { incoming, outcome: { state: 'error', outgoing: {}, error: plan.error } });
    // Name the children on the record before starting them, so a retry after a crash finds them.
    const named = await this.parts.queue.tasks.updateOne(fence(claim), {
      $set: { childJob: plan.base, incoming: encodeVariables(incoming, 'incoming'), ...(plan.plan ? { loop: plan.plan } : {}) },
    });
    if (!named.matched) return false;
    if (plan.plan?.ids.length === 0) {
      const outcome = loopOutcome(plan.plan, []);
      if (outcome) await executor.drain(await executor.endWaiting(record._id, outcome));
      return true;
    }
    try {
      const stored = this.semantics.undefinedStored === 'null' ? (v: Record<string, unknown>) => undefinedStoredAsNull(v) : (v: Record<string, unknown>) => v;
      for (const start of plan.starts) await starter.startChild({ ...start, variables: stored(start.variables) });
    } catch (error) {
      await executor.drain(await executor.endWaiting(record._id, { state: 'error', outgoing: {}, error: `childJob: ${message(error)}` }));
      return true;
    }
    // The task now waits for its children; the end of each comes back through the executor.
    await this.parts.queue.tasks.updateOne(fence(claim), { $set: { status: 'waiting' }, $unset: { leaseUntil: '' } });
    // A child that already ended (an empty workflow) finishes the task now.
    for (const id of plan.plan ? plan.plan.ids : [plan.base]) await executor.drain(await executor.endedAlready(id));
    return true;
  }
}
