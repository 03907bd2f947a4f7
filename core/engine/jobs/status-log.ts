// What the job runner says when a job's status changes, in one place: the executor as it writes the
// change, and a start whose job ended in its own write (in-write.ts), which says it after the job's
// start, once the write committed; and a task that ended in error, run by the worker or in the write.
import type { Logger } from 'pino';
import type { JobDoc, JobStatus } from './types';

/** The ids a task's lines carry. */
export interface TaskIds {
  jobId: string;
  taskId: string;
  recordId: string;
  workerId: string | undefined;
  task: string;
}

export function sayTaskError(log: Pick<Logger, 'error'>, ids: TaskIds, error: string | undefined) {
  log.error({ ...ids, error }, `task ${ids.taskId} (${ids.task}) ended in error: ${error ?? 'error'}`);
}

export function sayStatus(log: Pick<Logger, 'info' | 'error'>, job: Pick<JobDoc, '_id' | 'name'>, status: JobStatus, fields: { from?: JobStatus; error?: string; task?: string } = {}) {
  const entry = { jobId: job._id, workflow: job.name, status, ...fields };
  if (status === 'error') log.error(entry, `job of workflow "${job.name}" stopped in error: ${fields.error ?? ''}`);
  else log.info(entry, `job of workflow "${job.name}" ${status}`);
}
