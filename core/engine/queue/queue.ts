// The persistent task queue (DESIGN.md "The task queue"): task records in the
// `tasks` collection. A worker claims a queued record atomically, holding a lease
// it renews while the task runs; a sweeper re-queues records whose lease expired
// (crashed worker). Every write a worker makes to a claimed record is conditional
// on its worker id and the attempt number it claimed (a fencing token), so a
// worker that lost its lease can neither renew nor complete the task.
import type { Collection, Doc, Store } from '../../store/port';

export type TaskStatus = 'queued' | 'running' | 'complete' | 'error' | 'canceled' | 'waiting';
/** The state a task ends in; `loop` is forEach's, once per element (its `loop` transitions run the body). */
export type FinishState = 'success' | 'error' | 'failure' | 'loop';

/** One run of one workflow task inside a job (a task that loops runs again as a new iteration). */
export interface TaskRecord extends Doc {
  _id: string;
  jobId: string;
  /** The service's key of a task document to its job (its tools find a job's tasks by `job._id`). Absent in records of earlier versions. */
  job?: { _id: string };
  taskId: string;
  iteration: number;
  name: string;
  app: string;
  type: string;
  summary?: string;
  status: TaskStatus;
  /** The state the task ended in; decides which transitions fire. */
  finishState?: FinishState;
  queuedAt: number;
  runAfter: number;
  workerId?: string;
  attempt: number;
  leaseUntil?: number;
  incoming?: Record<string, unknown>;
  /** The incoming values an operator gave a retry (edit and retry): used as they are, not resolved again. */
  incomingOverride?: Record<string, unknown>;
  outgoing?: Record<string, unknown>;
  error?: string;
  /** False between a task's completion and the job runner having acted on it. */
  advanced?: boolean;
  /** Ids of the records whose transitions started this one. */
  from?: string[];
  /** The child job a childJob task waits for (a loop's children are named from it). */
  childJob?: string;
  /** A childJob loop's children: their type, ids and job variables (encoded), one per element. */
  loop?: { type: 'parallel' | 'sequential'; ids: string[]; variables: Record<string, unknown>[] };
  /** The job variables the task's run set itself (encoded). */
  jobVariables?: Record<string, unknown>;
  /** forEach: the element this run handed out. */
  loopIndex?: number;
  /** A wait the task asked for (delay, reattempt, stub): queued with `runAfter` at its due time, holding no worker slot. */
  timer?: TaskTimer;
  /** retrySettings: the automatic retries made so far, and their errors. */
  autoRetries?: number;
  retryErrors?: string[];
  /** server_id: the server whose worker claimed the task last, as the service's task documents name it. */
  metrics: { start_time?: number; end_time?: number; claimed_at?: number; server_id?: string };
}

/**
 * A durable timer (jobs/timers.ts): the task ends with `outcome` once `due` (ms since the
 * epoch) has come; until then its record is queued with `runAfter` at `due`, so no worker
 * claims it before. `started`: when the task first ran (its start time, kept through the wait).
 */
export interface TaskTimer {
  due: number;
  started: number;
  /** The record's `queuedAt` before the wait: while it waits its `queuedAt` is `due` (it is queued to run then). */
  queued: number;
  /** The outcome it ends with (`outgoing` encoded for the store). */
  outcome: { state: FinishState; outgoing: Record<string, unknown>; error?: string };
}

/** The server a worker id belongs to (`<serverId>:<random>`, worker.ts). */
export const serverOf = (workerId: string) => {
  const colon = workerId.lastIndexOf(':');
  return colon > 0 ? workerId.slice(0, colon) : workerId;
};

/** The part of a claimed record that proves who holds it. */
export interface Claim {
  _id: string;
  workerId: string;
  attempt: number;
}

/** A runAfter that never comes: the tasks of a paused job wait with it. */
export const NEVER = Number.MAX_SAFE_INTEGER;

export class TaskQueue {
  readonly tasks: Collection<TaskRecord>;
  /** Whether a claim of several tasks is one write (the embedded store): on MongoDB it is one call per task, the first waiting for the last. */
  private readonly claimsAtOnce: boolean;
  constructor(store: Store) {
    this.tasks = store.collection<TaskRecord>('tasks');
    this.claimsAtOnce = store.kind === 'embedded';
  }

  /**
   * Claims the oldest queued task that may run now, or returns null. The
   * find-one-and-update is atomic in both adapters, so two workers never hold
   * the same attempt of a task.
   */
  async claim(workerId: string, leaseMs: number, now = Date.now()): Promise<TaskRecord | null> {
    return this.tasks.findOneAndUpdate(claimable(now), claimUpdate(workerId, leaseMs, now), { sort: { queuedAt: 1 } });
  }

