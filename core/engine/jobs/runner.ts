// The job runner: starts jobs, runs a claimed task, and advances a job after each
// task ends by creating the task records that can run next (graph.ts). Advancing
// only reads the store and writes records with deterministic ids, so it is safe to
// repeat: a worker that dies between a task's end and the advance leaves the
// record `advanced: false`, and the worker's recovery pass advances it again.
// A task run again (a revert transition, a forEach element) is a new record, one
// per iteration; an automatic retry (retrySettings) runs the same record again.
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Collection, Store } from '../../store/port';
import { isDuplicateKey } from '../../store/errors';
import { OpError } from '../../dispatch/dispatch';
import { decodeVariables, encodeValue, rejectMarker } from '../../values/undefined-codec';
import type { TaskOutcome } from '../tasks/library';
import { getWorkflow } from '../workflow/repository';
import { RecentJobs, RecentWorkflows } from './recent';
import { WorkflowWrites } from '../workflow/writes';
import { HeldState, type Held } from './held';
import { jobVariablesSet, JobWrites, type PendingVariables } from './job-writes';
import { AdvancedMarks } from '../queue/advanced-marks';
import { fence, TaskQueue, type Claim, type FinishState, type TaskRecord } from '../queue/queue';
import { END, isFinished, latestRecords, readyTasks, START, type ReadyTask } from './graph';
import { isChildJob, type TaskMethodRunner } from './execute';
import { checkVariables } from './input-schema';
import { jobStartVariables } from '../workflow/job-variables';
import { errorWrites, jobWrites, refersToTasks, resolveIncoming, type Scope } from './variables';
import { boundaryRecord, endFields, hasTransition, isManual, taskRecord, withEnd } from './records';
import { finishParentTask, startChildJob } from './children';
import { forEachRun, isForEach, isTransformation, transformationRun, type TransformationRunner } from './own-tasks';
import { ERROR_HANDLER, errorHandlerOf, retryOf } from './settings';
import * as actions from './actions';
import { TERMINAL, type JobDoc, type JobStatus, type TaskDefinition } from './types';
import type { RunnerPort, StartOptions } from './port';

export type { Held } from './held';

export { recordId } from './records';
export type { StartOptions } from './port';

export interface WorkflowSource {
  name: string;
  description?: string;
  tasks: Record<string, TaskDefinition>;
  transitions?: JobDoc['transitions'];
  inputSchema?: Record<string, unknown>;
  errorHandler?: unknown;
}

export interface RunnerOptions {
  store: Store;
  runMethod: TaskMethodRunner;
  /** Defaults to the workflow repository (the `workflows` collection). */
  loadWorkflow?: (name: string) => Promise<WorkflowSource | null>;
  /** The container's workflow writes: a workflow read by name is read again after one (default: this runner's own count). */
  workflowWrites?: WorkflowWrites;
  /** Runs JST transformations (the `transformation` task, childJob's `transformation`); absent: those fail naming it. */
  transformations?: TransformationRunner;
  /** Each job state change and task error is logged here with the job's and task's ids. */
  log?: Logger;
}

const newId = () => randomBytes(12).toString('hex');

/** A worker's handoff in an advance: `claimed` gets the record claimed for it, with what its run is handed. */
type AdvanceHandoff = Handoff & { claimed?: { record: TaskRecord; held: Held }[] };

/**
 * Eager dispatch: the worker running a task lets the runner claim one next task of
 * the same job for it, in the same write that queues it (still fenced and leased).
 */
export interface Handoff {
  /** The worker's id and a lease for one more task now, or undefined when it has no room. */
  take(): { workerId: string; leaseUntil: number } | undefined;
  /** Runs a record claimed for this worker, with the job and records it was made from. */
  run(record: TaskRecord, held: Held): void;
  /** A claim taken and not run (its record was not written): frees what `take` reserved. */
  drop?(): void;
}

export class JobRunner implements RunnerPort {
  readonly store: Store;
  readonly jobs: Collection;
  readonly queue: TaskQueue;
  readonly transformations?: TransformationRunner;
  private readonly runMethod: TaskMethodRunner;
  private readonly loadWorkflow: (name: string) => Promise<WorkflowSource | null>;
  readonly log: Logger;
  /** Set by this process's task worker while it runs: eager dispatch of a job's first task at its start. */
  dispatchAtStart?: () => Handoff | undefined;
  /** Told when this runner queued a task no worker holds yet (the task worker's poke). */
  onQueued?: () => void;

