// The workflow engine of the active profile: the job runner, the task worker
// (started with the runtime when `processTasksOnStart` is true) and this server's
// heartbeat. `Runtime.engine` is one of these; handlers read it at each call.
import { pino, type Logger } from 'pino';
import type { Store } from '../store/port';
import { JobRunner, type RunnerOptions } from './jobs/runner';
import { methodRunner, type AdapterCaller, type TaskMethodRunner } from './jobs/execute';
import { TaskWorker, type WorkerOptions } from './worker/worker';
import type { TransformationRunner } from './jobs/own-tasks';
import { Heartbeats, type ServerBeat } from './worker/heartbeat';
import { previousRunGone } from './worker/recover';
import { WorkflowWrites } from './workflow/writes';
import { errorMessage } from '../errors';
import type { ReleaseSemantics } from '../release/semantics';

export interface EngineOptions {
  store: Store;
  serverId: string;
  serverName: string;
  /** properties.json's processTasksOnStart: whether the worker starts now. */
  processTasksOnStart: boolean;
  /**
   * The active profile's processTasksOnStart as saved since (the runtime's config, which a save of the
   * profile replaces): the worker status's `startupValue`, attention and the UI read it through `startupValue`.
   * Absent: `processTasksOnStart`.
   */
  startupValue?: () => boolean;
  /** Whether the active profile's properties.json sets processTasksOnStart (absent: it does). */
  startupValueSet?: () => boolean;
  adapters?: () => AdapterCaller | undefined;
  /** Whether one of the console's applications is running: MOP's tasks stop with it (absent: always running). */
  applicationRunning?: (app: string) => boolean;
  /** Runs JST transformations (the transformation task); without it they fail naming the missing JST support. */
  transformations?: TransformationRunner;
  /** Replaces reading workflows from the `workflows` collection (tests). */
  loadWorkflow?: RunnerOptions['loadWorkflow'];
  /** Replaces the built-in/adapter method runner (tests, benchmarks). */
  runMethod?: TaskMethodRunner;
  worker?: Partial<Omit<WorkerOptions, 'runner' | 'serverId'>>;
  heartbeatMs?: number;
  /** Job state changes, task errors and the worker's decisions are logged here. */
  log?: Logger;
  /** The release whose semantics jobs follow (core/release/semantics.ts: an upgrade rehearsal); absent: 2022.1's. */
  semantics?: ReleaseSemantics;
}

/** Where a worker's startup setting comes from, as the service says it: `clusterValue` its service config, `localValue` its properties.json. */
export type WorkerSetting = 'enabled' | 'disabled' | 'not defined';

export interface WorkersStatus {
  taskWorker: { running: boolean; clusterValue: WorkerSetting; localValue: WorkerSetting; startupValue: boolean; workerId?: string };
  jobWorker: { running: boolean; clusterValue: WorkerSetting; localValue: WorkerSetting; startupValue: boolean };
  servers: (ServerBeat & { self: boolean })[];
}

export class Engine {
  readonly runner: JobRunner;
  readonly worker: TaskWorker;
  readonly heartbeats: Heartbeats;
  /** This container's workflow writes, noted by the workflows service and followed by the runner's cache. */
  readonly workflowWrites = new WorkflowWrites();
  private beatTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly log: Logger;
  private beatFailing = false;
  /** The job worker (starting and advancing jobs) starts when the engine opens; no setting keeps it off. */
  private jobWorkerStartedAtOpen = false;

  constructor(readonly options: EngineOptions) {
    this.log = options.log ?? pino({ level: 'silent' });
    this.runner = new JobRunner({
      log: this.log,
      store: options.store,
      runMethod: options.runMethod ?? methodRunner(options.adapters ?? (() => undefined), options.applicationRunning),
      // A method runner of the caller's may do anything with a task: its tasks all run in the worker.
      tasksInWrite: !options.runMethod,
      transformations: options.transformations,
      loadWorkflow: options.loadWorkflow,
      workflowWrites: this.workflowWrites,
      semantics: options.semantics,
    });
    this.worker = new TaskWorker({ runner: this.runner, serverId: options.serverId, log: this.log, ...options.worker });
    this.heartbeats = new Heartbeats(options.store, options.heartbeatMs);
  }

