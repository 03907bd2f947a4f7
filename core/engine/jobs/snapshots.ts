// A job keeps its workflow's tasks, transitions and errorHandler as they were at its start, in
// its own document, as the service's job documents do (the service's tools and a database the
// service reads again need them there). Jobs stored by an earlier version of the console named a
// shared snapshot in `job_workflows` instead (`workflowSnapshot`): reads put those fields back
// (recent.ts), so every reader of a job sees its whole document. The snapshots are an optimisation
// only: kept in memory by the id of their text, never a place a new job's document depends on.
import { createHash } from 'node:crypto';
import { StoreError } from '../../store/errors';
import type { Collection, Doc } from '../../store/port';
import { makeRoom } from '../../values/bounded-map';
import type { JobDoc } from './types';

export const SNAPSHOTS = 'job_workflows';
export const SNAPSHOT_FIELD = 'workflowSnapshot';
/** Snapshots kept in memory: workflow versions in use at once. */
const KEPT = 200;

export type Snapshot = Pick<JobDoc, 'tasks' | 'transitions'> & { errorHandler?: unknown };
interface SnapshotDoc extends Doc {
  _id: string;
  tasks: JobDoc['tasks'];
  transitions: JobDoc['transitions'];
  errorHandler?: unknown;
}

export class WorkflowSnapshots {
  /** Snapshots known to be in the store (committed with a job, or read from it). */
  private readonly known = new Map<string, Snapshot>();
  /** The id of a workflow's fields, by the objects themselves (jobs of one workflow read share them): hashed once. */
  private readonly ids = new WeakMap<object, { snapshot: Snapshot; id: string }>();

  private idOf(snapshot: Snapshot): string {
    const seen = this.ids.get(snapshot.tasks);
    if (seen && seen.snapshot.transitions === snapshot.transitions && seen.snapshot.errorHandler === snapshot.errorHandler) return seen.id;
    const id = createHash('sha256').update(JSON.stringify(snapshot)).digest('hex').slice(0, 32);
    this.ids.set(snapshot.tasks, { snapshot, id });
    return id;
  }

  constructor(private readonly collection: Collection<SnapshotDoc>) {}

  private keep(id: string, snapshot: Snapshot) {
    makeRoom(this.known, KEPT);
    this.known.set(id, snapshot);
  }

  /**
   * The job's document as stored: whole, its tasks and transitions in it (no snapshot to write
   * first), with the id of its workflow's fields for the jobs read later (`stored`).
   */
  slim(job: JobDoc): { doc: JobDoc; id: string; snapshot: Snapshot; write?: () => Promise<void> } {
    const { tasks, transitions, errorHandler } = job;
    const snapshot: Snapshot = { tasks, transitions, ...(errorHandler !== undefined ? { errorHandler } : {}) };
    return { doc: job, id: this.idOf(snapshot), snapshot };
  }

  stored(id: string, snapshot: Snapshot) {
    this.keep(id, snapshot);
  }

  /** The job whole: its snapshot's fields put back (a job stored whole is answered as it is). */
  async whole(doc: JobDoc): Promise<JobDoc> {
    const id = doc[SNAPSHOT_FIELD];
    if (typeof id !== 'string') return doc;
    let snapshot = this.known.get(id);
    if (!snapshot) {
      const found = await this.collection.findOne({ _id: id });
      // The job names a snapshot the store does not hold: the store lost a document (503, naming both).
      if (!found) throw new StoreError('damaged', `job ${doc._id} names its workflow snapshot ${id}, which the ${SNAPSHOTS} collection does not hold: restore the store from a backup`);
      const { _id, ...fields } = found;
      snapshot = fields;
      this.keep(id, snapshot);
    }
    const { [SNAPSHOT_FIELD]: _id, ...rest } = doc;
    return { ...rest, tasks: snapshot.tasks, transitions: snapshot.transitions, ...(snapshot.errorHandler !== undefined ? { errorHandler: snapshot.errorHandler } : {}) };
  }
}
