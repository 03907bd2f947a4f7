// The task worker's options and counters (worker.ts).
import type { Logger } from 'pino';
import type { JobRunner } from '../jobs/runner';

/**
 * Tasks a worker runs at once by default. Only tasks that run count (a built-in's run, an adapter
 * call in flight); a task waiting on a timer, a child job or an operator holds no slot. Large
 * enough that 100 slow adapter calls leave room for the tasks of other jobs; an adapter
 * instance's own throttle (properties.throttle) bounds its calls where it declares one.
 */
export const DEFAULT_CONCURRENCY = 256;

export interface WorkerOptions {
  runner: JobRunner;
  /** Identifies this server; the worker id adds a suffix per start. */
  serverId: string;
  /** Tasks run at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
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
