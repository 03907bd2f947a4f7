// The task worker's options and counters (worker.ts).
import type { Logger } from 'pino';
import type { JobRunner } from '../jobs/runner';
import type { TaskRecord } from '../queue/queue';
import { applicationTask } from '../tasks/library';

/**
 * Tasks a worker runs at once by default. Only tasks that run count (a built-in's run, an adapter
 * call in flight); a task waiting on a timer, a child job or an operator holds no slot. Large
 * enough that 100 slow adapter calls leave room for the tasks of other jobs; an adapter
 * instance's own throttle (properties.throttle) bounds its calls where it declares one.
 */
export const DEFAULT_CONCURRENCY = 256;

/**
 * Of those, the tasks the console runs itself (built-ins: CPU work in this process) the claim loop
 * takes from the queue while that many run: more at once only interleave the same CPU (100 jobs of
 * 10 built-in tasks ran at about 1,300 tasks/s with all of them in flight, about 2,000 with 8).
 */
export const DEFAULT_LOCAL_CONCURRENCY = 8;

/** The most tasks one claim takes: on the embedded store one write for the slots a group commit freed together. */
export const CLAIM_AT_ONCE = 8;

/** The tasks one claim takes: as many as a worker can take before it is full (all its slots, or its built-ins' share), at most CLAIM_AT_ONCE. */
export const claimRoom = (options: { concurrency: number; localConcurrency: number }, busy: number, localBusy: number) =>
  Math.max(1, Math.min(CLAIM_AT_ONCE, options.concurrency - busy, options.localConcurrency - localBusy));

export interface WorkerOptions {
  runner: JobRunner;
  /** Identifies this server; the worker id adds a suffix per start. */
  serverId: string;
  /** Tasks run at once (default DEFAULT_CONCURRENCY): adapter calls in flight count, timers do not. */
  concurrency?: number;
  /** No task is claimed from the queue while this many built-in tasks run (default DEFAULT_LOCAL_CONCURRENCY; at most `concurrency`). */
  localConcurrency?: number;
  leaseMs?: number;
  /** How often a lease is renewed while its task runs (default: a third of the lease). */
  renewMs?: number;
  /** The longest wait between polls when the queue is empty (polls back off from 5 ms to this). */
  idleMs?: number;
  /** The first wait once the queue is empty (then doubled up to idleMs); default 5 ms. */
  firstIdleMs?: number;
  /**
   * Fairness: how many tasks of one job in a row a worker slot runs by hand-off (the job's
   * next task claimed for it as the last ends) before that next task goes to the queue, where
   * tasks are claimed oldest first across jobs. A job that loops or polls then never keeps a
   * slot from the tasks of other jobs queued meanwhile. Default 16.
   */
  handoffsPerTurn?: number;
  sweepMs?: number;
  /** The worker's decisions and errors (store unreachable...) are logged here; the loop keeps trying. */
  log?: Logger;
  /** Also told of each error of the loop. */
  onError?: (error: unknown) => void;
}

export interface WorkerStats {
  completed: number;
  lostLeases: number;
}

/** A task the console runs itself (a built-in of WorkFlowEngine or of its applications), not an adapter call. */
export function isLocal(record: Pick<TaskRecord, 'app' | 'name'>): boolean {
  return record.app === 'WorkFlowEngine' || applicationTask(record.app, record.name) !== undefined;
}
