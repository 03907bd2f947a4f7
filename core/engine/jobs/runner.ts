// The job runner: starts jobs, runs a claimed task, and advances a job after each
// task ends by creating the task records that can run next (graph.ts). Advancing
// only reads the store and writes records with deterministic ids, so it is safe to
// repeat: a worker that dies between a task's end and the advance leaves the
// record `advanced: false`, and the worker's recovery pass advances it again.
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Collection, Store } from '../../store/port';
import { isDuplicateKey } from '../../store/errors';
import { OpError } from '../../dispatch/dispatch';
import { childJobVariables, decodeVariables, encodeValue, MarkerValueError, rejectMarker } from '../../values/undefined-codec';
import type { TaskOutcome } from '../tasks/library';
import { getWorkflow } from '../workflow/repository';
import { fence, NEVER, TaskQueue, type Claim, type FinishState, type TaskRecord } from '../queue/queue';
import { END, isFinished, latestRecords, readyTasks, START, type ReadyTask } from './graph';
import { isChildJob, type TaskMethodRunner } from './execute';
import { checkVariables } from './input-schema';
import { jobWrites, resolveIncoming, type Scope } from './variables';
import { TERMINAL, type JobDoc, type JobStatus, type TaskDefinition } from './types';

export interface WorkflowSource {
  name: string;
  description?: string;
  tasks: Record<string, TaskDefinition>;
  transitions?: JobDoc['transitions'];
  inputSchema?: Record<string, unknown>;
}

export interface StartOptions {
  description?: string;
  variables?: Record<string, unknown>;
  user?: string;
  parent?: { job: string; task: string; record: string };
  id?: string;
}

export interface RunnerOptions {
  store: Store;
  runMethod: TaskMethodRunner;
  /** Defaults to the workflow repository (the `workflows` collection). */
  loadWorkflow?: (name: string) => Promise<WorkflowSource | null>;
  /** Each job state change and task error is logged here with the job's and task's ids. */
  log?: Logger;
}

const newId = () => randomBytes(12).toString('hex');
export const recordId = (jobId: string, taskId: string, iteration: number) => `${jobId}:${taskId}:${iteration}`;

export class JobRunner {
  readonly jobs: Collection;
  readonly queue: TaskQueue;
  private readonly runMethod: TaskMethodRunner;
  private readonly loadWorkflow: (name: string) => Promise<WorkflowSource | null>;
  private readonly log: Logger;

