// The workflow engine of the active profile: the job runner, the task worker
// (started with the runtime when `processTasksOnStart` is true) and this server's
// heartbeat. `Runtime.engine` is one of these; handlers read it at each call.
import type { Store } from '../store/port';
import { JobRunner, type RunnerOptions } from './jobs/runner';
import { methodRunner, type AdapterCaller, type TaskMethodRunner } from './jobs/execute';
import { TaskWorker, type WorkerOptions } from './worker/worker';
import type { TransformationRunner } from './jobs/own-tasks';
import { Heartbeats, type ServerBeat } from './worker/heartbeat';
import { previousRunGone, requeueTasksOf } from './worker/recover';

export interface EngineOptions {
  store: Store;
  serverId: string;
  serverName: string;
  /** properties.json's processTasksOnStart: whether the worker starts now. */
  processTasksOnStart: boolean;
  adapters?: () => AdapterCaller | undefined;
  /** Runs JST transformations (the transformation task); without it they fail naming the missing JST support. */
  transformations?: TransformationRunner;
  /** Replaces reading workflows from the `workflows` collection (tests). */
  loadWorkflow?: RunnerOptions['loadWorkflow'];
  /** Replaces the built-in/adapter method runner (tests, benchmarks). */
  runMethod?: TaskMethodRunner;
  worker?: Partial<Omit<WorkerOptions, 'runner' | 'serverId'>>;
  heartbeatMs?: number;
}

export interface WorkersStatus {
  taskWorker: { running: boolean; startupValue: boolean; workerId?: string };
  jobWorker: { running: boolean; startupValue: boolean };
  servers: (ServerBeat & { self: boolean })[];
}

export class Engine {
  readonly runner: JobRunner;
  readonly worker: TaskWorker;
  readonly heartbeats: Heartbeats;
  private beatTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(readonly options: EngineOptions) {
    this.runner = new JobRunner({
      store: options.store,
      runMethod: options.runMethod ?? methodRunner(options.adapters ?? (() => undefined)),
      transformations: options.transformations,
      loadWorkflow: options.loadWorkflow,
    });
    this.worker = new TaskWorker({ runner: this.runner, serverId: options.serverId, onError: () => undefined, ...options.worker });
    this.heartbeats = new Heartbeats(options.store, options.heartbeatMs);
  }

  get startupValue() {
    return this.options.processTasksOnStart;
  }

  async open(): Promise<this> {
    // Before the first beat overwrites it: the tasks of a dead run of this server go back to the queue now.
    // A beat that cannot be read says nothing: recovery is left to the lease, as before.
    const previous = await this.heartbeats.collection.findOne({ _id: this.options.serverId }).then(
      (beat) => ({ beat }),
      () => undefined,
    );
    if (previous && previousRunGone(previous.beat, 3 * this.heartbeats.intervalMs)) {
      await requeueTasksOf(this.runner.queue.tasks, this.options.serverId, '').catch((error: unknown) =>
        console.warn(`tasks of a previous run of this server are left to their lease: ${(error as Error).message}`),
      );
    }
    if (this.options.processTasksOnStart) this.worker.start();
    await this.beat();
    this.beatTimer = setInterval(() => void this.beat(), this.heartbeats.intervalMs);
    this.beatTimer.unref?.();
    return this;
  }

  private async beat() {
    await this.heartbeats.beat(this.options.serverId, this.options.serverName, this.worker.isRunning).catch(() => undefined);
  }

  async startWorker() {
    this.worker.start();
    await this.beat();
  }

  async stopWorker() {
    await this.worker.stop();
    await this.beat();
  }

  async status(): Promise<WorkersStatus> {
    const servers = await this.heartbeats.list().catch(() => [] as ServerBeat[]);
    return {
      taskWorker: { running: this.worker.isRunning, startupValue: this.startupValue, ...(this.worker.isRunning ? { workerId: this.worker.workerId } : {}) },
      jobWorker: { running: !this.closed, startupValue: true },
      servers: servers.map((s) => ({ ...s, self: s.serverId === this.options.serverId })),
    };
  }

  /** Stops the worker (its running tasks go back to the queue) and the heartbeat. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.beatTimer);
    await this.worker.stop();
    await this.heartbeats.beat(this.options.serverId, this.options.serverName, false).catch(() => undefined);
  }
}

export async function openEngine(options: EngineOptions): Promise<Engine> {
  return new Engine(options).open();
}
