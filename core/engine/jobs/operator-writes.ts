// What an operator's action writes, once actions.ts has accepted it: the job's status,
// its tasks, the claims of its manual tasks, its history, and what follows (a canceled
// job's children canceled and its parent's task told; a resumed job advanced; a finished
// manual task's job advanced: the follow-ups of a decision, which the executor works off).
// The executor runs them as one unit of work. Each write is
// conditional on what the decision was made from: one that finds it changed meanwhile
// refuses the action (409), and the unit of work writes nothing.
import type { Logger } from 'pino';
import { ConsoleError } from '../../errors';
import { isDuplicateKey } from '../../store/errors';
import { NEVER } from '../queue/queue';
import type { OperatorWrite } from './actions';
import type { TaskOutcome } from '../tasks/library';
import type { ChildStart } from './children';
import type { JobEvent } from './decide';
import type { JobReads } from './reads';
import { TERMINAL, type JobDoc } from './types';

/** Work that follows from a decision carried out. */
export type FollowUp =
  /** A record ended: its job is advanced (read again). */
  | { kind: 'ended'; recordId: string }
  /** An event of a job read again. */
  | { kind: 'event'; jobId: string; event: JobEvent }
  /** A child job ended: its parent's childJob task is told. */
  | { kind: 'child-ended'; childId: string }
  /** A childJob record that waits for its children ends. */
  | { kind: 'end-waiting'; recordId: string; outcome: TaskOutcome }
  /** A child job starts (a sequential loop's next element); `failure` prefixes the task's error when it cannot. */
  | { kind: 'start-child'; start: ChildStart; failure: string };

export interface OperatorParts {
  reads: JobReads;
  log: Logger;
}

const changedMeanwhile = (taskId: string) => new ConsoleError('conflict', `task ${taskId} changed meanwhile; reload and try again`);

export async function operatorWritten(parts: OperatorParts, job: JobDoc, write: OperatorWrite): Promise<FollowUp[]> {
  const id = job._id;
  const { log, reads } = parts;
  const { jobs, tasks } = reads;
  const now = Date.now();
  switch (write.kind) {
    case 'op-cancel': {
      // Conditional on the status it was decided from: a cancel carried out twice (or after the job ended meanwhile) writes nothing.
      const canceled = await jobs.updateOne({ _id: id, status: write.from }, { $set: { status: 'canceled', 'metrics.end_time': now, last_updated: now } });
      if (!canceled.matched) throw new ConsoleError('conflict', `job ${id} changed meanwhile (it is no longer ${write.from}); reload and try again`);
      await tasks.updateMany({ jobId: id, status: { $in: ['queued', 'running', 'waiting'] } }, { $set: { status: 'canceled', 'metrics.end_time': now }, $unset: { leaseUntil: '' } });
      log.info({ jobId: id, workflow: job.name, status: 'canceled', from: write.from }, `job of workflow "${job.name}" canceled`);
      const follow: FollowUp[] = [];
      for (const childId of await reads.childIds(job)) {
        const child = await reads.job(childId);
        if (child && !TERMINAL.includes(child.status)) follow.push({ kind: 'event', jobId: childId, event: { kind: 'operator', action: { kind: 'cancel' } } });
      }
      return [...follow, { kind: 'child-ended', childId: id }];
    }
    case 'op-pause':
      await jobs.updateOne({ _id: id, status: 'running' }, { $set: { status: 'paused', last_updated: now } });
      await tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: NEVER } });
      log.info({ jobId: id, workflow: job.name, status: 'paused', from: 'running' }, `job of workflow "${job.name}" paused`);
      return [];
    case 'op-resume':
      await jobs.updateOne({ _id: id, status: 'paused' }, { $set: { status: 'running', last_updated: now } });
      await tasks.updateMany({ jobId: id, status: 'queued' }, { $set: { runAfter: now } });
      log.info({ jobId: id, workflow: job.name, status: 'running', from: 'paused' }, `job of workflow "${job.name}" resumed`);
      return [{ kind: 'event', jobId: id, event: { kind: 'advance' } }];
    case 'op-retry':
      return retry(parts, job, write);
    case 'op-finish': {
      const result = await tasks.updateOne({ _id: write.record._id, status: 'waiting' }, { $set: write.fields });
      if (!result.matched) throw changedMeanwhile(write.record.taskId);
      // A claim outlives nothing: the task it held is done.
      if (write.claimed) await reads.claims.deleteOne({ _id: write.record._id });
      return [{ kind: 'ended', recordId: write.record._id }];
    }
    case 'op-claim': {
      const { claim, replaces } = write;
      if (replaces !== undefined) {
        const taken = await reads.claims.updateOne({ _id: claim._id, assignee: replaces }, { $set: { assignee: claim.assignee, claimedAt: claim.claimedAt } });
        if (!taken.matched) throw claimedMeanwhile(claim._id);
      } else {
        try {
          await reads.claims.insertOne({ ...claim });
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          throw claimedMeanwhile(claim._id);
        }
      }
      log.info({ jobId: id, recordId: claim._id, assignee: claim.assignee, ...(replaces ? { from: replaces } : {}) }, `task ${claim._id} ${replaces ? `taken over from ${replaces}` : 'claimed'} by ${claim.assignee}`);
      return [];
    }
    case 'op-release':
      await reads.claims.deleteOne({ _id: write.recordId, assignee: write.assignee });
      log.info({ jobId: id, recordId: write.recordId, assignee: write.assignee }, `task ${write.recordId} released by ${write.assignee}`);
      return [];
    case 'history':
      try {
        await reads.history.insertOne({ ...write.entry });
      } catch (error) {
        // Its id is made from what it records: written already by the same decision.
        if (!isDuplicateKey(error)) throw error;
      }
      return [];
  }
}

const claimedMeanwhile = (recordId: string) => new ConsoleError('conflict', `task "${recordId}" was claimed meanwhile; reload and try again`);

async function retry(parts: OperatorParts, job: JobDoc, write: Extract<OperatorWrite, { kind: 'op-retry' }>): Promise<FollowUp[]> {
  const { record } = write;
  const { jobs, tasks } = parts.reads;
  const now = Date.now();
  // The operator's changes first: the task reads them when it runs again.
  if (write.variablesSet) await jobs.updateOne({ _id: job._id }, { $set: write.variablesSet });
  const result = await tasks.updateOne(
    { _id: record._id, status: 'error' },
    {
      $set: { status: 'queued', runAfter: write.paused ? NEVER : now, queuedAt: now, ...(write.incomingOverride ? { incomingOverride: write.incomingOverride } : {}) },
      $unset: { finishState: '', error: '', outgoing: '', jobVariables: '', childJob: '', loop: '', workerId: '', leaseUntil: '', advanced: '', autoRetries: '', 'metrics.end_time': '' },
    },
  );
  if (!result.matched) throw changedMeanwhile(record.taskId);
  if (write.reopen) {
    await jobs.updateOne({ _id: job._id, status: 'error' }, { $set: { status: 'running', last_updated: now }, $unset: { error: '', 'metrics.end_time': '' } });
    parts.log.info({ jobId: job._id, workflow: job.name, status: 'running', from: 'error' }, `job of workflow "${job.name}" running again`);
  }
  parts.log.info({ jobId: job._id, taskId: record.taskId, recordId: record._id }, `task ${record.taskId} queued again by an operator`);
  return [];
}
