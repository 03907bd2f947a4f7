// What the engine reads of jobs and their task records. A job's fields fixed at its
// start are kept (recent.ts), so reading it again leaves them out.
import { ConsoleError } from '../../errors';
import type { Collection, Store } from '../../store/port';
import type { TaskRecord } from '../queue/queue';
import { withBoundaries } from './records';
import { RecentJobs } from './recent';
import { serviceRecord, writtenByService } from './service-jobs';
import { SNAPSHOTS, WorkflowSnapshots } from './snapshots';
import { TASK_CLAIMS, type TaskClaim } from './claims';
import { JOB_HISTORY, type JobHistoryEntry } from './history';
import type { JobDoc } from './types';

export class JobReads {
  private readonly recent: RecentJobs;
  /** The workflow snapshots of jobs (snapshots.ts): written with a job, put back when it is read. */
  readonly snapshots: WorkflowSnapshots;
  /** Claims of manual tasks (claims.ts), by task record id. */
  readonly claims: Collection<TaskClaim>;
  /** The jobs' history (history.ts). */
  readonly history: Collection<JobHistoryEntry>;

  constructor(
    readonly jobs: Collection<JobDoc>,
    readonly tasks: Collection<TaskRecord>,
    store: Pick<Store, 'collection'>,
  ) {
    this.snapshots = new WorkflowSnapshots(store.collection(SNAPSHOTS));
    this.claims = store.collection<TaskClaim>(TASK_CLAIMS);
    this.history = store.collection<JobHistoryEntry>(JOB_HISTORY);
    this.recent = new RecentJobs(jobs, this.snapshots);
  }

  /** A job just written: its fixed fields are kept for later reads. */
  remember(job: JobDoc) {
    this.recent.remember(job);
  }

  async job(id: string): Promise<JobDoc | null> {
    return this.recent.read(id);
  }

  async requireJob(id: string): Promise<JobDoc> {
    const job = await this.job(id);
    if (!job) throw new ConsoleError('not_found', `no job with id "${id}"`);
    return job;
  }

  /** The job's task records, oldest first, workflow_start's and workflow_end's with them (`job` when the caller has it). */
  async records(jobId: string, job?: JobDoc | null): Promise<TaskRecord[]> {
    const [known, stored] = await Promise.all([job === undefined ? this.job(jobId) : job, this.stored(jobId)]);
    // A job the service wrote: its task documents name it by job._id, as the service's do (service-jobs.ts).
    if (stored.length === 0 && known && writtenByService(known)) {
      const documents = await this.tasks.find({ 'job._id': jobId }, { sort: { 'metrics.start_time': 1 } });
      return documents.map((doc) => serviceRecord(doc, jobId));
    }
    return withBoundaries(known, stored);
  }

  /**
   * The job's stored records, oldest first: ordered here when each queuedAt is a finite number (as
   * the engine writes it), which MongoDB orders as numbers; else by the store (the embedded store's
   * sorted find first asks SQLite whether a value of another type is there: one statement more).
   * The index on jobId and queuedAt gives them in that order already (ties alike).
   */
  private async stored(jobId: string): Promise<TaskRecord[]> {
    const found = await this.tasks.find({ jobId });
    if (found.every((r) => Number.isFinite(r.queuedAt))) return found.sort((a, b) => a.queuedAt - b.queuedAt);
    return this.tasks.find({ jobId }, { sort: { queuedAt: 1 } });
  }

  async record(id: string): Promise<TaskRecord | null> {
    return this.tasks.findOne({ _id: id });
  }

  /** The job and its records (`job` when the caller has it as the store holds it now). */
  async jobAndRecords(jobId: string, known?: JobDoc): Promise<[JobDoc | null, TaskRecord[]]> {
    const job = known ?? (await this.job(jobId));
    return [job, await this.records(jobId, job)];
  }

  /** The claims of the job's waiting manual tasks, by record id. */
  async claimsOf(records: TaskRecord[]): Promise<Map<string, TaskClaim>> {
    const ids = records.filter((r) => r.status === 'waiting' && r.childJob === undefined).map((r) => r._id);
    if (ids.length === 0) return new Map();
    return new Map((await this.claims.find({ _id: { $in: ids } })).map((c) => [c._id, c]));
  }

  /** The ids of the job's children: those it lists, and those that name it as their parent. */
  async childIds(job: JobDoc): Promise<string[]> {
    const linked = (await this.jobs.find({ 'parent.job': job._id }, { sort: { 'metrics.start_time': 1 } })).map((c) => String(c._id));
    return [...new Set([...(job.children ?? []), ...linked])];
  }
}
