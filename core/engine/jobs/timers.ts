// Durable timers: a task that waits (delay, stub's delay, MOP's reattempt; any outcome
// with `after`) holds no worker slot. Its record goes back to the queue with `runAfter`
// at the due time and the outcome it ends with (`timer`); a worker claims it only once
// it is due (queue.claim takes `runAfter <= now`), and the task then ends as it would
// have after the wait ("timer fired", an event of the decision core). The due time is
// in the store: a graceful stop or a kill -9 does not start the wait again from zero.
// retrySettings' delay is the same kind of wait: its record is queued with `runAfter`.
import { decodeVariables } from '../../values/undefined-codec';
import type { TaskOutcome } from '../tasks/library';
import { NEVER, type TaskRecord, type TaskTimer } from '../queue/queue';
import { safeEncode } from './records';

/** The timer of `record`, whose run answered `outcome` with a wait (`after` ms), set at `now`. */
export function timerOf(record: Pick<TaskRecord, 'queuedAt' | 'metrics'>, outcome: TaskOutcome, now: number): TaskTimer {
  const { state, outgoing, error } = outcome;
  return {
    due: now + Math.max(0, outcome.after ?? 0),
    started: record.metrics.start_time ?? now,
    queued: record.queuedAt,
    outcome: { state, outgoing: safeEncode(outgoing ?? {}, 'outgoing'), ...(error !== undefined ? { error } : {}) },
  };
}

/** What the task ends with when its timer fires. */
export function firedOutcome(timer: TaskTimer): TaskOutcome {
  const { state, outgoing, error } = timer.outcome;
  return { state, outgoing: decodeVariables(outgoing), ...(error !== undefined ? { error } : {}) };
}

/** Whether a claimed record's timer has come (a record claimed earlier, after a resume or a swept lease, is queued again for it). */
export function isDue(timer: TaskTimer, now: number): boolean {
  return timer.due <= now;
}

/**
 * When a queued task will run, shown as "waiting until": its timer's due time, or the
 * time a retrySettings retry is queued for. Undefined for a task that can run now or
 * whose job is paused (no time set).
 */
export function waitingUntil(record: Pick<TaskRecord, 'status' | 'timer' | 'runAfter' | 'autoRetries' | 'queuedAt'>): number | undefined {
  if (record.status !== 'queued') return undefined;
  if (record.timer) return record.timer.due;
  if (record.autoRetries && record.runAfter !== NEVER && record.runAfter > record.queuedAt) return record.runAfter;
  return undefined;
}
