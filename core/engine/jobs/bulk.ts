// One action on many jobs (the Jobs list's selection): each job is acted on alone,
// and the answer says, per job, whether it was done or why not, so a job that
// cannot take the action (already complete, not paused) never hides the others.
import { ConsoleError, isRefusal } from '../../errors';
import { latestRecords } from './graph';
import type { TaskRecord } from '../queue/queue';
import type { JobDoc } from './types';

/** What a bulk action uses of the job runner. */
export interface BulkRunner {
  requireJob(id: string): Promise<JobDoc>;
  records(jobId: string): Promise<TaskRecord[]>;
  retryTask(id: string, taskId: string): Promise<JobDoc>;
  cancel(id: string): Promise<JobDoc>;
  pause(id: string): Promise<JobDoc>;
  resume(id: string): Promise<JobDoc>;
}

export type BulkAction = 'cancel' | 'pause' | 'resume' | 'retry';

export interface BulkOutcome {
  _id: string;
  ok: boolean;
  status?: string;
  message: string;
}

const DONE: Record<BulkAction, string> = { cancel: 'canceled', pause: 'paused', resume: 'resumed', retry: 'retried' };

/** Retrying a job runs again each task in error that has no error transition. */
async function retryJob(runner: BulkRunner, id: string) {
  const job = await runner.requireJob(id);
  const latest = latestRecords(await runner.records(id));
  const failed = [...latest.values()].filter(
    (r) => r.status === 'error' && !Object.values(job.transitions[r.taskId] ?? {}).some((t) => t.state === 'error'),
  );
  if (failed.length === 0) throw new ConsoleError('conflict', `job ${id} is ${job.status} and has no task in error to retry`);
  let last = job;
  for (const record of failed) last = await runner.retryTask(id, record.taskId);
  return last;
}

export async function bulkJobAction(runner: BulkRunner, action: BulkAction, ids: string[]) {
  const results: BulkOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      const job =
        action === 'retry' ? await retryJob(runner, id) : action === 'cancel' ? await runner.cancel(id) : action === 'pause' ? await runner.pause(id) : await runner.resume(id);
      results.push({ _id: id, ok: true, status: job.status, message: `job ${DONE[action]}` });
    } catch (error) {
      // A job that cannot take the action is reported in its row; anything else is the server's fault.
      if (!(error instanceof ConsoleError) || !isRefusal(error.code)) throw error;
      results.push({ _id: id, ok: false, message: error.message });
    }
  }
  const done = results.filter((r) => r.ok).length;
  const failed = results.length - done;
  const message = `${done} of ${results.length} job${results.length === 1 ? '' : 's'} ${DONE[action]}${failed ? `; ${failed} could not be: see each job's message` : ''}`;
  return { message, data: { results, done, failed } };
}
