// Task records as the runner writes them: ids, the records of workflow_start and
// workflow_end, a new record for a task that can run, and the fields a record
// ends with, why a job is stopped. Pure functions: the store writes are in job-writes.ts.
import { encodeValue, MarkerValueError, undefinedStoredAsNull } from '../../values/undefined-codec';
import type { ReleaseSemantics } from '../../release/semantics';
import { isRecord } from './guards';
import { APPLICATION_MANUAL_TASKS, MANUAL_TASKS, type TaskOutcome } from '../tasks/library';
import { NEVER, type FinishState, type TaskRecord } from '../queue/queue';
import { latestRecords, type END, type ReadyTask, type START } from './graph';
import { ERROR_HANDLER } from './settings';
import { isAdapterError, type JobFailure } from './job-error';
import type { JobDoc, TaskDefinition } from './types';

export const recordId = (jobId: string, taskId: string, iteration: number) => `${jobId}:${taskId}:${iteration}`;

/** Manual tasks wait for an operator; ViewData and ErrorHandling are, whatever their `type` says. */
export function isManual(definition: TaskDefinition): boolean {
  const app = definition.app ?? 'WorkFlowEngine';
  return definition.type === 'manual' || (app === 'WorkFlowEngine' ? MANUAL_TASKS.includes(definition.name) : !!APPLICATION_MANUAL_TASKS.get(app)?.includes(definition.name));
}

/** The record of workflow_start or workflow_end: complete as soon as it is reached. */
export function boundaryRecord(jobId: string, task: { taskId: typeof START | typeof END; iteration: number; from: string[] }, now: number): TaskRecord {
  const { taskId, iteration, from } = task;
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

/** workflow_start or workflow_end: their records are not stored in the tasks collection (withBoundaries). */
export const isBoundary = (record: Pick<TaskRecord, 'taskId'>) => record.taskId === 'workflow_start' || record.taskId === 'workflow_end';

/**
 * A job's task records with those of workflow_start and workflow_end, which the job document
 * holds instead of two task records of their own (half the records of a one-task job): the
 * start at the job's start time, the end once the job reached it (`reachedEnd`, written with
 * the job's completion). Records stored by an earlier version are kept as they are.
 */
export function withBoundaries(job: JobDoc | null | undefined, stored: TaskRecord[]): TaskRecord[] {
  if (!job) return stored;
  const has = (taskId: string) => stored.some((r) => r.taskId === taskId);
  const start = has('workflow_start') ? [] : [boundaryRecord(job._id, { taskId: 'workflow_start', iteration: 0, from: [] }, job.metrics.start_time)];
  const reached = job.reachedEnd;
  const end = reached && !has('workflow_end') ? [boundaryRecord(job._id, { taskId: 'workflow_end', iteration: reached.iteration, from: reached.from }, job.metrics.end_time ?? job.last_updated)] : [];
  return start.length || end.length ? [...start, ...stored, ...end] : stored;
}

/** The record of a task that can run now: queued, or waiting for an operator (manual). */
export function taskRecord(job: JobDoc, task: ReadyTask, definition: TaskDefinition, now: number): TaskRecord {
  const manual = isManual(definition);
  return {
    _id: recordId(job._id, task.taskId, task.iteration),
    jobId: job._id,
    job: { _id: job._id },
    taskId: task.taskId,
    iteration: task.iteration,
    from: task.from,
    name: definition.name,
    app: definition.app ?? 'WorkFlowEngine',
    type: manual ? 'manual' : (definition.type ?? 'automatic'),
    // Only when the task has one: MongoDB's driver would store an undefined as null.
    ...(definition.summary !== undefined ? { summary: definition.summary } : {}),
    status: manual ? 'waiting' : 'queued',
    queuedAt: now,
    runAfter: job.status === 'paused' ? NEVER : now,
    attempt: 0,
    metrics: {},
  };
}

export function hasTransition(job: JobDoc, taskId: string, state: FinishState) {
  return Object.values(job.transitions?.[taskId] ?? {}).some((t) => t?.state === state);
}

/**
 * Why the job is stopped: a task that errored with no error transition to take. An adapter's task
 * stopped it with the adapter's error object, kept in its outgoing values: that object is the message,
 * as the service stores it (its clients read `error[].message.IAPerror.displayString`).
 */
export function stoppedOn(job: JobDoc, records: TaskRecord[]): JobFailure | undefined {
  for (const r of latestRecords(records).values()) {
    if (r.taskId === ERROR_HANDLER) continue;
    if (r.status === 'error' && !hasTransition(job, r.taskId, 'error')) {
      const answer = Object.values(r.outgoing ?? {}).find(isAdapterError);
      return { task: r.taskId, message: answer ?? `task ${r.taskId} (${r.name}) failed with no error transition: ${r.error ?? 'error'}` };
    }
  }
  return undefined;
}

/** Encodes an object of values for the store (an object stays one). */
function encodeRecord(value: Record<string, unknown>, path: string): Record<string, unknown> {
  const encoded = encodeValue(value, path);
  return isRecord(encoded) ? encoded : {};
}

/** Encodes for the store; a value that cannot be stored (the marker string) is recorded as {} rather than lost with the record. */
export function safeEncode(value: Record<string, unknown>, path: string): Record<string, unknown> {
  try {
    return encodeRecord(value, path);
  } catch (error) {
    if (!(error instanceof MarkerValueError)) throw error;
    return {};
  }
}

/** The outcome as the release stores it: before 2021.1.10 an undefined value goes in (and comes back) as null. */
export function storedOutcome(semantics: ReleaseSemantics, outcome: TaskOutcome): TaskOutcome {
  if (semantics.undefinedStored !== 'null') return outcome;
  const jobVariables = outcome.jobVariables && undefinedStoredAsNull(outcome.jobVariables);
  return { ...outcome, outgoing: undefinedStoredAsNull(outcome.outgoing), ...(jobVariables ? { jobVariables } : {}) };
}

/** The fields a record ends with: status, the state its transitions follow, values, error, end time. */
export function endFields(incoming: Record<string, unknown>, outcome: TaskOutcome, now = Date.now()): Record<string, unknown> {
  let outgoing: Record<string, unknown>;
  let state = outcome.state;
  let error = outcome.error;
  try {
    outgoing = encodeRecord(outcome.outgoing ?? {}, 'outgoing');
  } catch (problem) {
    if (!(problem instanceof MarkerValueError)) throw problem;
    outgoing = {};
    state = 'error';
    error = problem.message;
  }
  let jobVariables: Record<string, unknown> | undefined;
  try {
    if (outcome.jobVariables) jobVariables = encodeRecord(outcome.jobVariables, 'jobVariables');
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
    ...(outcome.loopIndex !== undefined ? { loopIndex: outcome.loopIndex } : {}),
    ...(outcome.simulated ? { simulated: outcome.simulated } : {}),
    'metrics.end_time': now,
    advanced: false,
  };
}

/** A claimed record after `queue.complete` wrote `fields` (dotted ones one level deep) and dropped its lease. */
export function withEnd(record: TaskRecord, fields: Record<string, unknown>): TaskRecord {
  // Left out by the rest pattern, not deleted: an object a field was deleted from turns slow to read and copy.
  const { leaseUntil: _lease, timer: _timer, ...written } = record;
  for (const [key, value] of Object.entries(fields)) {
    const dot = key.indexOf('.');
    if (dot < 0) written[key] = value;
    else {
      const [outer, inner] = [key.slice(0, dot), key.slice(dot + 1)];
      const current = written[outer];
      written[outer] = { ...(isRecord(current) ? current : {}), [inner]: value };
    }
  }
  return written;
}