  constructor(options: RunnerOptions) {
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'jobs' });
    this.jobs = options.store.collection('jobs');
    this.queue = new TaskQueue(options.store);
    this.runMethod = options.runMethod;
    this.loadWorkflow = options.loadWorkflow ?? (async (name) => (await getWorkflow(options.store, name)) as WorkflowSource | null);
  }

  // ---- reading ----

  async job(id: string): Promise<JobDoc | null> {
    return (await this.jobs.findOne({ _id: id })) as JobDoc | null;
  }

  async requireJob(id: string): Promise<JobDoc> {
    const job = await this.job(id);
    if (!job) throw new OpError(404, `no job with id "${id}"`);
    return job;
  }

  async records(jobId: string): Promise<TaskRecord[]> {
    return (await this.queue.tasks.find({ jobId }, { sort: { queuedAt: 1 } })) as TaskRecord[];
  }

  private scope(job: JobDoc, records: TaskRecord[]): Scope {
    const latest = latestRecords(records.filter((r) => isFinished(r)));
    return {
      job: decodeVariables(job.variables),
      task: (taskId) => {
        const record = latest.get(taskId) as TaskRecord | undefined;
        return record ? decodeVariables(record.outgoing) : undefined;
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
    const problems = checkVariables(variables, workflow.inputSchema);
    if (problems.length) {
      throw new OpError(400, `the variables do not fit the inputSchema of workflow "${workflow.name}": ${problems.join('; ')}`, { problems });
    }
    const now = Date.now();
    const job: JobDoc = {
      _id: options.id ?? newId(),
      name: workflow.name,
      description: options.description ?? workflow.description ?? '',
      status: 'running',
      variables: encodeValue(variables, 'variables') as Record<string, unknown>,
      metrics: { start_time: now, user: options.user ?? 'console' },
      children: [],
      tasks: workflow.tasks,
      transitions: workflow.transitions ?? {},
      last_updated: now,
      ...(options.parent ? { parent: options.parent } : {}),
    };
    try {
      await this.jobs.insertOne(job);
    } catch (error) {
      if (!(options.id && isDuplicateKey(error))) throw error;
      return (await this.job(options.id))!; // started already, by an earlier attempt
    }
    this.log.info({ jobId: job._id, workflow: job.name, status: 'running', ...(options.parent ? { parentJobId: options.parent.job } : {}) }, `job of workflow "${job.name}" started`);
    if (options.parent) await this.linkChild(options.parent.job, job._id);
    await this.insertRecord(boundaryRecord(job._id, START, 0, [], now));
    await this.advance(job._id);
    return (await this.job(job._id))!;
  }

  private async linkChild(parentId: string, childId: string) {
    const parent = await this.job(parentId);
    if (parent && !parent.children?.includes(childId)) {
      await this.jobs.updateOne({ _id: parentId }, { $set: { children: [...(parent.children ?? []), childId] } });
    }
  }

  private async insertRecord(record: TaskRecord): Promise<void> {
    try {
      await this.queue.tasks.insertOne(record);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // another server created it first: same id, same task
    }
  }

  // ---- advancing ----

  /** Creates the records of the tasks that can run now; completes or fails the job when it cannot go on. */
  async advance(jobId: string, loaded?: JobDoc): Promise<void> {
    const job = loaded ?? (await this.job(jobId));
    if (!job || TERMINAL.includes(job.status)) return;
    const records = await this.records(jobId);
    const stopped = this.stoppedOn(job, records);
    if (stopped && job.status === 'running') await this.setStatus(job, 'error', stopped);

    const ready = readyTasks(Object.keys(job.tasks), job.transitions, records);
    const scope = this.scope(job, records);
    for (const task of ready) {
      if (task.taskId === END) {
        await this.reachEnd(job, task);
        return;
      }
      await this.insertRecord(this.newRecord(job, task, scope));
    }
    if (ready.length === 0 && !stopped && job.status === 'running') {
      const latest = latestRecords(records);
      const busy = [...latest.values()].some((r) => ['queued', 'running', 'waiting'].includes(r.status));
      if (!busy) {
        const ends = [...latest.values()].filter((r) => r.taskId !== START && isFinished(r)).map((r) => `${r.taskId} (${r.finishState})`);
        await this.setStatus(job, 'error', `the job cannot reach workflow_end: no transition leads on from ${ends.join(', ') || 'workflow_start'}`);
      }
    }
  }

  /** Why the job is stopped: a task that errored with no error transition to take. */
  private stoppedOn(job: JobDoc, records: TaskRecord[]): string | undefined {
    for (const record of latestRecords(records).values()) {
      const r = record as TaskRecord;
      if (r.status === 'error' && !hasTransition(job, r.taskId, 'error')) {
        return `task ${r.taskId} (${r.name}) failed with no error transition: ${r.error ?? 'error'}`;
      }
    }
    return undefined;
  }

  private newRecord(job: JobDoc, task: ReadyTask, scope: Scope): TaskRecord {
    const definition = job.tasks[task.taskId] ?? { name: task.taskId };
    const now = Date.now();
    const manual = definition.type === 'manual';
    const record: TaskRecord = {
      _id: recordId(job._id, task.taskId, task.iteration),
      jobId: job._id,
      taskId: task.taskId,
      iteration: task.iteration,
      from: task.from,
      name: definition.name,
      app: definition.app ?? 'WorkFlowEngine',
      type: definition.type ?? 'automatic',
      summary: definition.summary,
      status: manual ? 'waiting' : 'queued',
      queuedAt: now,
      runAfter: job.status === 'paused' ? NEVER : now,
      attempt: 0,
      metrics: {},
    };
    if (manual) {
      // An operator reads what the task is about before finishing it.
      try {
        record.incoming = encodeValue(resolveIncoming(definition.variables?.incoming, scope), 'incoming') as Record<string, unknown>;
      } catch (error) {
        // Shown empty; the task's own run reports what cannot be resolved.
        this.log.debug({ jobId: job._id, taskId: task.taskId, err: error }, 'the incoming values of a manual task cannot be resolved yet');
        record.incoming = {};
      }
    }
    return record;
  }

  private async reachEnd(job: JobDoc, task: ReadyTask) {
    const now = Date.now();
    await this.insertRecord(boundaryRecord(job._id, END, task.iteration, task.from, now));
    const result = await this.jobs.updateOne(
      { _id: job._id, status: { $in: ['running', 'paused'] } },
      { $set: { status: 'complete', 'metrics.end_time': now, last_updated: now } },
    );
    if (result.matched) {
      this.log.info({ jobId: job._id, workflow: job.name, status: 'complete' }, `job of workflow "${job.name}" complete`);
      await this.finishParentTask(job._id);
    }
  }

  private async setStatus(job: JobDoc, status: JobStatus, error?: string) {
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
    if (status === 'error' || status === 'canceled') await this.finishParentTask(job._id);
  }

  /** After a record ended: write its job variables, advance the job, mark it advanced. `known`: the record as just written. */
  async afterEnd(id: string, known?: TaskRecord): Promise<void> {
    const record = known ?? ((await this.queue.tasks.findOne({ _id: id })) as TaskRecord | null);
    if (!record || record.advanced !== false) return;
    const job = await this.job(record.jobId);
    if (job) {
      const definition = job.tasks[record.taskId];
      const writes = {
        ...decodeVariables(record.jobVariables as Record<string, unknown> | undefined),
        ...jobWrites(definition?.variables?.outgoing, decodeVariables(record.outgoing)),
      };
      const set: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(writes)) set[`variables.${name}`] = encodeValue(value, `variables.${name}`);
      if (Object.keys(set).length) {
        await this.jobs.updateOne({ _id: job._id }, { $set: { ...set, last_updated: Date.now() } });
        for (const [name, value] of Object.entries(writes)) job.variables[name] = encodeValue(value);
      }
      await this.advance(job._id, job);
    }
    await this.queue.tasks.updateOne({ _id: id }, { $set: { advanced: true } });
  }

  // ---- running a claimed task (the worker) ----

  /** Runs a claimed task and ends it; false when the worker's claim was lost or the signal aborted. */
  async execute(record: TaskRecord, signal?: AbortSignal): Promise<boolean> {
    const claim: Claim = { _id: record._id, workerId: record.workerId!, attempt: record.attempt };
    const job = await this.job(record.jobId);
    if (!job || job.status === 'canceled') {
      return this.queue.complete(claim, { status: 'canceled', 'metrics.end_time': Date.now() });
    }
    const definition = job.tasks[record.taskId] ?? { name: record.name, app: record.app };
    let incoming: Record<string, unknown> = {};
    let outcome: TaskOutcome;
    try {
      // The job's task records are read only when a value refers to another task.
      const records = refersToTasks(definition.variables?.incoming) ? await this.records(job._id) : [];
      incoming = resolveIncoming(definition.variables?.incoming, this.scope(job, records));
      if (isChildJob(definition)) return await this.startChildJob(record, claim, job, incoming);
      outcome = await this.runMethod(definition, incoming, { signal });
    } catch (error) {
      if (signal?.aborted) return false;
      outcome = { state: 'error', outgoing: {}, error: (error as Error).message };
    }
    if (signal?.aborted) return false;
    return this.finishClaimed(claim, incoming, outcome, record);
  }

  private async finishClaimed(claim: Claim, incoming: Record<string, unknown>, outcome: TaskOutcome, record?: TaskRecord): Promise<boolean> {
    const fields = endFields(incoming, outcome);
    if (!(await this.queue.complete(claim, fields))) return false;
    if (outcome.state === 'error') {
      const ids = { jobId: record?.jobId, taskId: record?.taskId, recordId: claim._id, workerId: claim.workerId, task: record?.name };
      this.log.error({ ...ids, error: outcome.error }, `task ${record?.taskId ?? claim._id} (${record?.name ?? '?'}) ended in error: ${outcome.error ?? 'error'}`);
    }
    const written = record && ({ ...record, ...Object.fromEntries(Object.entries(fields).filter(([key]) => !key.includes('.'))) } as TaskRecord);
    await this.afterEnd(claim._id, written);
    return true;
  }

  private async startChildJob(record: TaskRecord, claim: Claim, job: JobDoc, incoming: Record<string, unknown>): Promise<boolean> {
    const childId = record.childJob ?? `${record._id}:${record.attempt}`;
    // Name the child on the record before starting it, so a retry after a crash finds it.
    const named = await this.queue.tasks.updateOne(fence(claim), { $set: { childJob: childId, incoming: safeEncode(incoming, 'incoming') } });
    if (!named.matched) return false;
    const existing = await this.job(childId);
    if (!existing) {
      const workflow = incoming.workflow;
      const variables = incoming.variables;
      try {
        if (typeof workflow !== 'string' || !workflow) throw new Error('workflow must be the name of the workflow to start');
        if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) {
          throw new Error('variables must be an object of the child job variables');
        }
        await this.start(workflow, {
          id: childId,
          variables: childJobVariables(variables as Record<string, unknown> | undefined),
          description: `child job of ${job.name} (${job._id}), task ${record.taskId}`,
          user: job.metrics.user,
          parent: { job: job._id, task: record.taskId, record: record._id },
        });
      } catch (error) {
        return this.finishClaimed(claim, incoming, { state: 'error', outgoing: {}, error: `childJob: ${(error as Error).message}` });
      }
    }
    // The task now waits for the child; the child's end finishes it (finishParentTask).
    await this.queue.tasks.updateOne(fence(claim), { $set: { status: 'waiting' }, $unset: { leaseUntil: '' } });
    const child = await this.job(childId);
    if (child && child.status !== 'running' && child.status !== 'paused') await this.finishParentTask(childId);
    return true;
  }

  /** A child job ended (complete, error, canceled): its parent's childJob task ends with it. */
  private async finishParentTask(childId: string) {
    const child = await this.job(childId);
    const parent = child?.parent as { job: string; task: string; record?: string } | undefined;
    if (!child || !parent?.record) return;
    const outcome: TaskOutcome =
      child.status === 'complete'
        ? { state: 'success', outgoing: { job_details: { _id: child._id, name: child.name, status: child.status, variables: decodeVariables(child.variables) } } }
        : { state: 'error', outgoing: {}, error: `child job ${child._id} (${child.name}) ended in ${child.status}${child.error ? `: ${child.error}` : ''}` };
    const record = (await this.queue.tasks.findOne({ _id: parent.record })) as TaskRecord | null;
    const fields = endFields(decodeVariables(record?.incoming), outcome);
    const result = await this.queue.tasks.updateOne(
      { _id: parent.record, childJob: childId, status: { $in: ['running', 'waiting'] } },
      { $set: fields, $unset: { leaseUntil: '' } },
    );
    if (result.matched) await this.afterEnd(parent.record);
  }

  // ---- operator actions ----

  async cancel(id: string): Promise<JobDoc> {
    const job = await this.requireJob(id);
    if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is already ${job.status}`);
    const now = Date.now();
    await this.jobs.updateOne({ _id: id }, { $set: { status: 'canceled', 'metrics.end_time': now, last_updated: now } });
    await this.queue.tasks.updateMany(
      { jobId: id, status: { $in: ['queued', 'running', 'waiting'] } },
      { $set: { status: 'canceled', 'metrics.end_time': now }, $unset: { leaseUntil: '' } },
    );
    for (const childId of await this.childIds(job)) {
      const child = await this.job(childId);
      if (child && !TERMINAL.includes(child.status)) await this.cancel(childId);
    }
    this.log.info({ jobId: id, workflow: job.name, status: 'canceled', from: job.status }, `job of workflow "${job.name}" canceled`);
    await this.finishParentTask(id);
    return (await this.job(id))!;
  }

  async pause(id: string): Promise<JobDoc> {
    const job = await this.requireJob(id);
    if (job.status !== 'running') throw new OpError(409, `job ${id} is ${job.status}; only a running job can be paused`);
    await this.jobs.updateOne({ _id: id, status: 'running' }, { $set: { status: 'paused', last_updated: Date.now() } });
    await this.queue.tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: NEVER } });
    this.log.info({ jobId: id, workflow: job.name, status: 'paused', from: 'running' }, `job of workflow "${job.name}" paused`);
    return (await this.job(id))!;
  }

  async resume(id: string): Promise<JobDoc> {
    const job = await this.requireJob(id);
    if (job.status !== 'paused') throw new OpError(409, `job ${id} is ${job.status}; only a paused job can be resumed`);
    await this.jobs.updateOne({ _id: id, status: 'paused' }, { $set: { status: 'running', last_updated: Date.now() } });
    await this.queue.tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: Date.now() } });
    this.log.info({ jobId: id, workflow: job.name, status: 'running', from: 'paused' }, `job of workflow "${job.name}" resumed`);
    await this.advance(id);
    return (await this.job(id))!;
  }

  private async latestOf(job: JobDoc, taskId: string): Promise<TaskRecord> {
    if (!job.tasks[taskId]) throw new OpError(404, `job ${job._id} has no task "${taskId}"`);
    const record = latestRecords(await this.records(job._id)).get(taskId) as TaskRecord | undefined;
    if (!record) throw new OpError(409, `task ${taskId} of job ${job._id} has not run yet`);
    return record;
  }

  async retryTask(id: string, taskId: string): Promise<JobDoc> {
    const job = await this.requireJob(id);
    if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is ${job.status}; its tasks cannot be retried`);
    const record = await this.latestOf(job, taskId);
    if (record.status !== 'error') throw new OpError(409, `task ${taskId} is ${record.status}; only a task in error can be retried`);
    if (hasTransition(job, taskId, 'error')) throw new OpError(409, `task ${taskId} already took its error transition; it cannot be retried`);
    const now = Date.now();
    const result = await this.queue.tasks.updateOne(
      { _id: record._id, status: 'error' },
      {
        $set: { status: 'queued', runAfter: job.status === 'paused' ? NEVER : now, queuedAt: now },
        $unset: { finishState: '', error: '', outgoing: '', jobVariables: '', childJob: '', workerId: '', leaseUntil: '', advanced: '', 'metrics.end_time': '' },
      },
    );
    if (!result.matched) throw new OpError(409, `task ${taskId} changed meanwhile; reload and try again`);
    const others = (await this.records(id)).filter((r) => r._id !== record._id);
    if (job.status === 'error' && !this.stoppedOn(job, others)) {
      await this.jobs.updateOne({ _id: id, status: 'error' }, { $set: { status: 'running', last_updated: now }, $unset: { error: '', 'metrics.end_time': '' } });
      this.log.info({ jobId: id, workflow: job.name, status: 'running', from: 'error' }, `job of workflow "${job.name}" running again`);
    }
    this.log.info({ jobId: id, taskId, recordId: record._id }, `task ${taskId} queued again by an operator`);
    return (await this.job(id))!;
  }

  async finishTask(id: string, taskId: string, values: Record<string, unknown> = {}, state: FinishState = 'success'): Promise<JobDoc> {
    const job = await this.requireJob(id);
    if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is ${job.status}`);
    const record = await this.latestOf(job, taskId);
    if (record.status !== 'waiting' || record.childJob) {
      throw new OpError(409, `task ${taskId} is ${record.status}${record.childJob ? ' (waiting for its child job)' : ''}; only a manual task waiting for an operator can be finished`);
    }
    try {
      rejectMarker(values, 'body.values');
    } catch (error) {
      throw new OpError(400, (error as Error).message);
    }
    const result = await this.queue.tasks.updateOne(
      { _id: record._id, status: 'waiting' },
      { $set: { ...endFields(decodeVariables(record.incoming), { state, outgoing: values }), 'metrics.start_time': record.queuedAt } },
    );
    if (!result.matched) throw new OpError(409, `task ${taskId} changed meanwhile; reload and try again`);
    await this.afterEnd(record._id);
    return (await this.job(id))!;
  }

  async childIds(job: JobDoc): Promise<string[]> {
    const linked = (await this.jobs.find({ 'parent.job': job._id }, { sort: { 'metrics.start_time': 1 } })).map((c) => String(c._id));
    return [...new Set([...(job.children ?? []), ...linked])];
  }
}

/** Whether a value holds a `$var.<taskId>.<name>` reference (not only `$var.job.`). */
/** The record of workflow_start or workflow_end: complete as soon as it is reached. */
function boundaryRecord(jobId: string, taskId: typeof START | typeof END, iteration: number, from: TaskRecord['from'], now: number): TaskRecord {
  return {
    _id: recordId(jobId, taskId, iteration),
    jobId,
    taskId,
    iteration,
    from,
    name: taskId,
    app: 'WorkFlowEngine',
    type: 'automatic',
    status: 'complete',
    finishState: 'success',
    queuedAt: now,
    runAfter: now,
    attempt: 0,
    advanced: true,
    metrics: { start_time: now, end_time: now },
  };
}

function refersToTasks(value: unknown): boolean {
  return value !== undefined && /"\$var\.(?!job\.)/.test(JSON.stringify(value));
}

function hasTransition(job: JobDoc, taskId: string, state: FinishState) {
  return Object.values(job.transitions?.[taskId] ?? {}).some((t) => t?.state === state);
}

function safeEncode(value: Record<string, unknown>, path: string): Record<string, unknown> {
  try {
    return encodeValue(value, path) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The fields a record ends with: status, the state its transitions follow, values, error, end time. */
function endFields(incoming: Record<string, unknown>, outcome: TaskOutcome): Record<string, unknown> {
  let outgoing: Record<string, unknown>;
  let state = outcome.state;
  let error = outcome.error;
  try {
    outgoing = encodeValue(outcome.outgoing ?? {}, 'outgoing') as Record<string, unknown>;
  } catch (problem) {
    if (!(problem instanceof MarkerValueError)) throw problem;
    outgoing = {};
    state = 'error';
    error = problem.message;
  }
  let jobVariables: Record<string, unknown> | undefined;
  try {
    if (outcome.jobVariables) jobVariables = encodeValue(outcome.jobVariables, 'jobVariables') as Record<string, unknown>;
  } catch (problem) {
    if (!(problem instanceof MarkerValueError)) throw problem;
    state = 'error';
    error = problem.message;
  }
  return {
    ...(jobVariables && state !== 'error' ? { jobVariables } : {}),
    status: state === 'error' ? 'error' : 'complete',
    finishState: state,
    incoming: safeEncode(incoming, 'incoming'),
    outgoing,
    ...(error !== undefined ? { error } : {}),
    'metrics.end_time': Date.now(),
    advanced: false,
  };
}