  constructor(options: RunnerOptions) {
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'jobs' });
    this.store = options.store;
    this.jobs = options.store.collection('jobs');
    this.queue = new TaskQueue(options.store);
    this.advancedMarks = new AdvancedMarks(this.queue.tasks);
    this.writes = new JobWrites(this.jobs, this.queue.tasks);
    this.runMethod = options.runMethod;
    this.transformations = options.transformations;
    this.recentJobs = new RecentJobs(this.jobs);
    this.held = new HeldState(options.store);
    const recentWorkflows = new RecentWorkflows((name) => getWorkflow(options.store, name) as Promise<WorkflowSource | null>, options.workflowWrites ?? new WorkflowWrites());
    this.loadWorkflow = options.loadWorkflow ?? ((name) => recentWorkflows.get(name));
  }

  /** The fixed fields of recent jobs (never written after the start): their reads leave them out. */
  private readonly recentJobs: RecentJobs;
  /** `advanced: true` writes of tasks ending side by side, together (no transactions: MongoDB). */
  private readonly advancedMarks: AdvancedMarks;
  /** Task records and job variables written. */
  private readonly writes: JobWrites;
  /** Whether what a task's run was handed is still what the store holds. */
  private readonly held: HeldState;

  // ---- reading ----

  async job(id: string): Promise<JobDoc | null> {
    return this.recentJobs.read(id);
  }

  async requireJob(id: string): Promise<JobDoc> {
    const job = await this.job(id);
    if (!job) throw new OpError(404, `no job with id "${id}"`);
    return job;
  }

  async records(jobId: string): Promise<TaskRecord[]> {
    return (await this.queue.tasks.find({ jobId }, { sort: { queuedAt: 1 } })) as TaskRecord[];
  }

  /** What references read: the job variables (with `_id` and `initiator`), and each task's last finished run. */
  scope(job: JobDoc, records: TaskRecord[]): Scope {
    const latest = latestRecords(records.filter((r) => isFinished(r)));
    return {
      job: jobStartVariables(decodeVariables(job.variables), { id: job._id, initiator: job.metrics.user }),
      task: (taskId) => {
        const record = latest.get(taskId) as TaskRecord | undefined;
        if (!record) return undefined;
        const outgoing = decodeVariables(record.outgoing);
        return record.error !== undefined && !('error' in outgoing) ? { ...outgoing, error: record.error } : outgoing;
      },
    };
  }

  // ---- starting ----

  async start(workflowName: string, options: StartOptions = {}): Promise<JobDoc> {
    if (!workflowName) throw new OpError(400, 'workflow: the name of the workflow to start is required');
    const workflow = await this.loadWorkflow(workflowName);
    if (!workflow) throw new OpError(404, `no workflow named "${workflowName}"`);
    const variables = options.variables ?? {};
    try {
      rejectMarker(variables, 'options.variables');
    } catch (error) {
      throw new OpError(400, (error as Error).message);
    }
    const id = options.id ?? newId();
    const user = options.user ?? 'console';
    // The service's own job variables (_id, initiator) are there before the inputSchema is checked
    // (references read them through scope(); the stored variables are those given).
    const initial = jobStartVariables(variables, { id, initiator: user });
    const problems = checkVariables(initial, workflow.inputSchema);
    if (problems.length) {
      throw new OpError(400, `the variables do not fit the inputSchema of workflow "${workflow.name}": ${problems.join('; ')}`, { problems });
    }
    const now = Date.now();
    const job: JobDoc = {
      _id: id,
      name: workflow.name,
      description: options.description ?? workflow.description ?? '',
      status: 'running',
      variables: encodeValue(variables, 'variables') as Record<string, unknown>,
      metrics: { start_time: now, user },
      children: [],
      tasks: workflow.tasks,
      transitions: workflow.transitions ?? {},
      ...(workflow.errorHandler ? { errorHandler: workflow.errorHandler } : {}),
      last_updated: now,
      ...(options.parent ? { parent: options.parent } : {}),
    };
    // The job, its first record and its advance are one transaction where the store has them.
    const handoff = this.dispatchAtStart?.();
    const claimed: { record: TaskRecord; held: Held }[] = [];
    let started: boolean;
    try {
      started = await this.atomically(async () => {
        try {
          await this.jobs.insertOne(job);
        } catch (error) {
          if (!(options.id && isDuplicateKey(error))) throw error;
          return false; // started already, by an earlier attempt
        }
        this.recentJobs.remember(job);
        if (options.parent) await this.linkChild(options.parent.job, job._id);
        const first = boundaryRecord(job._id, START, 0, [], now);
        // The job and its records are the ones just written: no re-read. The start record is
        // written with the first tasks' records (one call), before them.
        await this.advance(job._id, job, handoff && { ...handoff, claimed }, [first], [first]);
        this.held.stampAll(job._id, claimed);
        return true;
      });
    } catch (error) {
      claimed.length = 0;
      throw error;
    } finally {
      if (claimed.length === 0) handoff?.drop?.();
    }
    for (const { record, held } of claimed) handoff!.run(record, held);
    if (started) this.log.info({ jobId: job._id, workflow: job.name, status: 'running', ...(options.parent ? { parentJobId: options.parent.job } : {}) }, `job of workflow "${job.name}" started`);
    // The job as advanced (its status follows each write); an earlier attempt's job is read.
    return started ? job : (await this.job(options.id!))!;
  }

  /** Runs `fn` as one transaction where the store has them (SQLite), as it is otherwise. */
  private atomically<T>(fn: () => Promise<T>): Promise<T> {
    return this.store.transaction ? this.store.transaction(fn) : fn();
  }

  // ---- the store writes of the runner ----

  private async linkChild(parentId: string, childId: string) {
    const parent = await this.job(parentId);
    if (parent && !parent.children?.includes(childId)) {
      await this.jobs.updateOne({ _id: parentId }, { $set: { children: [...(parent.children ?? []), childId] } });
    }
  }

  async setStatus(job: JobDoc, status: JobStatus, error?: string) {
    const now = Date.now();
    const set: Record<string, unknown> = { status, last_updated: now };
    if (error !== undefined) set.error = error;
    if (status === 'complete' || status === 'canceled') set['metrics.end_time'] = now;
    const result = await this.jobs.updateOne({ _id: job._id, status: job.status }, { $set: set });
    if (result.matched) {
      const entry = { jobId: job._id, workflow: job.name, status, from: job.status, ...(error !== undefined ? { error } : {}) };
      if (status === 'error') this.log.error(entry, `job of workflow "${job.name}" stopped in error: ${error ?? ''}`);
      else this.log.info(entry, `job of workflow "${job.name}" ${status}`);
    }
    job.status = status;
    job.last_updated = now;
    if (error !== undefined) job.error = error;
    if (set['metrics.end_time'] !== undefined) job.metrics = { ...job.metrics, end_time: now };
    if (status === 'error' || status === 'canceled') await this.finishParentTask(job._id);
  }

  // ---- advancing ----

  /**
   * Creates the records of the tasks that can run now; completes or fails the job when it cannot go on.
   * `unwritten`: records of `known` not written yet (a job's start record), written first, with the
   * new records in one call.
   */
  async advance(jobId: string, loaded?: JobDoc, handoff?: AdvanceHandoff, known?: TaskRecord[], unwritten: TaskRecord[] = [], variables: PendingVariables = {}): Promise<void> {
    await this.advanceOnce(jobId, loaded, handoff, known, unwritten, variables);
    // Nothing else was written (or the job had ended already): the variables alone.
    await this.writes.writeVariables(jobId, variables);
  }

  /** The advance; `variables` are written before its first write, or with the job's completion. */
  private async advanceOnce(jobId: string, loaded: JobDoc | undefined, handoff: AdvanceHandoff | undefined, known: TaskRecord[] | undefined, unwritten: TaskRecord[], variables: PendingVariables): Promise<void> {
    const job = loaded ?? (await this.job(jobId));
    if (!job || TERMINAL.includes(job.status)) return;
    const records = known ?? (await this.records(jobId));
    let pending = unwritten;
    const write = async (more: TaskRecord[] = []) => {
      const batch = [...pending, ...more];
      pending = [];
      // The next task reads the job's variables: they are written before its record.
      if (batch.length) await this.writes.writeVariables(jobId, variables);
      const written = await this.writes.insertRecords(batch);
      if (batch.some((r) => r.status === 'queued' && written.has(r._id))) this.onQueued?.();
      return written;
    };
    const stopped = this.stoppedOn(job, records);
    if (stopped && job.status === 'running') {
      // The workflow's errorHandler runs once before the job ends in error.
      const handler = errorHandlerOf(job);
      const handled = records.find((r) => r.taskId === ERROR_HANDLER);
      if (handler && !handled) {
        await write([taskRecord(job, { taskId: ERROR_HANDLER, iteration: 0, from: [] }, handler, Date.now())]);
        return;
      }
      await write();
      if (!handled || isFinished(handled)) {
        await this.writes.writeVariables(jobId, variables);
        const note = handled ? `; the workflow's errorHandler ran and ended in ${handled.finishState}${handled.error ? `: ${handled.error}` : ''}` : '';
        await this.setStatus(job, 'error', stopped + note);
      }
    }

    const ready = readyTasks(Object.keys(job.tasks), job.transitions, records.filter((r) => r.taskId !== ERROR_HANDLER));
    // What references read, for a manual task's incoming only: made when one is ready.
    let scope: Scope | undefined;
    const scopeNow = () => (scope ??= this.scope(job, records));
    const end = ready.find((task) => task.taskId === END);
    const batch: TaskRecord[] = [];
    let claimed: TaskRecord | undefined;
    // The tasks before workflow_end in the ready list (none follow it once it is reached).
    for (const task of ready.slice(0, end ? ready.indexOf(end) : ready.length)) {
      const next = this.newRecord(job, task, scopeNow);
      const claim = !claimed && handoff?.claimed && handoff.claimed.length === 0 && next.status === 'queued' && next.runAfter <= next.queuedAt ? handoff.take() : undefined;
      if (claim) {
        Object.assign(next, { status: 'running', workerId: claim.workerId, attempt: 1, leaseUntil: claim.leaseUntil, metrics: { claimed_at: next.queuedAt, start_time: next.queuedAt } });
        claimed = next;
      }
      batch.push(next);
    }
    const written = await write(batch);
    if (claimed) {
      // Records another server wrote first are not known here: those held are then not used for the advance.
      const exact = batch.every((r) => written.has(r._id));
      if (written.has(claimed._id)) handoff!.claimed!.push({ record: claimed, held: { job, records: exact ? [...records, ...batch] : records, ...(exact ? {} : { inexact: true }) } });
      else handoff!.drop?.();
    }
    if (end) {
      await this.reachEnd(job, end, variables);
      return;
    }
    if (ready.length === 0 && !stopped && job.status === 'running') {
      const latest = latestRecords(records);
      const busy = [...latest.values()].some((r) => ['queued', 'running', 'waiting'].includes(r.status));
      if (!busy) {
        const ends = [...latest.values()].filter((r) => r.taskId !== START && isFinished(r)).map((r) => `${r.taskId} (${r.finishState})`);
        await this.writes.writeVariables(jobId, variables);
        await this.setStatus(job, 'error', `the job cannot reach workflow_end: no transition leads on from ${ends.join(', ') || 'workflow_start'}`);
      }
    }
  }

  /** Why the job is stopped: a task that errored with no error transition to take. */
  stoppedOn(job: JobDoc, records: TaskRecord[]): string | undefined {
    for (const record of latestRecords(records).values()) {
      const r = record as TaskRecord;
      if (r.taskId === ERROR_HANDLER) continue;
      if (r.status === 'error' && !hasTransition(job, r.taskId, 'error')) {
        return `task ${r.taskId} (${r.name}) failed with no error transition: ${r.error ?? 'error'}`;
      }
    }
    return undefined;
  }

  private newRecord(job: JobDoc, task: ReadyTask, scope: () => Scope): TaskRecord {
    const definition = job.tasks[task.taskId] ?? { name: task.taskId };
    const record = taskRecord(job, task, definition, Date.now());
    if (isManual(definition)) {
      // An operator reads what the task is about (ViewData: header, message, body, buttons) before finishing it.
      try {
        record.incoming = encodeValue(resolveIncoming(definition.variables?.incoming, scope()), 'incoming') as Record<string, unknown>;
      } catch (error) {
        // Shown to the operator on the task; the run reports what cannot be resolved.
        record.incoming = {};
        record.error = `incoming values cannot be shown: ${(error as Error).message}`;
      }
    }
    return record;
  }

  /** The end record, then the job complete, with the variables its last task wrote in the same write. */
  private async reachEnd(job: JobDoc, task: ReadyTask, variables: PendingVariables) {
    const now = Date.now();
    await this.writes.insertRecord(boundaryRecord(job._id, END, task.iteration, task.from, now));
    const set = variables.set;
    variables.set = undefined;
    const result = await this.jobs.updateOne(
      { _id: job._id, status: { $in: ['running', 'paused'] } },
      { $set: { ...set, status: 'complete', 'metrics.end_time': now, last_updated: now } },
    );
    // Ended otherwise meanwhile (canceled): the variables are still the job's.
    if (!result.matched && set) await this.writes.writeVariables(job._id, { set });
    if (result.matched) {
      Object.assign(job, { status: 'complete', last_updated: now, metrics: { ...job.metrics, end_time: now } });
      this.log.info({ jobId: job._id, workflow: job.name, status: 'complete' }, `job of workflow "${job.name}" complete`);
      // Only a child job has a parent task to finish (`parent` is set at its start, never after).
      if (job.parent) await this.finishParentTask(job._id);
    }
  }

  /**
   * After a record ended: write its job variables, advance the job, mark it advanced.
   * `known`: the record as just written. `atomic`: in the transaction that ended it
   * (which wrote `advanced: true` already). `marking`: the mark's write goes there, not waited
   * for, so the caller hands the job's next task on first (its outcome: undefined, or the error).
   */
  async afterEnd(id: string, known?: TaskRecord, options: { atomic?: boolean; handoff?: AdvanceHandoff; held?: Held; marking?: Promise<{ error: unknown } | undefined>[] } = {}): Promise<void> {
    const record = known ?? ((await this.queue.tasks.findOne({ _id: id })) as TaskRecord | null);
    if (!record || record.advanced !== false) return;
    // Not handed them: the job and its records are read side by side (one round trip on MongoDB), after the end was written.
    const [job, records] = options.held ? [options.held.job, options.held.records] : await Promise.all([this.job(record.jobId), this.records(record.jobId)]);
    if (job) {
      const definition = record.taskId === ERROR_HANDLER ? errorHandlerOf(job) : job.tasks[record.taskId];
      const set = jobVariablesSet(job, {
        ...decodeVariables(record.jobVariables as Record<string, unknown> | undefined),
        ...jobWrites(definition?.variables?.outgoing, decodeVariables(record.outgoing)),
        ...(record.status === 'error' ? errorWrites((definition?.variables as { error?: unknown } | undefined)?.error, record.error) : {}),
      });
      await this.advance(job._id, job, options.handoff, records, [], { set });
    }
    if (options.atomic) return;
    if (options.marking) options.marking.push(this.advancedMarks.mark(id).then(() => undefined, (error: unknown) => ({ error })));
    else await this.advancedMarks.mark(id);
  }

  // ---- running a claimed task (the worker) ----

  /** Runs a claimed task and ends it; false when the worker's claim was lost or the signal aborted. */
  async execute(record: TaskRecord, signal?: AbortSignal, given: Partial<Held> & { handoff?: Handoff } = {}): Promise<boolean> {
    const claim: Claim = { _id: record._id, workerId: record.workerId!, attempt: record.attempt };
    const job = given.job ?? (await this.job(record.jobId));
    if (!job || job.status === 'canceled') {
      return this.queue.complete(claim, { status: 'canceled', 'metrics.end_time': Date.now() });
    }
    const definition = (record.taskId === ERROR_HANDLER ? errorHandlerOf(job) : job.tasks[record.taskId]) ?? { name: record.name, app: record.app };
    let incoming: Record<string, unknown> = {};
    let outcome: TaskOutcome;
    try {
      // The job's task records are read only when a value refers to another task.
      const needsRecords = refersToTasks(definition.variables?.incoming) || isForEach(definition);
      const records = needsRecords ? (given.records ?? (await this.records(job._id))) : [];
      const scope = this.scope(job, records);
      incoming = resolveIncoming(definition.variables?.incoming, scope);
      if (isChildJob(definition)) return await startChildJob(this, record, claim, job, incoming);
      if (isForEach(definition)) {
        const previous = records.find((r) => r.taskId === record.taskId && r.iteration === record.iteration - 1);
        outcome = forEachRun(record, previous, incoming);
      } else if (isTransformation(definition)) outcome = await transformationRun(this.transformations, incoming);
      else outcome = await this.runMethod(definition, incoming, { signal, jobVariables: scope.job, iteration: record.iteration });
    } catch (error) {
      if (signal?.aborted) return false;
      outcome = { state: 'error', outgoing: {}, error: (error as Error).message };
    }
    if (signal?.aborted) return false;
    if (outcome.state === 'error' && (await this.retryLater(claim, record, definition, outcome))) return true;
    return this.finishClaimed(claim, incoming, outcome, record, given.handoff, given);
  }

  /** retrySettings: an error is run again after `delay` ms, up to `limit` times; true when queued again. */
  private async retryLater(claim: Claim, record: TaskRecord, definition: TaskDefinition, outcome: TaskOutcome): Promise<boolean> {
    const retry = retryOf(definition);
    const done = (record.autoRetries as number | undefined) ?? 0;
    if (!retry || done >= retry.limit) return false;
    const now = Date.now();
    const history = [...((record.retryErrors as string[] | undefined) ?? []), outcome.error ?? 'error'];
    const result = await this.queue.tasks.updateOne(fence(claim), {
      $set: { status: 'queued', runAfter: now + retry.delay, autoRetries: done + 1, retryErrors: history },
      $unset: { workerId: '', leaseUntil: '' },
    });
    if (result.matched > 0) {
      const ids = { jobId: record.jobId, taskId: record.taskId, recordId: record._id, workerId: claim.workerId, retry: done + 1, of: retry.limit };
      this.log.warn({ ...ids, error: outcome.error }, `task ${record.taskId} (${record.name}) failed, retried in ${retry.delay} ms (${done + 1} of ${retry.limit}): ${outcome.error ?? 'error'}`);
    }
    return result.matched > 0;
  }

  /**
   * Writes a claimed task's end and advances its job. Where the store has transactions
   * the end, the job's variables, the next records and `advanced` are one write; a next
   * task may be claimed in it for `handoff`'s worker (run once it commits).
   */
  async finishClaimed(claim: Claim, incoming: Record<string, unknown>, outcome: TaskOutcome, record: TaskRecord, handoff?: Handoff, given?: Partial<Held>): Promise<boolean> {
    const fields = endFields(incoming, outcome);
    const atomic = Boolean(this.store.transaction);
    const claimed: { record: TaskRecord; held: Held }[] = [];
    const marking: Promise<{ error: unknown } | undefined>[] = [];
    const ended = await this.atomically(async () => {
      // Checked before this transaction writes: nothing of the job written since `given` was.
      const current = atomic ? await this.held.current(record.jobId, given) : undefined;
      if (!(await this.queue.complete(claim, atomic ? { ...fields, advanced: true } : fields))) return false;
      // The record as just written, given to the advance: re-read inside the transaction it would
      // already say `advanced: true`, and the job would never be advanced.
      const written = withEnd(record, fields);
      const held = current && { job: current.job, records: current.records.map((r) => (r._id === written._id ? { ...written, advanced: true } : r)) };
      await this.afterEnd(claim._id, written, { atomic, handoff: handoff && { ...handoff, claimed }, held, marking });
      this.held.stampAll(record.jobId, claimed);
      return true;
    });
    if (ended && outcome.state === 'error') {
      const ids = { jobId: record.jobId, taskId: record.taskId, recordId: claim._id, workerId: claim.workerId, task: record.name };
      this.log.error({ ...ids, error: outcome.error }, `task ${record.taskId} (${record.name}) ended in error: ${outcome.error ?? 'error'}`);
    }
    for (const { record: next, held } of claimed) handoff!.run(next, held);
    // The `advanced` mark (MongoDB) is written while the next task runs; left unwritten, the sweeper advances the record again.
    for (const outcome of await Promise.all(marking)) if (outcome) throw outcome.error;
    return ended;
  }

  async finishParentTask(childId: string) {
    await finishParentTask(this, childId);
  }

  // ---- operator actions (actions.ts) ----

  cancel(id: string) {
    return actions.cancel(this, id);
  }

  pause(id: string) {
    return actions.pause(this, id);
  }

  resume(id: string) {
    return actions.resume(this, id);
  }

  retryTask(id: string, taskId: string) {
    return actions.retryTask(this, id, taskId);
  }

  finishTask(id: string, taskId: string, values: Record<string, unknown> = {}, state: FinishState = 'success') {
    return actions.finishTask(this, id, taskId, values, state);
  }

  async childIds(job: JobDoc): Promise<string[]> {
    const linked = (await this.jobs.find({ 'parent.job': job._id }, { sort: { 'metrics.start_time': 1 } })).map((c) => String(c._id));
    return [...new Set([...(job.children ?? []), ...linked])];
  }
}