  /**
   * Claims up to `n` of the oldest queued tasks that may run now, oldest first (empty when none), in
   * one write on the embedded store. On MongoDB one only: `n` would be `n` calls there, each task
   * waiting for the claims after it, where one claim per call lets each run as soon as it is claimed.
   */
  async claimMany(workerId: string, leaseMs: number, n: number, now = Date.now()): Promise<TaskRecord[]> {
    if (n === 1 || !this.claimsAtOnce) return this.claim(workerId, leaseMs, now).then((record) => (record ? [record] : []));
    return this.tasks.findManyAndUpdate(claimable(now), claimUpdate(workerId, leaseMs, now), { sort: { queuedAt: 1 }, limit: n });
  }

  /** Extends the lease; false when the worker no longer holds this attempt. */
  async renew(claim: Claim, leaseMs: number, now = Date.now()): Promise<boolean> {
    const result = await this.tasks.updateOne(fence(claim), { $set: { leaseUntil: now + leaseMs } });
    return result.matched > 0;
  }

  /**
   * Writes the end of a claimed task; false (and nothing written) when the
   * worker lost its lease or the task was canceled meanwhile.
   */
  complete(claim: Claim, fields: Record<string, unknown>, timer = false): Promise<boolean> {
    // A timer that fired (`timer`) goes with the wait it ended: a retry of the task runs it again.
    const $unset: Record<string, ''> = timer ? { leaseUntil: '', timer: '' } : { leaseUntil: '' };
    return this.tasks.updateOne(fence(claim), { $set: fields, $unset }).then((result) => result.matched > 0);
  }

  /**
   * Sets a claimed task's timer: the record goes back to the queue due at `timer.due`, with
   * what it ends with then, and the worker's slot is free. False when the claim was lost.
   */
  async wait(claim: Claim, timer: TaskTimer, incoming: Record<string, unknown>): Promise<boolean> {
    const result = await this.tasks.updateOne(fence(claim), {
      // Queued as of its due time: the claim (oldest queuedAt first) reads the tasks due now before any waiting one.
      $set: { status: 'queued', runAfter: timer.due, queuedAt: timer.due, timer, incoming },
      $unset: { workerId: '', leaseUntil: '' },
    });
    if (result.matched > 0) this.armed = Math.min(this.armed ?? timer.due, timer.due);
    return result.matched > 0;
  }

  /** The store's answer to nextDue when last read, and the earliest timer this queue set since. */
  private dueRead?: { at: number; due?: number };
  private armed?: number;

  /**
   * The earliest time a queued task is due after `now` (a timer, a retry's delay), if any. The
   * store is read at most every `maxAgeMs` (1,000 waiting records cost a scan): in between, the
   * answer read then and the timers this queue set since. An idle worker polls anyway; this only
   * wakes it sooner.
   */
  async nextDue(now = Date.now(), maxAgeMs = 1000): Promise<number | undefined> {
    const read = this.dueRead;
    if (!read || now - read.at >= maxAgeMs || (read.due !== undefined && read.due <= now)) {
      const [next] = await this.tasks.find({ status: 'queued', runAfter: { $gt: now, $lt: NEVER } }, { sort: { runAfter: 1 }, limit: 1, projection: { runAfter: 1 } });
      this.dueRead = { at: now, due: next?.runAfter };
      this.armed = undefined;
    }
    const known = [this.dueRead?.due, this.armed].filter((due): due is number => due !== undefined && due > now);
    return known.length ? Math.min(...known) : undefined;
  }

  /** Gives a claimed task back to the queue (a worker stopping; a timer claimed early, due at `now`), keeping its place. */
  async release(claim: Claim, now = Date.now()): Promise<boolean> {
    const result = await this.tasks.updateOne(fence(claim), {
      $set: { status: 'queued', runAfter: now },
      $unset: { workerId: '', leaseUntil: '' },
    });
    return result.matched > 0;
  }

  /** Re-queues every running task whose lease expired; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    const result = await this.tasks.updateMany(
      { status: 'running', leaseUntil: { $lt: now } },
      { $set: { status: 'queued', runAfter: now }, $unset: { workerId: '', leaseUntil: '' } },
    );
    return result.modified;
  }

  /** Records that ended but whose job was not advanced after `olderThan` (the worker died in between). */
  async unadvanced(olderThan: number, limit = 50): Promise<TaskRecord[]> {
    return this.tasks.find({ advanced: false, 'metrics.end_time': { $lt: olderThan } }, { sort: { 'metrics.end_time': 1 }, limit });
  }
}

const claimable = (now: number) => ({ status: 'queued', runAfter: { $lte: now } });

const claimUpdate = (workerId: string, leaseMs: number, now: number) => ({
  $set: { status: 'running', workerId, leaseUntil: now + leaseMs, 'metrics.claimed_at': now, 'metrics.start_time': now, 'metrics.server_id': serverOf(workerId) },
  $inc: { attempt: 1 },
});

export function fence(claim: Claim) {
  return { _id: claim._id, status: 'running', workerId: claim.workerId, attempt: claim.attempt };
}
