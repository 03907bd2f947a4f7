// What the job runner says when a job's status changes, in one place: the executor as it writes the
// change, and a start whose job ended in its own write (in-write.ts), which says it after the job's
// start, once the write committed.
import type { Logger } from 'pino';
import type { JobDoc, JobStatus } from './types';

export function sayStatus(log: Pick<Logger, 'info' | 'error'>, job: Pick<JobDoc, '_id' | 'name'>, status: JobStatus, fields: { from?: JobStatus; error?: string } = {}) {
  const entry = { jobId: job._id, workflow: job.name, status, ...fields };
  if (status === 'error') log.error(entry, `job of workflow "${job.name}" stopped in error: ${fields.error ?? ''}`);
  else log.info(entry, `job of workflow "${job.name}" ${status}`);
}