  /** Whether the task worker starts with the profile: the saved processTasksOnStart, whatever the worker does now. */
  /** The task worker's setting in properties.json, as the service says it. */
  private get localValue(): WorkerSetting {
    if (!(this.options.startupValueSet?.() ?? true)) return 'not defined';
    return this.startupValue ? 'enabled' : 'disabled';
  }

  get startupValue(): boolean {
    return this.options.startupValue?.() ?? this.options.processTasksOnStart;
  }

  async open(): Promise<this> {
    this.jobWorkerStartedAtOpen = true;
    // Before the first beat overwrites it: the tasks of a dead run of this server go back to the queue now.
    // A beat that cannot be read says nothing: recovery is left to the lease, as before.
    const previous = await this.heartbeats.collection.findOne({ _id: this.options.serverId }).then(
      (beat) => ({ beat }),
      (error: Error) => void this.log.warn({ component: 'heartbeat', err: error }, `the last heartbeat of this server cannot be read: ${error.message}`),
    );
    if (previous && previousRunGone(previous.beat, 3 * this.heartbeats.intervalMs)) {
      await this.runner.requeueTasksOf(this.options.serverId, '').then(
        (requeued) => {
          if (requeued > 0) this.log.warn({ component: 'task-worker', serverId: this.options.serverId, requeued }, `${requeued} task(s) of a previous run of this server queued again`);
        },
        (error: unknown) => void this.log.warn({ component: 'task-worker', err: error }, `tasks of a previous run of this server are left to their lease: ${errorMessage(error)}`),
      );
    }
    if (this.startupValue) this.worker.start();
    else this.log.info({ component: 'task-worker', serverId: this.options.serverId }, 'task worker not started: processTasksOnStart is false (jobs start; their tasks wait)');
    await this.beat();
    this.beatTimer = setInterval(() => void this.beat(), this.heartbeats.intervalMs);
    this.beatTimer.unref?.();
    return this;
  }

  /** Records this server's heartbeat; a failure is logged once until a beat succeeds again (the next beat retries). */
  private async beat(taskWorker = this.worker.isRunning) {
    try {
      await this.heartbeats.beat(this.options.serverId, this.options.serverName, taskWorker);
      if (this.beatFailing) this.log.info({ component: 'heartbeat', serverId: this.options.serverId }, 'heartbeat recorded again');
      this.beatFailing = false;
    } catch (error) {
      if (!this.beatFailing) {
        this.log.error({ component: 'heartbeat', serverId: this.options.serverId, err: error }, `heartbeat not recorded: ${errorMessage(error)}`);
      }
      this.beatFailing = true;
    }
  }

  async startWorker() {
    this.log.info({ component: 'task-worker', serverId: this.options.serverId }, 'task worker started by an operator');
    this.worker.start();
    await this.beat();
  }

  async stopWorker() {
    this.log.info({ component: 'task-worker', serverId: this.options.serverId }, 'task worker stopped by an operator');
    await this.worker.stop();
    await this.beat();
  }

  async status(): Promise<WorkersStatus> {
    let servers: ServerBeat[] = [];
    try {
      servers = await this.heartbeats.list();
    } catch (error) {
      // The status still answers for this server; the others are unknown while the store does not answer.
      this.log.warn({ component: 'heartbeat', err: error }, `servers on this database cannot be listed: ${errorMessage(error)}`);
    }
    return {
      // The console keeps no service config of the engine (clusterValue); the profile's processTasksOnStart is its
      // properties.json setting of the task worker (localValue), which has none of the job worker.
      taskWorker: { running: this.worker.isRunning, clusterValue: 'not defined', localValue: this.localValue, startupValue: this.startupValue, ...(this.worker.isRunning ? { workerId: this.worker.workerId } : {}) },
      jobWorker: { running: this.jobWorkerStartedAtOpen && !this.closed, clusterValue: 'not defined', localValue: 'not defined', startupValue: this.jobWorkerStartedAtOpen },
      servers: servers.map((s) => ({ ...s, self: s.serverId === this.options.serverId })),
    };
  }

  /** Stops the worker (its running tasks go back to the queue) and the heartbeat. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.beatTimer);
    await this.worker.stop();
    await this.beat(false);
  }
}

export async function openEngine(options: EngineOptions): Promise<Engine> {
  return new Engine(options).open();
}
