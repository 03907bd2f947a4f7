// What a task's run was handed (its job and the job's task records, as the transaction
// that queued the task left them) stands in for reading them again when the task ends,
// as long as the store says none of them was written since: the embedded store's change
// version of the job's document and records (`Store.changeVersion`: this process's
// writes to them, and any commit of another process on the file). Another task of the
// same job ending, an operator's action, a lease renewed or swept, another console on
// the file: each moves the version, and the job and records are read as before.
// A task claimed from the queue (no held state) ends with the job its run read, its version
// taken before that read (`jobStamp`), when unchanged: only its records are read again.
// With CONSOLE_VERIFY_HELD=1 (the tests) each use is checked against a read.
import type { Logger } from 'pino';
import type { Store } from '../../store/port';
import type { TaskRecord } from '../queue/queue';
import type { JobDoc } from './types';
import { withBoundaries } from './records';
import { decodeVariables } from '../../values/undefined-codec';

/** What a job's record was advanced with, kept for the task a worker runs next (no re-read). */
export interface Held {
  job: JobDoc;
  records: TaskRecord[];
  /**
   * The store's change version of the job and its records when the transaction that wrote
   * them ended (embedded store): while it is unchanged, the next task's end uses `job` and
   * `records` instead of reading them again.
   */
  stamp?: string;
  /** `records` may lack some: never stamped. */
  inexact?: boolean;
}

/** A job's fields from its workflow (kept by recent.ts, put back at the end of a job read). */
const isWorkflowField = (key: string) => key === 'tasks' || key === 'transitions' || key === 'errorHandler';

/** What the advance reads of a record: the checked fields. */
const recordView = (r: TaskRecord) =>
  JSON.stringify([r._id, r.taskId, r.iteration, r.status, r.finishState ?? null, r.error ?? null, r.from ?? null, decodeVariables(r.outgoing) ?? null, r.advanced ?? null]);

export class HeldState {
  private readonly verify = process.env.CONSOLE_VERIFY_HELD === '1';

  constructor(
    private readonly store: Store,
    /** Where a held state that differs from the store's is said (CONSOLE_VERIFY_HELD), before the task fails with it. */
    private readonly log: Pick<Logger, 'error'>,
  ) {
    store.trackChanges?.('jobs', '_id');
    store.trackChanges?.('tasks', 'jobId');
  }

  /** The job's version now: its document and its task records; undefined where the store cannot tell. */
  private stamp(jobId: string): string | undefined {
    const job = this.store.changeVersion?.('jobs', jobId);
    const records = this.store.changeVersion?.('tasks', jobId);
    return job === undefined || records === undefined ? undefined : `${job}/${records}`;
  }

  /** Sets the version on what the transaction now ending hands to the tasks it claimed. */
  stampAll(jobId: string, claimed: { held: Held }[]) {
    if (claimed.length === 0) return;
    const stamp = this.stamp(jobId);
    for (const { held } of claimed) if (!held.inexact) held.stamp = stamp;
  }

  /**
   * `given` when it is still what the store holds of the job (call inside the transaction, before it writes).
   * Synchronous unless CONSOLE_VERIFY_HELD checks it against a read (a promise then).
   */
  current(jobId: string, given: Partial<Held> | undefined): Held | undefined | Promise<Held> {
    if (!given?.job || !given.records || given.stamp === undefined || given.stamp !== this.stamp(jobId)) return undefined;
    const held = { job: given.job, records: given.records, stamp: given.stamp };
    return this.verify ? this.check(jobId, held).then(() => held) : held;
  }

  /** The version of the job's document now: taken before the job is read (a write meanwhile moves it), or undefined where the store cannot tell. */
  jobStamp(jobId: string, before = false): string | undefined {
    return this.store.changeVersion?.('jobs', jobId, before);
  }

  /**
   * The job a task's run read (its records are read again) when its document is unchanged since
   * `stamp` (call inside the transaction, before it writes). Synchronous unless CONSOLE_VERIFY_HELD checks it.
   */
  currentJob(jobId: string, read: { job: JobDoc; stamp?: string } | undefined): JobDoc | undefined | Promise<JobDoc> {
    if (!read || read.stamp === undefined || read.stamp !== this.jobStamp(jobId)) return undefined;
    return this.verify ? this.check(jobId, { job: read.job }).then(() => read.job) : read.job;
  }

  /** Checks what is held against a read (CONSOLE_VERIFY_HELD); a job held without records is checked as read, field for field but its workflow's. */
  private async check(jobId: string, held: Pick<Held, 'job'> & Partial<Held>) {
    const job = await this.store.collection<JobDoc>('jobs').findOne({ _id: jobId });
    const records = held.records ? withBoundaries(job, await this.store.collection<TaskRecord>('tasks').find({ jobId })) : [];
    const fields = (doc: JobDoc | null) => (held.records ? [doc?.status, doc?.variables] : Object.entries(doc ?? {}).filter(([key]) => !isWorkflowField(key)));
    const read = JSON.stringify([fields(job), records.map(recordView).sort()]);
    const kept = JSON.stringify([fields(held.job), (held.records ?? []).map(recordView).sort()]);
    if (read !== kept) {
      const error = new Error(`job ${jobId}: the job and records held differ from the store's:\nheld ${kept}\nread ${read}`);
      this.log.error({ err: error, jobId }, error.message);
      throw error;
    }
  }
}

/**
 * Eager dispatch: the worker running a task lets the executor claim one next task of
 * the same job for it, in the same write that queues it (still fenced and leased).
 */
export interface Handoff {
  /** The worker's id and a lease for one more task now, or undefined when it has no room (or the job had its turn). */
  take(): { workerId: string; leaseUntil: number } | undefined;
  /** Runs a record claimed for this worker, with the job and records it was made from. */
  run(record: TaskRecord, held: Held): void;
  /** A claim taken and not run (its record was not written): frees what `take` reserved. */
  drop?(): void;
}

/**
 * A worker's handoff in an advance: `claimed` gets the record claimed for it, with what its run is handed.
 * `inWrite`: how many more tasks the write may run itself with the claim (in-write.ts), undefined for none.
 */
export type AdvanceHandoff = Handoff & { claimed: { record: TaskRecord; held: Held }[]; inWrite?: number };
