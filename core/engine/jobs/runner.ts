// The job runner: what the console and the task worker use of the engine's jobs.
// It puts together the decision core (decide.ts: what a job's event means, pure),
// the executor that carries decisions out (executor.ts), the starter (start.ts) and
// a claimed task's run (task-run.ts). It exposes no collection to write: jobs and task
// records are read here, and written by the executor alone (the task queue's lease
// protocol, fenced by worker id and attempt, is the worker's: `queue`). Advancing a job only reads the store and writes
// records with deterministic ids, so it is safe to repeat: a worker that dies between
// a task's end and the advance leaves the record `advanced: false`, and the worker's
// recovery pass advances it again. A task run again (a revert transition, a forEach
// element) is a new record, one per iteration; an automatic retry (retrySettings)
// runs the same record again.
import { pino, type Logger } from 'pino';
import type { ReadOnlyCollection, Store } from '../../store/port';
import { requeueTasksOf } from '../worker/recover';
import { getWorkflow } from '../workflow/repository';
import { AdvancedMarks } from '../queue/advanced-marks';
import { TaskQueue, type FinishState, type TaskRecord } from '../queue/queue';
import { RecentWorkflows } from './recent';
import { WorkflowWrites } from '../workflow/writes';
import { HeldState } from './held';
import { JobWrites } from './job-writes';
import { JobReads } from './reads';
import { JobExecutor } from './executor';
import { TasksInWrite } from './in-write';
import { isAtomic } from '../../store/unit-of-work';
import type { Handoff } from './held';
import { JobStarter, type StartOptions, type WorkflowSource } from './start';
import { TaskRun, type Given } from './task-run';
import type { TaskMethodRunner } from './execute';
import type { TransformationRunner } from './own-tasks';
import type { JobFailure } from './job-error';
import type { JobDoc, JobStatus } from './types';
import type { RetryChanges } from './retry-with-changes';
import type { TaskClaim } from './claims';
import type { JobHistoryEntry } from './history';
import { refuseServiceJob } from './service-jobs';
import { deepFreeze } from '../../values/frozen';
import type { ReleaseSemantics } from '../../release/semantics';

export type { Held } from './held';
export type { Handoff } from './held';
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
  /** The release whose semantics jobs follow (core/release/semantics.ts); absent: 2022.1's. */
  semantics?: ReleaseSemantics;
  /**
   * The built-in tasks of the WorkFlowEngine are run in the write that queues them (in-write.ts):
   * true where `runMethod` runs them from the engine's own library, as the console's does.
   */
  tasksInWrite?: boolean;
}

/** What this process's task worker gives the runner while it runs. */
export interface WorkerLink {
  /** Eager dispatch of a job's first task at its start, when the worker has room. */
  dispatchAtStart(): Handoff | undefined;
  /** A task was queued that no worker holds yet. */
  onQueued(): void;
  /** A task of the worker's was run in the write that queued it (in-write.ts): counted as the worker's. */
  ranInWrite(): void;
}

/**
 * A workflow as kept for starts (recent.ts): its tasks and transitions, which every job started from
 * it carries, frozen all through (none changes them; the embedded store then encodes them once).
 */
function keptWorkflow<W extends WorkflowSource>(workflow: W | null): W | null {
  if (workflow) {
    deepFreeze(workflow.tasks);
    deepFreeze(workflow.transitions);
  }
  return workflow;
}

export class JobRunner {
  /** What the worker needs of the store: its change stream and whether it can be written. */
  readonly store: Pick<Store, 'kind' | 'location' | 'watch' | 'safety'>;
  /** The jobs, to read (the executor writes them). */
  readonly jobs: ReadOnlyCollection<JobDoc>;
  /** The task records, to read (the executor writes them). */
  readonly tasks: ReadOnlyCollection<TaskRecord>;
  /** The task queue's lease protocol (claim, renew, release, sweep), the worker's; its collection is not exposed. */
  readonly queue: Omit<TaskQueue, 'tasks'>;
  readonly log: Logger;
  private readonly tasksCollection: TaskQueue['tasks'];
  private readonly reads: JobReads;
  private readonly executor: JobExecutor;
  private readonly starter: JobStarter;
  private readonly taskRun: TaskRun;

