// What the job runner keeps of what it read, so a task's run does not read it again:
// - workflows by name, read at most once a second for job starts (a write through the workflow
//   service of the same container is seen at once; one from elsewhere within that second), starts
//   asking while one is read sharing that read;
// - the fields a job has fixed from its start (its tasks, transitions and errorHandler, never
//   written after the start: its workflow snapshot, snapshots.ts), so later reads leave them out.
import { isDeepStrictEqual } from 'node:util';
import type { Collection } from '../../store/port';
import { makeRoom } from '../../values/bounded-map';
import type { WorkflowWrites } from '../workflow/writes';
import { SNAPSHOT_FIELD, type WorkflowSnapshots } from './snapshots';
import type { JobDoc } from './types';

const WORKFLOW_FRESH_MS = 1000;
const WORKFLOWS_KEPT = 100;
/**
 * Jobs whose fixed fields are kept: an entry is ~130 bytes with its id (the fields are one object
 * per workflow version), so the jobs a queue holds are read without them (100,000 jobs: ~13 MB).
 */
const JOBS_KEPT = 100_000;
/** Workflow versions whose fixed fields are found by their text. */
const FIXED_KEPT = 100;

export class RecentWorkflows<T> {
  private readonly kept = new Map<string, { workflow: T; at: number; writes: number }>();
  /**
   * Reads under way, by name, with the write count they began at: starts asking for a workflow while
   * it is read share that read (a burst of 10,000 starts read it once, and their jobs share its
   * objects), unless a write of it came since.
   */
  private readonly reading = new Map<string, { writes: number; workflow: Promise<T | null> }>();

  constructor(
    private readonly load: (name: string) => Promise<T | null>,
    private readonly writes: WorkflowWrites,
  ) {}

  /** The workflow, at once when it is kept and fresh (no promise: a start's first step), or read. */
  get(name: string): T | null | Promise<T | null> {
    const kept = this.kept.get(name);
    if (kept && kept.writes === this.writes.value && Date.now() - kept.at < WORKFLOW_FRESH_MS) return kept.workflow;
    const under = this.reading.get(name);
    if (under && under.writes === this.writes.value) return under.workflow;
    const read = { writes: this.writes.value, workflow: this.read(name) };
    this.reading.set(name, read);
    const done = () => {
      if (this.reading.get(name) === read) this.reading.delete(name);
    };
    // The callers get the read's own promise (its failure too); this one only ends the sharing.
    read.workflow.then(done, done);
    return read.workflow;
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

/**
 * A job's fields fixed at its start, from its workflow: one object for every job of one workflow
 * version (same name, tasks, transitions and errorHandler), so a job's entry is small.
 */
interface Fixed {
  name: string;
  tasks: JobDoc['tasks'];
  transitions: JobDoc['transitions'];
  errorHandler?: JobDoc['errorHandler'];
}
/** What is kept of a job: its fixed fields, and its start time (a job removed and started again under its id differs in it). */
interface Kept {
  fixed: Fixed;
  startTime: number;
}
const FIXED_PROJECTION = { tasks: 0, transitions: 0, errorHandler: 0, [SNAPSHOT_FIELD]: 0 } as const;

/** The fixed fields of each workflow version seen, by their objects and by their text (a read job's are its own objects). */
class FixedFields {
  /** By the job's own tasks object: the fields it was found with (another workflow read's objects, equal), and those found. */
  private readonly byObject = new WeakMap<object, { given: Fixed; found: Fixed }>();
  private readonly byText = new Map<string, Fixed>();

  of(job: JobDoc): Fixed {
    const { name, tasks, transitions, errorHandler } = job;
    const seen = this.byObject.get(tasks);
    if (seen && seen.given.name === name && seen.given.transitions === transitions && seen.given.errorHandler === errorHandler) return seen.found;
    const fixed: Fixed = { name, tasks, transitions, ...(errorHandler !== undefined ? { errorHandler } : {}) };
    // The text finds the candidate; only an equal one (dates, undefined and all) is taken for it.
    const text = JSON.stringify([name, tasks, transitions, errorHandler === undefined ? 0 : 1, errorHandler ?? null]);
    const known = this.byText.get(text);
    const found = known && isDeepStrictEqual(known, fixed) ? known : fixed;
    if (found === fixed) {
      makeRoom(this.byText, FIXED_KEPT);
      this.byText.set(text, fixed);
    }
    this.byObject.set(tasks, { given: fixed, found });
    return found;
  }
}

/**
 * The id as one flat string: an ObjectId's hex text is built of 12 pieces joined (a tree of ~230
 * bytes that V8 keeps as it is), where the key of an entry kept long needs its 48.
 */
function flat(id: string): string {
  const copy: unknown = JSON.parse(JSON.stringify(id));
  return typeof copy === 'string' ? copy : id;
}

export class RecentJobs {
  private readonly kept = new Map<string, Kept>();
  private readonly fixed = new FixedFields();

  constructor(
    private readonly jobs: Collection<JobDoc>,
    private readonly snapshots: WorkflowSnapshots,
  ) {}

  remember(job: JobDoc) {
    makeRoom(this.kept, JOBS_KEPT);
    this.kept.set(flat(job._id), { fixed: this.fixed.of(job), startTime: job.metrics?.start_time });
  }

  /** The job, read without its fixed fields when they are kept. */
  async read(id: string): Promise<JobDoc | null> {
    const kept = this.kept.get(id);
    if (kept) {
      const job = await this.jobs.findOne({ _id: id }, { projection: FIXED_PROJECTION });
      if (!job) return null;
      const { fixed } = kept;
      // The same job (one removed and started again under its id differs in start time or workflow).
      if (job.name === fixed.name && job.metrics?.start_time === kept.startTime) {
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
