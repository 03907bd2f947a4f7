// The job runner: what the console and the task worker use of the engine's jobs.
// It puts together the decision core (decide.ts: what a job's event means, pure),
// the executor that carries decisions out (executor.ts), the starter (start.ts) and
// a claimed task's run (task-run.ts). Advancing a job only reads the store and writes
// records with deterministic ids, so it is safe to repeat: a worker that dies between
// a task's end and the advance leaves the record `advanced: false`, and the worker's
// recovery pass advances it again. A task run again (a revert transition, a forEach
// element) is a new record, one per iteration; an automatic retry (retrySettings)
// runs the same record again.
import { pino, type Logger } from 'pino';
import type { Collection, Store } from '../../store/port';
import { getWorkflow } from '../workflow/repository';
import { AdvancedMarks } from '../queue/advanced-marks';
import { TaskQueue, type FinishState, type TaskRecord } from '../queue/queue';
import { RecentWorkflows } from './recent';
import { WorkflowWrites } from '../workflow/writes';
import { HeldState } from './held';
import { JobWrites } from './job-writes';
import { JobReads } from './reads';
import { JobExecutor, type Handoff } from './executor';
import { JobStarter, type StartOptions, type WorkflowSource } from './start';
import { TaskRun, type Given } from './task-run';
import type { TaskMethodRunner } from './execute';
import type { TransformationRunner } from './own-tasks';
import type { JobDoc, JobStatus } from './types';
import { refuseServiceJob } from './service-jobs';

export type { Held } from './held';
export type { Handoff } from './executor';
export type { StartOptions, WorkflowSource } from './start';
export { recordId } from './records';

export interface RunnerOptions {
  store: Store;
  runMethod: TaskMethodRunner;
  /** Defaults to the workflow repository (the `workflows` collection). */
  loadWorkflow?: (name: string) => Promise<WorkflowSource | null>;
  /** The container's workflow writes: a workflow read by name is read again after one (default: this runner's own count). */
  workflowWrites?: WorkflowWrites;
  /** Runs JST transformations (the `transformation` task, childJob's `transformation`); absent: those fail naming it. */
  transformations?: TransformationRunner;
  /** Each job state change and task error is logged here with the job's and task's ids. */
  log?: Logger;
}

/** What this process's task worker gives the runner while it runs. */
export interface WorkerLink {
  /** Eager dispatch of a job's first task at its start, when the worker has room. */
  dispatchAtStart(): Handoff | undefined;
  /** A task was queued that no worker holds yet. */
  onQueued(): void;
}

export class JobRunner {
  readonly store: Store;
  readonly jobs: Collection<JobDoc>;
  readonly queue: TaskQueue;
  readonly log: Logger;
  private readonly reads: JobReads;
  private readonly executor: JobExecutor;
  private readonly starter: JobStarter;
  private readonly taskRun: TaskRun;

  constructor(options: RunnerOptions) {
    const { store } = options;
    const log = (options.log ?? pino({ level: 'silent' })).child({ component: 'jobs' });
    this.log = log;
    this.store = store;
    this.jobs = store.collection<JobDoc>('jobs');
    this.queue = new TaskQueue(store);
    const reads = new JobReads(this.jobs, this.queue.tasks, store);
    const held = new HeldState(store, log);
    const recentWorkflows = new RecentWorkflows((name) => getWorkflow(store, name), options.workflowWrites ?? new WorkflowWrites());
    const loadWorkflow = options.loadWorkflow ?? ((name: string) => recentWorkflows.get(name));
    const executor: JobExecutor = new JobExecutor({
      store,
      reads,
      writes: new JobWrites(this.queue.tasks),
      marks: new AdvancedMarks(this.queue.tasks),
      log,
      startJob: (child) => starter.startChild(child),
    });
    const starter: JobStarter = new JobStarter({ store, reads, executor, held, log, loadWorkflow });
    this.taskRun = new TaskRun({ store, queue: this.queue, reads, executor, starter, held, log, runMethod: options.runMethod, transformations: options.transformations });
    this.reads = reads;
    this.executor = executor;
    this.starter = starter;
  }

  /** The task worker of this process, while it runs (undefined: none). */
  link(worker: WorkerLink | undefined) {
    this.starter.dispatchAtStart = worker && (() => worker.dispatchAtStart());
    this.executor.onQueued = worker && (() => worker.onQueued());
  }

  // ---- reading ----

  job(id: string): Promise<JobDoc | null> {
    return this.reads.job(id);
  }

  requireJob(id: string): Promise<JobDoc> {
    return this.reads.requireJob(id);
  }

  records(jobId: string): Promise<TaskRecord[]> {
    return this.reads.records(jobId);
  }

  childIds(job: JobDoc): Promise<string[]> {
    return this.reads.childIds(job);
  }

  // ---- starting, advancing, recovering ----

  start(workflowName: string, options: StartOptions = {}): Promise<JobDoc> {
    return this.starter.start(workflowName, options);
  }

  /** Looks at the job again: creates the records of the tasks that can run now, completes or fails it when it cannot go on. */
  async advance(jobId: string, loaded?: JobDoc): Promise<void> {
    const job = loaded ?? (await this.reads.job(jobId));
    if (job) await this.executor.run(job, await this.reads.records(jobId), { kind: 'advance' });
  }

  /** After a record ended: its job variables written, its job advanced, the record marked advanced (recovery). */
  afterEnd(recordId: string): Promise<void> {
    return this.executor.afterEnd(recordId);
  }

  /** Sets a job's status (from the one `job` has); a child job that stops tells its parent's task. */
  async setStatus(job: JobDoc, status: JobStatus, error?: string): Promise<void> {
    await this.executor.drain(await this.executor.writeStatus(job, status, error));
  }

  /** A child job ended: its parent's childJob task goes on or ends with it. */
  finishParentTask(childId: string): Promise<void> {
    return this.executor.drain([{ kind: 'child-ended', childId }]);
  }

  // ---- running a claimed task (the worker) ----

  /** Runs a claimed task and ends it; false when the worker's claim was lost or the signal aborted. */
  execute(record: TaskRecord, signal?: AbortSignal, given: Given = {}): Promise<boolean> {
    return this.taskRun.execute(record, signal, given);
  }

  // ---- operator actions (actions.ts decides, the executor writes) ----

  cancel(id: string): Promise<JobDoc> {
    return this.operate(id, 'cancel', { kind: 'cancel' });
  }

  pause(id: string): Promise<JobDoc> {
    return this.operate(id, 'pause', { kind: 'pause' });
  }

  resume(id: string): Promise<JobDoc> {
    return this.operate(id, 'resume', { kind: 'resume' });
  }

  retryTask(id: string, taskId: string): Promise<JobDoc> {
    return this.operate(id, `retry task ${taskId} of`, { kind: 'retry', taskId });
  }

  finishTask(id: string, taskId: string, values: Record<string, unknown> = {}, state: FinishState = 'success'): Promise<JobDoc> {
    return this.operate(id, `finish task ${taskId} of`, { kind: 'finish', taskId, values, state });
  }

  /** An operator's action, refused (409) on a job the service wrote: the service does it to its tasks (service-jobs.ts). */
  private async operate(id: string, verb: string, action: Parameters<JobExecutor['act']>[1]): Promise<JobDoc> {
    refuseServiceJob(await this.reads.requireJob(id), verb);
    return this.executor.act(id, action);
  }
}
