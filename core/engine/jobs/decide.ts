// The engine's decision core: given a job, its task records and what happened (the job
// started, a task ended, a child job ended, an operator acted, or the job is to be looked
// at again: a resume, the recovery of a record left unadvanced), it says what to write and
// which tasks to queue. Pure: no store, no clock (`now` is given), no logging, and the job
// and records given are not changed. The executor (executor.ts) carries a decision out,
// with what it needs of the store: batching, hand-off to a worker, held state.
// As a workflow SDK decides its commands from a run's history, a decision depends only on
// what it is given: taken twice on the same records it gives the same records (their ids
// are deterministic), so a repeated advance writes nothing new.
import { decodeVariables, encodeValue, encodeVariables } from '../../values/undefined-codec';
import type { TaskRecord } from '../queue/queue';
import { jobStartVariables } from '../workflow/job-variables';
import { END, isFinished, latestRecords, readyTasks, START, type ReadyTask } from './graph';
import { boundaryRecord, isManual, stoppedOn, taskRecord } from './records';
import { ERROR_HANDLER, errorHandlerOf } from './settings';
import { errorWrites, jobWrites, resolveIncoming, type Scope } from './variables';
import { childEnded, type ChildStep } from './children';
import { operatorWrites, type Claims, type OperatorAction, type OperatorWrite } from './actions';
import type { JobFailure } from './job-error';
import { TERMINAL, type JobDoc, type TaskDefinition } from './types';

export type JobEvent =
  /** The job was just created: its workflow_start record is written with its first tasks. */
  | { kind: 'started' }
  /** A task record ended (`record` as written, also among the records). */
  | { kind: 'task-ended'; record: TaskRecord }
  /** A task's timer fired (jobs/timers.ts): its record ended with the outcome the timer held (`record` as written); the job goes on as after any end. */
  | { kind: 'timer-fired'; record: TaskRecord }
  /** Look at the job again (it was resumed; recovery of a record left unadvanced or a half-started job). */
  | { kind: 'advance' }
  /** A child job ended (`child`); `waiting` is the parent's childJob record that waits for it. */
  | { kind: 'child-ended'; child: JobDoc; waiting: TaskRecord }
  /** An operator acted on the job. */
  | { kind: 'operator'; action: OperatorAction }
  /** The job's workflow_end record is written (by an earlier version) and its status is not (recovery): it completes. */
  | { kind: 'end-recorded'; end: TaskRecord };

/** One write of a decision; the executor makes them in order. */
export type Write =
  /** Task records in one call, after the job variables the decision carries; `handOff`: a queued one may go to the worker that ran the ended task. */
  | { kind: 'insert'; records: TaskRecord[]; handOff: boolean }
  /** The job stops in error, after the variables. */
  | { kind: 'fail'; error: JobFailure }
  /** workflow_end's record, then the job complete with the variables in the same write. */
  | { kind: 'complete'; end: TaskRecord }
  /** What a child job's end does to the parent's waiting childJob record. */
  | { kind: 'child'; step: ChildStep; waiting: TaskRecord }
  /** What an operator's action writes. */
  | OperatorWrite;

export interface Decision {
  /** The `$set` giving the job the variables an ended task wrote: before the first write, or with the completion. */
  variablesSet?: Record<string, unknown>;
  /** The job's variables after that `$set` (the executor keeps them on the job it holds). */
  variables?: Record<string, unknown>;
  writes: Write[];
}

export interface DecisionInput {
  job: JobDoc;
  /** The job's task records (for `started`: none are written yet). */
  records: TaskRecord[];
  event: JobEvent;
  now: number;
  /** The claims of the job's waiting manual tasks, by record id (an operator's finish, claim, release, take-over). */
  claims?: Claims;
}

/** What the job's event means: the writes to make, in order. */
export function decide({ job, records, event, now, claims }: DecisionInput): Decision {
  switch (event.kind) {
    case 'started': {
      const start = boundaryRecord(job._id, { taskId: START, iteration: 0, from: [] }, now);
      return { writes: advanceWrites(job, [start], [start], now) };
    }
    case 'task-ended':
    case 'timer-fired':
      return taskEnded(job, records, event.record, now);
    case 'advance':
      return { writes: TERMINAL.includes(job.status) ? [] : advanceWrites(job, records, [], now) };
    case 'child-ended':
      return { writes: [{ kind: 'child', step: childEnded(event.child, event.waiting, job), waiting: event.waiting }] };
    case 'end-recorded':
      return { writes: job.status === 'running' || job.status === 'paused' ? [{ kind: 'complete', end: event.end }] : [] };
    case 'operator':
      return { writes: operatorWrites({ job, records, now, ...(claims ? { claims } : {}) }, event.action) };
  }
}

/** The `$set` that gives the job what a task's end writes to its variables, and the variables after it. */
export function variablesAfter(job: JobDoc, writes: Record<string, unknown>, now: number): Pick<Decision, 'variablesSet' | 'variables'> {
  const set: Record<string, unknown> = {};
  const encoded: [string, unknown][] = [];
  // A name with "." or a leading "$" is not a path: the variables are then written whole.
  let whole = false;
  for (const [name, value] of Object.entries(writes)) {
    set[`variables.${name}`] = encodeValue(value, `variables.${name}`);
    encoded.push([name, encodeValue(value)]);
    whole ||= name.includes('.') || name.startsWith('$');
  }
  if (encoded.length === 0) return {};
  const variables = { ...job.variables, ...Object.fromEntries(encoded) };
  return { variablesSet: { ...(whole ? { variables } : set), last_updated: now }, variables };
}

