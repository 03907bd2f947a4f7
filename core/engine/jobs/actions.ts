// The operator's actions on a job: cancel, pause, resume, retry a task in error,
// finish a manual task (ViewData's buttons finish it in success or failure).
import { OpError } from '../../dispatch/dispatch';
import { decodeVariables, rejectMarker } from '../../values/undefined-codec';
import { NEVER, type FinishState, type TaskRecord } from '../queue/queue';
import { latestRecords } from './graph';
import { endFields, hasTransition } from './records';
import type { RunnerPort as JobRunner } from './port';
import { TERMINAL, type JobDoc } from './types';

export async function cancel(runner: JobRunner, id: string): Promise<JobDoc> {
  const job = await runner.requireJob(id);
  if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is already ${job.status}`);
  const now = Date.now();
  await runner.jobs.updateOne({ _id: id }, { $set: { status: 'canceled', 'metrics.end_time': now, last_updated: now } });
  await runner.queue.tasks.updateMany(
    { jobId: id, status: { $in: ['queued', 'running', 'waiting'] } },
    { $set: { status: 'canceled', 'metrics.end_time': now }, $unset: { leaseUntil: '' } },
  );
  for (const childId of await runner.childIds(job)) {
    const child = await runner.job(childId);
    if (child && !TERMINAL.includes(child.status)) await cancel(runner, childId);
  }
  runner.log.info({ jobId: id, workflow: job.name, status: 'canceled', from: job.status }, `job of workflow "${job.name}" canceled`);
  await runner.finishParentTask(id);
  return (await runner.job(id))!;
}

export async function pause(runner: JobRunner, id: string): Promise<JobDoc> {
  const job = await runner.requireJob(id);
  if (job.status !== 'running') throw new OpError(409, `job ${id} is ${job.status}; only a running job can be paused`);
  await runner.jobs.updateOne({ _id: id, status: 'running' }, { $set: { status: 'paused', last_updated: Date.now() } });
  await runner.queue.tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: NEVER } });
  runner.log.info({ jobId: id, workflow: job.name, status: 'paused', from: 'running' }, `job of workflow "${job.name}" paused`);
  return (await runner.job(id))!;
}

export async function resume(runner: JobRunner, id: string): Promise<JobDoc> {
  const job = await runner.requireJob(id);
  if (job.status !== 'paused') throw new OpError(409, `job ${id} is ${job.status}; only a paused job can be resumed`);
  await runner.jobs.updateOne({ _id: id, status: 'paused' }, { $set: { status: 'running', last_updated: Date.now() } });
  await runner.queue.tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: Date.now() } });
  runner.log.info({ jobId: id, workflow: job.name, status: 'running', from: 'paused' }, `job of workflow "${job.name}" resumed`);
  await runner.advance(id);
  return (await runner.job(id))!;
}

async function latestOf(runner: JobRunner, job: JobDoc, taskId: string): Promise<TaskRecord> {
  if (!job.tasks[taskId]) throw new OpError(404, `job ${job._id} has no task "${taskId}"`);
  const record = latestRecords(await runner.records(job._id)).get(taskId) as TaskRecord | undefined;
  if (!record) throw new OpError(409, `task ${taskId} of job ${job._id} has not run yet`);
  return record;
}

export async function retryTask(runner: JobRunner, id: string, taskId: string): Promise<JobDoc> {
  const job = await runner.requireJob(id);
  if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is ${job.status}; its tasks cannot be retried`);
  const record = await latestOf(runner, job, taskId);
  if (record.status !== 'error') throw new OpError(409, `task ${taskId} is ${record.status}; only a task in error can be retried`);
  if (hasTransition(job, taskId, 'error')) throw new OpError(409, `task ${taskId} already took its error transition; it cannot be retried`);
  const now = Date.now();
  const result = await runner.queue.tasks.updateOne(
    { _id: record._id, status: 'error' },
    {
      $set: { status: 'queued', runAfter: job.status === 'paused' ? NEVER : now, queuedAt: now },
      $unset: { finishState: '', error: '', outgoing: '', jobVariables: '', childJob: '', loop: '', workerId: '', leaseUntil: '', advanced: '', autoRetries: '', 'metrics.end_time': '' },
    },
  );
  if (!result.matched) throw new OpError(409, `task ${taskId} changed meanwhile; reload and try again`);
  const others = (await runner.records(id)).filter((r) => r._id !== record._id);
  if (job.status === 'error' && !runner.stoppedOn(job, others)) {
    await runner.jobs.updateOne({ _id: id, status: 'error' }, { $set: { status: 'running', last_updated: now }, $unset: { error: '', 'metrics.end_time': '' } });
    runner.log.info({ jobId: id, workflow: job.name, status: 'running', from: 'error' }, `job of workflow "${job.name}" running again`);
  }
  runner.log.info({ jobId: id, taskId, recordId: record._id }, `task ${taskId} queued again by an operator`);
  return (await runner.job(id))!;
}

export async function finishTask(runner: JobRunner, id: string, taskId: string, values: Record<string, unknown>, state: FinishState): Promise<JobDoc> {
  const job = await runner.requireJob(id);
  if (TERMINAL.includes(job.status)) throw new OpError(409, `job ${id} is ${job.status}`);
  const record = await latestOf(runner, job, taskId);
  if (record.status !== 'waiting' || record.childJob) {
    throw new OpError(409, `task ${taskId} is ${record.status}${record.childJob ? ' (waiting for its child job)' : ''}; only a manual task waiting for an operator can be finished`);
  }
  if (state === 'loop') throw new OpError(400, 'body.state: a manual task ends in success, failure or error');
  try {
    rejectMarker(values, 'body.values');
  } catch (error) {
    throw new OpError(400, (error as Error).message);
  }
  const result = await runner.queue.tasks.updateOne(
    { _id: record._id, status: 'waiting' },
    { $set: { ...endFields(decodeVariables(record.incoming), { state, outgoing: values }), 'metrics.start_time': record.queuedAt } },
  );
  if (!result.matched) throw new OpError(409, `task ${taskId} changed meanwhile; reload and try again`);
  await runner.afterEnd(record._id);
  return (await runner.job(id))!;
}
