// What the job runner keeps of what it read, so a task's run does not read it again:
// - workflows by name, read at most once a second for job starts (a write through the workflow
//   service of the same container is seen at once; one from elsewhere within that second);
// - the fields a job has fixed from its start (its tasks, transitions and errorHandler, never
//   written after the start: its workflow snapshot, snapshots.ts), so later reads leave them out.
import type { Collection } from '../../store/port';
import { makeRoom } from '../../values/bounded-map';
import type { WorkflowWrites } from '../workflow/writes';
import { SNAPSHOT_FIELD, type WorkflowSnapshots } from './snapshots';
import type { JobDoc } from './types';

const WORKFLOW_FRESH_MS = 1000;
const WORKFLOWS_KEPT = 100;
const JOBS_KEPT = 2000;

export class RecentWorkflows<T> {
  private readonly kept = new Map<string, { workflow: T; at: number; writes: number }>();

  constructor(
    private readonly load: (name: string) => Promise<T | null>,
    private readonly writes: WorkflowWrites,
  ) {}

  /** The workflow, at once when it is kept and fresh (no promise: a start's first step), or read. */
  get(name: string): T | null | Promise<T | null> {
    const kept = this.kept.get(name);
    if (kept && kept.writes === this.writes.value && Date.now() - kept.at < WORKFLOW_FRESH_MS) return kept.workflow;
    return this.read(name);
  }

  private async read(name: string): Promise<T | null> {
    const writes = this.writes.value;
    const at = Date.now();
    const workflow = await this.load(name);
    this.kept.delete(name);
    if (workflow) {
      makeRoom(this.kept, WORKFLOWS_KEPT);
      this.kept.set(name, { workflow, at, writes });
    }
    return workflow;
  }
}

/** A job's fields fixed at its start, from its workflow. */
type Fixed = Pick<JobDoc, 'tasks' | 'transitions'> & Partial<Pick<JobDoc, 'errorHandler'>> & { name: string; startTime: number };
const FIXED_PROJECTION = { tasks: 0, transitions: 0, errorHandler: 0, [SNAPSHOT_FIELD]: 0 } as const;

export class RecentJobs {
  private readonly fixed = new Map<string, Fixed>();

  constructor(
    private readonly jobs: Collection<JobDoc>,
    private readonly snapshots: WorkflowSnapshots,
  ) {}

  remember(job: JobDoc) {
    makeRoom(this.fixed, JOBS_KEPT);
    this.fixed.set(job._id, { name: job.name, startTime: job.metrics?.start_time, tasks: job.tasks, transitions: job.transitions, ...(job.errorHandler !== undefined ? { errorHandler: job.errorHandler } : {}) });
  }

  /** The job, read without its fixed fields when they are kept. */
  async read(id: string): Promise<JobDoc | null> {
    const fixed = this.fixed.get(id);
    if (fixed) {
      const job = await this.jobs.findOne({ _id: id }, { projection: FIXED_PROJECTION });
      if (!job) return null;
      // The same job (one removed and started again under its id differs in start time or workflow).
      if (job.name === fixed.name && job.metrics?.start_time === fixed.startTime) {
        return Object.assign(job, { tasks: fixed.tasks, transitions: fixed.transitions }, fixed.errorHandler !== undefined ? { errorHandler: fixed.errorHandler } : {});
      }
    }
    const stored = await this.jobs.findOne({ _id: id });
    if (!stored) return null;
    const job = await this.snapshots.whole(stored);
    this.remember(job);
    return job;
  }
}