function definitionOf(job: JobDoc, taskId: string): TaskDefinition | undefined {
  return taskId === ERROR_HANDLER ? errorHandlerOf(job) : job.tasks[taskId];
}

/** A task ended: the job variables it writes, then the job advanced with them. */
function taskEnded(job: JobDoc, records: TaskRecord[], record: TaskRecord, now: number): Decision {
  const definition = definitionOf(job, record.taskId);
  const errorTarget = definition?.variables && 'error' in definition.variables ? definition.variables.error : undefined;
  const after = variablesAfter(job, {
    ...decodeVariables(record.jobVariables),
    ...jobWrites(definition?.variables?.outgoing, decodeVariables(record.outgoing)),
    ...(record.status === 'error' ? errorWrites(errorTarget, record.error) : {}),
  }, now);
  if (TERMINAL.includes(job.status)) return { ...after, writes: [] };
  const advanced = after.variables ? { ...job, variables: after.variables, last_updated: now } : job;
  return { ...after, writes: advanceWrites(advanced, records, [], now) };
}

/** What references read: the job variables (with the service's own, `_id` and `initiator`), and each task's last finished run. */
export function scopeOf(job: JobDoc, records: TaskRecord[]): Scope {
  const latest = latestRecords(records.filter((r) => isFinished(r)));
  return {
    job: jobStartVariables(decodeVariables(job.variables), { id: job._id, initiator: job.metrics.user }),
    task: (taskId) => {
      const record = latest.get(taskId);
      if (!record) return undefined;
      const outgoing = decodeVariables(record.outgoing);
      return record.error !== undefined && !('error' in outgoing) ? { ...outgoing, error: record.error } : outgoing;
    },
  };
}

function newRecord(job: JobDoc, task: ReadyTask, scope: () => Scope, now: number): TaskRecord {
  const definition = job.tasks[task.taskId] ?? { name: task.taskId };
  const record = taskRecord(job, task, definition, now);
  if (isManual(definition)) {
    // An operator reads what the task is about (ViewData: header, message, body, buttons) before finishing it.
    try {
      record.incoming = encodeVariables(resolveIncoming(definition.variables?.incoming, scope()), 'incoming');
    } catch (error) {
      // Shown to the operator on the task; the run reports what cannot be resolved.
      record.incoming = {};
      record.error = `incoming values cannot be shown: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return record;
}

/**
 * The records of the tasks that can run now; the job complete or in error when it cannot go on.
 * `unwritten`: records among `records` not written yet (a job's start record), written first.
 */
function advanceWrites(job: JobDoc, records: TaskRecord[], unwritten: TaskRecord[], now: number): Write[] {
  const writes: Write[] = [];
  let pending = unwritten;
  let status = job.status;
  const stopped = stoppedOn(job, records);
  if (stopped && status === 'running') {
    // The workflow's errorHandler runs once before the job ends in error.
    const handler = errorHandlerOf(job);
    const handled = records.find((r) => r.taskId === ERROR_HANDLER);
    if (handler && !handled) {
      return [{ kind: 'insert', records: [...pending, taskRecord(job, { taskId: ERROR_HANDLER, iteration: 0, from: [] }, handler, now)], handOff: false }];
    }
    if (pending.length) writes.push({ kind: 'insert', records: pending, handOff: false });
    pending = [];
    if (!handled || isFinished(handled)) {
      const note = handled ? `; the workflow's errorHandler ran and ended in ${handled.finishState}${handled.error ? `: ${handled.error}` : ''}` : '';
      // An adapter's error object stays the message as it is; the errorHandler's record says how it ended.
      const message = typeof stopped.message === 'string' ? `${stopped.message}${note}` : stopped.message;
      writes.push({ kind: 'fail', error: { task: stopped.task, message } });
      status = 'error';
    }
  }
  const ready = readyTasks(Object.keys(job.tasks), job.transitions, records.filter((r) => r.taskId !== ERROR_HANDLER));
  // What references read, for a manual task's incoming only: made when one is ready.
  let scope: Scope | undefined;
  const scopeNow = () => (scope ??= scopeOf(job, records));
  const end = ready.find((task) => task.taskId === END);
  // The tasks before workflow_end in the ready list (none follow it once it is reached).
  const batch = ready.slice(0, end ? ready.indexOf(end) : ready.length).map((task) => newRecord(job, task, scopeNow, now));
  if (pending.length || batch.length) writes.push({ kind: 'insert', records: [...pending, ...batch], handOff: true });
  if (end) {
    writes.push({ kind: 'complete', end: boundaryRecord(job._id, { taskId: END, iteration: end.iteration, from: end.from }, now) });
    return writes;
  }
  if (ready.length === 0 && !stopped && status === 'running') {
    const latest = [...latestRecords(records).values()];
    const busy = latest.some((r) => ['queued', 'running', 'waiting'].includes(r.status));
    if (!busy) {
      const ends = latest.filter((r) => r.taskId !== START && isFinished(r)).map((r) => `${r.taskId} (${r.finishState})`);
      writes.push({ kind: 'fail', error: { task: END, message: `the job cannot reach workflow_end: no transition leads on from ${ends.join(', ') || 'workflow_start'}` } });
    }
  }
  return writes;
}
