// The operator's actions on a job: cancel, pause, resume, retry a task in error (with
// changed values or not), finish a manual task (ViewData's buttons finish it in success or
// failure), and claim, release or take over a manual task (claims.ts). Pure: each is checked
// against the job, its records and the claims of its waiting tasks, and answered with the
// writes it makes (an intent the executor carries out as one unit of work), or refused with
// a domain error (core/errors/domain.ts) the executor answers.
import { DomainError } from '../../errors/domain';
import { decodeVariables, rejectMarker } from '../../values/undefined-codec';
import type { FinishState, TaskRecord } from '../queue/queue';
import { latestRecords } from './graph';
import { checkFinisher, claimWrites, type ClaimAction, type ClaimWrite, type TaskClaim } from './claims';
import type { HistoryWrite } from './history';
import { endFields, hasTransition, stoppedOn } from './records';
import { changesWritten, type RetryChanges } from './retry-with-changes';
import { TERMINAL, type JobDoc, type JobStatus } from './types';

export type OperatorAction =
  | { kind: 'cancel' }
  | { kind: 'pause' }
  | { kind: 'resume' }
  /** `changes`: the operator's values for the retry (retry-with-changes.ts), recorded under `operator`. */
  | { kind: 'retry'; taskId: string; changes?: RetryChanges; operator?: string }
  /** `operator`: who finishes it (a task claimed by someone else is refused), recorded in the job's history. */
  | { kind: 'finish'; taskId: string; values: Record<string, unknown>; state: FinishState; operator?: string }
  | ClaimAction;

/** The claims of a job's waiting manual tasks, by record id. */
export type Claims = ReadonlyMap<string, TaskClaim>;

export type OperatorWrite =
  /** The job and its active tasks canceled, then its children; its parent's task is told. */
  | { kind: 'op-cancel'; from: JobStatus }
  /** The job paused; its queued tasks wait. */
  | { kind: 'op-pause' }
  /** The job running again; its queued tasks run now, and it is advanced. */
  | { kind: 'op-resume' }
  /**
   * A task in error queued again; `reopen`: the job, in error for it alone, runs again.
   * `variablesSet`, `incomingOverride`: the operator's changes, written first.
   */
  | { kind: 'op-retry'; record: TaskRecord; paused: boolean; reopen: boolean; variablesSet?: Record<string, unknown>; incomingOverride?: Record<string, unknown> }
  /** A manual task ended with the operator's values (its claim, if any, goes with it); then the job is advanced. */
  | { kind: 'op-finish'; record: TaskRecord; fields: Record<string, unknown>; claimed: boolean }
  | ClaimWrite
  /** An entry of the job's history (who changed what, who finished or took over a task). */
  | HistoryWrite;

function latestOf(job: JobDoc, records: TaskRecord[], taskId: string): TaskRecord {
  if (!job.tasks[taskId]) throw new DomainError('no-such-part', `job ${job._id} has no task "${taskId}"`);
  const record = latestRecords(records).get(taskId);
  if (!record) throw new DomainError('not-allowed', `task ${taskId} of job ${job._id} has not run yet`);
  return record;
}

/** What an action is decided on: the job, its records, the claims of its waiting manual tasks, and the time. */
export interface ActionState {
  job: JobDoc;
  records: TaskRecord[];
  now: number;
  claims?: Claims;
}

/** The writes of an operator's action on the job, or the refusal (a DomainError: the executor answers it). */
export function operatorWrites(state: ActionState, action: OperatorAction): OperatorWrite[] {
  const { job, records, now } = state;
  const claims = state.claims ?? new Map<string, TaskClaim>();
  const id = job._id;
  switch (action.kind) {
    case 'cancel':
      if (TERMINAL.includes(job.status)) throw new DomainError('not-allowed', `job ${id} is already ${job.status}`);
      return [{ kind: 'op-cancel', from: job.status }];
    case 'pause':
      if (job.status !== 'running') throw new DomainError('not-allowed', `job ${id} is ${job.status}; only a running job can be paused`);
      return [{ kind: 'op-pause' }];
    case 'resume':
      if (job.status !== 'paused') throw new DomainError('not-allowed', `job ${id} is ${job.status}; only a paused job can be resumed`);
      return [{ kind: 'op-resume' }];
    case 'retry': {
      const write = retry(job, records, action.taskId);
      if (!action.changes) return [write];
      const changed = changesWritten(job, write.record, { changes: action.changes, operator: action.operator ?? 'operator' }, now);
      const { variablesSet, incomingOverride } = changed;
      return [{ ...write, ...(variablesSet ? { variablesSet } : {}), ...(incomingOverride ? { incomingOverride } : {}) }, ...(changed.history ? [changed.history] : [])];
    }
    case 'finish':
      return finish({ job, records, now, claims }, action);
    case 'claim':
    case 'release':
    case 'take-over': {
      const record = records.find((r) => r._id === action.recordId);
      return claimWrites(record, claims.get(action.recordId), action, now);
    }
  }
}

function retry(job: JobDoc, records: TaskRecord[], taskId: string): Extract<OperatorWrite, { kind: 'op-retry' }> {
  if (TERMINAL.includes(job.status)) throw new DomainError('not-allowed', `job ${job._id} is ${job.status}; its tasks cannot be retried`);
  const record = latestOf(job, records, taskId);
  if (record.status !== 'error') throw new DomainError('not-allowed', `task ${taskId} is ${record.status}; only a task in error can be retried`);
  if (hasTransition(job, taskId, 'error')) throw new DomainError('not-allowed', `task ${taskId} already took its error transition; it cannot be retried`);
  const others = records.filter((r) => r._id !== record._id);
  return { kind: 'op-retry', record, paused: job.status === 'paused', reopen: job.status === 'error' && !stoppedOn(job, others) };
}

function finish({ job, records, now, claims }: Required<ActionState>, action: Extract<OperatorAction, { kind: 'finish' }>): OperatorWrite[] {
  const { taskId, values, state, operator } = action;
  if (TERMINAL.includes(job.status)) throw new DomainError('not-allowed', `job ${job._id} is ${job.status}`);
  const record = latestOf(job, records, taskId);
  if (record.status !== 'waiting' || record.childJob) {
    throw new DomainError('not-allowed', `task ${taskId} is ${record.status}${record.childJob ? ' (waiting for its child job)' : ''}; only a manual task waiting for an operator can be finished`);
  }
  const claim = claims.get(record._id);
  checkFinisher(record, claim, operator);
  if (state === 'loop') throw new DomainError('invalid-value', 'body.state: a manual task ends in success, failure or error');
  try {
    rejectMarker(values, 'body.values');
  } catch (error) {
    throw new DomainError('invalid-value', error instanceof Error ? error.message : String(error));
  }
  const fields = { ...endFields(decodeVariables(record.incoming), { state, outgoing: values }, now), 'metrics.start_time': record.queuedAt };
  const by = operator ?? 'operator';
  // Who finished it and how, for the job's history and the work queue's list of finished tasks.
  const definition = job.tasks[taskId];
  const history: HistoryWrite = {
    kind: 'history',
    entry: {
      _id: `${job._id}:task-finished:${record._id}:${now}`,
      jobId: job._id,
      event: 'task-finished',
      message: `task ${taskId} finished in ${state} by ${by}`,
      timestamp: now,
      taskId,
      ...(definition?.name !== undefined ? { taskName: definition.name } : {}),
      ...(definition?.summary !== undefined ? { summary: definition.summary } : {}),
      workflow: job.name,
      state,
      operator: by,
    },
  };
  return [{ kind: 'op-finish', record, fields, claimed: claim !== undefined }, history];
}
