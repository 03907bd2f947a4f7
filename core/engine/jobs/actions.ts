// The operator's actions on a job: cancel, pause, resume, retry a task in error,
// finish a manual task (ViewData's buttons finish it in success or failure). Pure:
// each is checked against the job and its records and answered with the writes it
// makes (an intent the executor carries out), or refused with a domain error (core/errors/domain.ts).
import { DomainError } from '../../errors/domain';
import { decodeVariables, rejectMarker } from '../../values/undefined-codec';
import type { FinishState, TaskRecord } from '../queue/queue';
import { latestRecords } from './graph';
import { endFields, hasTransition, stoppedOn } from './records';
import { TERMINAL, type JobDoc, type JobStatus } from './types';

export type OperatorAction =
  | { kind: 'cancel' }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'retry'; taskId: string }
  | { kind: 'finish'; taskId: string; values: Record<string, unknown>; state: FinishState };

export type OperatorWrite =
  /** The job and its active tasks canceled, then its children; its parent's task is told. */
  | { kind: 'op-cancel'; from: JobStatus }
  /** The job paused; its queued tasks wait. */
  | { kind: 'op-pause' }
  /** The job running again; its queued tasks run now, and it is advanced. */
  | { kind: 'op-resume' }
  /** A task in error queued again; `reopen`: the job, in error for it alone, runs again. */
  | { kind: 'op-retry'; record: TaskRecord; paused: boolean; reopen: boolean }
  /** A manual task ended with the operator's values; then the job is advanced. */
  | { kind: 'op-finish'; record: TaskRecord; fields: Record<string, unknown> };

function latestOf(job: JobDoc, records: TaskRecord[], taskId: string): TaskRecord {
  if (!job.tasks[taskId]) throw new DomainError('no-such-part', `job ${job._id} has no task "${taskId}"`);
  const record = latestRecords(records).get(taskId);
  if (!record) throw new DomainError('not-allowed', `task ${taskId} of job ${job._id} has not run yet`);
  return record;
}

/** The writes of an operator's action on the job, or the refusal (a DomainError: the executor answers it). */
export function operatorWrites(job: JobDoc, records: TaskRecord[], action: OperatorAction, now: number): OperatorWrite[] {
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
    case 'retry':
      return [retry(job, records, action.taskId)];
    case 'finish':
      return [finish(job, records, action, now)];
  }
}

function retry(job: JobDoc, records: TaskRecord[], taskId: string): OperatorWrite {
  if (TERMINAL.includes(job.status)) throw new DomainError('not-allowed', `job ${job._id} is ${job.status}; its tasks cannot be retried`);
  const record = latestOf(job, records, taskId);
  if (record.status !== 'error') throw new DomainError('not-allowed', `task ${taskId} is ${record.status}; only a task in error can be retried`);
  if (hasTransition(job, taskId, 'error')) throw new DomainError('not-allowed', `task ${taskId} already took its error transition; it cannot be retried`);
  const others = records.filter((r) => r._id !== record._id);
  return { kind: 'op-retry', record, paused: job.status === 'paused', reopen: job.status === 'error' && !stoppedOn(job, others) };
}

function finish(job: JobDoc, records: TaskRecord[], action: Extract<OperatorAction, { kind: 'finish' }>, now: number): OperatorWrite {
  const { taskId, values, state } = action;
  if (TERMINAL.includes(job.status)) throw new DomainError('not-allowed', `job ${job._id} is ${job.status}`);
  const record = latestOf(job, records, taskId);
  if (record.status !== 'waiting' || record.childJob) {
    throw new DomainError('not-allowed', `task ${taskId} is ${record.status}${record.childJob ? ' (waiting for its child job)' : ''}; only a manual task waiting for an operator can be finished`);
  }
  if (state === 'loop') throw new DomainError('invalid-value', 'body.state: a manual task ends in success, failure or error');
  try {
    rejectMarker(values, 'body.values');
  } catch (error) {
    throw new DomainError('invalid-value', error instanceof Error ? error.message : String(error));
  }
  const fields = { ...endFields(decodeVariables(record.incoming), { state, outgoing: values }, now), 'metrics.start_time': record.queuedAt };
  return { kind: 'op-finish', record, fields };
}