  constructor(options: RunnerOptions) {
    const { store } = options;
    const log = (options.log ?? pino({ level: 'silent' })).child({ component: 'jobs' });
    this.log = log;
    this.store = store;
    const jobs = store.collection<JobDoc>('jobs');
    const queue = new TaskQueue(store);
    this.jobs = jobs;
    this.queue = queue;
    this.tasks = queue.tasks;
    this.tasksCollection = queue.tasks;
    const reads = new JobReads(jobs, queue.tasks, store);
    const held = new HeldState(store, log);
    const recentWorkflows = new RecentWorkflows((name) => getWorkflow(store, name).then(keptWorkflow), options.workflowWrites ?? new WorkflowWrites());
    const loadWorkflow = options.loadWorkflow ?? ((name: string) => recentWorkflows.get(name));
    const executor: JobExecutor = new JobExecutor({
      store,
      reads,
      writes: new JobWrites(queue.tasks),
      marks: new AdvancedMarks(queue.tasks),
      log,
      startJob: (child) => starter.startChild(child),
      // Only where a unit of work is one transaction: on MongoDB every task runs in the worker.
      ...(options.tasksInWrite && isAtomic(store) ? { tasksInWrite: new TasksInWrite(log, options.semantics) } : {}),
    });
    const starter: JobStarter = new JobStarter({ store, reads, executor, held, log, loadWorkflow });
    this.taskRun = new TaskRun({ store, queue, reads, executor, starter, held, log, runMethod: options.runMethod, transformations: options.transformations, semantics: options.semantics });
    this.reads = reads;
    this.executor = executor;
    this.starter = starter;
  }

  /** The task worker of this process, while it runs (undefined: none). */
  link(worker: WorkerLink | undefined) {
    this.starter.dispatchAtStart = worker && (() => worker.dispatchAtStart());
    this.executor.onQueued = worker && (() => worker.onQueued());
    this.executor.onRanInWrite = worker && (() => worker.ranInWrite());
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

  /** The job's history, oldest first. */
  history(jobId: string, limit = 200): Promise<JobHistoryEntry[]> {
    return this.reads.history.find({ jobId }, { sort: { timestamp: 1 }, limit });
  }

  /** Records what happened to a job besides its task runs (a recovery), in its history. */
  recordHistory(entry: { jobId: string; event: string; message: string; [field: string]: unknown }): Promise<void> {
    return this.executor.recordHistory(entry);
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
  async setStatus(job: JobDoc, status: JobStatus, failure?: JobFailure): Promise<void> {
    await this.executor.drain(await this.executor.writeStatus(job, status, failure));
  }

  /** A job whose workflow_end record was written (by an earlier version) and not its status: it completes, and its parent is told (recovery). */
  async endRecorded(job: JobDoc, end: TaskRecord): Promise<void> {
    await this.executor.run(job, [], { kind: 'end-recorded', end });
  }

  /** The running tasks held by workers of `serverId` other than `currentWorkerId` queued again (a gone run of a server); how many. */
  requeueTasksOf(serverId: string, currentWorkerId: string, now = Date.now()): Promise<number> {
    return requeueTasksOf(this.tasksCollection, serverId, currentWorkerId, now);
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

  /** Queues a task in error again; `changes`: the operator's values for it (retry-with-changes.ts), recorded under `operator`. */
  retryTask(id: string, taskId: string, edit: { changes?: RetryChanges; operator?: string } = {}): Promise<JobDoc> {
    return this.operate(id, `retry task ${taskId} of`, { kind: 'retry', taskId, ...edit });
  }

  /** Finishes a manual task in `how` (a state, success unless given; and by whom): refused (409) when another operator claimed it. */
  finishTask(id: string, taskId: string, values: Record<string, unknown> = {}, how: FinishState | { state?: FinishState; operator?: string } = 'success'): Promise<JobDoc> {
    const { state = 'success', operator } = typeof how === 'string' ? { state: how } : how;
    return this.operate(id, `finish task ${taskId} of`, { kind: 'finish', taskId, values, state, ...(operator !== undefined ? { operator } : {}) });
  }

  // ---- claims of manual tasks (claims.ts decides, the executor writes) ----

  /** Claims a waiting manual task (its record id) for `operator`; answers the claim. */
  async claimTask(recordId: string, operator: string): Promise<TaskClaim> {
    const claim = await this.executor.actOnRecord(recordId, { kind: 'claim', recordId, operator });
    if (!claim) throw new Error(`the claim of task ${recordId} was not written`);
    return claim;
  }

  /** Releases `operator`'s claim of a waiting manual task. */
  async releaseTask(recordId: string, operator: string): Promise<void> {
    await this.executor.actOnRecord(recordId, { kind: 'release', recordId, operator });
  }

  /** Takes a waiting manual task over for `operator` (or assigns it to `assignee`) from whoever claimed it, recorded in the job's history; answers the claim. */
  async takeOverTask(recordId: string, operator: string, assignee?: string): Promise<TaskClaim> {
    const claim = await this.executor.actOnRecord(recordId, { kind: 'take-over', recordId, operator, ...(assignee !== undefined ? { assignee } : {}) });
    if (!claim) throw new Error(`the take-over of task ${recordId} was not written`);
    return claim;
  }

  /** An operator's action, refused (409) on a job the service wrote: the service does it to its tasks (service-jobs.ts). */
  private async operate(id: string, verb: string, action: Parameters<JobExecutor['act']>[1]): Promise<JobDoc> {
    // The job read once, in the action's unit of work: a job the service wrote is refused there, nothing written.
    return this.executor.act(id, action, (job) => refuseServiceJob(job, verb));
  }
}
