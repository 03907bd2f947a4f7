// Claims of manual tasks (collection `task_claims`, one document per task record id): an
// operator claims a waiting task so that nobody else finishes it; they release it to hand it
// back, or another operator takes it over, which the job's history records. Pure: each action
// is checked against the task's record and its claim and answered with the writes it makes,
// or refused (404: no such task waits; 409: another operator holds it, naming them).
import { DomainError } from '../../errors/domain';
import type { TaskRecord } from '../queue/queue';
import type { HistoryWrite } from './history';

export const TASK_CLAIMS = 'task_claims';

export type TaskClaim = {
  /** The task record's id. */
  _id: string;
  assignee: string;
  claimedAt: number;
};

export type ClaimAction =
  | { kind: 'claim'; recordId: string; operator: string }
  | { kind: 'release'; recordId: string; operator: string }
  /** Operations Manager's assign: the task is claimed for `assignee` (the operator when absent) whoever holds it, recorded in the job's history. */
  | { kind: 'take-over'; recordId: string; operator: string; assignee?: string };

export type ClaimWrite =
  /** The claim written for its record (none is held, or the one held is replaced: a take-over). */
  | { kind: 'op-claim'; claim: TaskClaim; replaces?: string }
  /** The record's claim, held by `assignee`, removed. */
  | { kind: 'op-release'; recordId: string; assignee: string };

const isWaitingManual = (record: TaskRecord | undefined): record is TaskRecord => record?.status === 'waiting' && record.childJob === undefined;

const heldBy = (recordId: string, claim: TaskClaim, what: string) =>
  new DomainError('not-allowed', `task "${recordId}" is claimed by ${claim.assignee}: ${what}`, { assignee: claim.assignee });

/** A manual task may be finished by whoever claimed it (or by anyone while it is unclaimed). */
export function checkFinisher(record: TaskRecord, claim: TaskClaim | undefined, operator: string | undefined) {
  if (claim && claim.assignee !== operator) {
    throw new DomainError('not-allowed', `task ${record.taskId} is claimed by ${claim.assignee}: only they can finish it, unless it is taken over first`, { assignee: claim.assignee });
  }
}

/** The writes of a claim, a release or a take-over of a waiting manual task's record. */
export function claimWrites(record: TaskRecord | undefined, claim: TaskClaim | undefined, action: ClaimAction, now: number): (ClaimWrite | HistoryWrite)[] {
  const { recordId, operator } = action;
  if (!isWaitingManual(record) || record._id !== recordId) throw new DomainError('no-such-part', `no manual task "${recordId}" is waiting for an operator`);
  const mine = claim?.assignee === operator;
  switch (action.kind) {
    case 'claim':
      if (claim && !mine) throw heldBy(recordId, claim, 'they release it first, or it is taken over');
      return mine ? [] : [{ kind: 'op-claim', claim: { _id: recordId, assignee: operator, claimedAt: now } }];
    case 'release':
      if (!claim) return [];
      if (!mine) throw heldBy(recordId, claim, 'only they can release it, unless it is taken over first');
      return [{ kind: 'op-release', recordId, assignee: operator }];
    case 'take-over': {
      const assignee = action.assignee ?? operator;
      if (claim?.assignee === assignee) return [];
      const taken: ClaimWrite = { kind: 'op-claim', claim: { _id: recordId, assignee, claimedAt: now }, ...(claim ? { replaces: claim.assignee } : {}) };
      const what = assignee === operator ? `${operator} took over task ${record.taskId}` : `${operator} assigned task ${record.taskId} to ${assignee}`;
      const message = claim ? `${what} from ${claim.assignee}` : `${what}, which nobody had claimed`;
      const history: HistoryWrite = {
        kind: 'history',
        entry: { _id: `${record.jobId}:task-taken-over:${recordId}:${now}`, jobId: record.jobId, event: 'task-taken-over', message, timestamp: now, taskId: record.taskId, recordId, operator, assignee, ...(claim ? { from: claim.assignee } : {}) },
      };
      return [taken, history];
    }
  }
}
