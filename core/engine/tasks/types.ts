// What a built-in task is and what running one yields.
import type { ReleaseSemantics } from '../../release/semantics';

export interface TaskOutcome {
  /** Which transitions leave the task: its success, error or failure ones (forEach: `loop` per element). */
  state: 'success' | 'error' | 'failure' | 'loop';
  outgoing: Record<string, unknown>;
  /** Why the task ended in error (or failure), for people. */
  error?: string;
  /**
   * Job variables the task sets by name, beside its outgoing values
   * (newVariable: `{ [name]: value }`). The job runner writes them into the job.
   */
  jobVariables?: Record<string, unknown>;
  /** forEach: the element of data_array this run is for. */
  loopIndex?: number;
  /** The simulated adapter instance that answered (core/adapters/simulated), written on the task's record. */
  simulated?: string;
  /**
   * A wait the task asks for (delay, stub's delay, MOP's reattempt): it ends with this outcome
   * `after` ms from now. In a job this is a durable timer (jobs/timers.ts): the record carries its
   * due time and holds no worker slot meanwhile; elsewhere runBuiltInTask waits itself.
   */
  after?: number;
}

export interface TaskRunOptions {
  /** Aborted when the worker stops or the job is canceled; long tasks (delay) end early. */
  signal?: AbortSignal;
  /** The job's variables, for the tasks that change a job variable by name (push, pop). */
  jobVariables?: Record<string, unknown>;
  /** How many times this task ran before in the job (each revert or loop run is a new iteration). */
  iteration?: number;
  /** The caller keeps the waits tasks ask for as durable timers: an outcome with `after` is answered at once. */
  timers?: boolean;
  /** The release whose semantics the task follows (codePointAt out of range); absent: 2022.1's. */
  semantics?: ReleaseSemantics;
}

export interface BuiltInTask {
  method: string;
  /** How the service's task palette and reference name it, where that differs from the method (`length (string)`). */
  displayName?: string;
  summary: string;
  /** Names of the incoming variables, in the service's order. */
  incoming: string[];
  /** Names of the outgoing variables. */
  outgoing: string[];
  /** The outgoing variables are the task's own `variables.outgoing` (transformation: those of its JST). */
  dynamicOutgoing?: boolean;
  /** Carried out by the job runner itself (childJob, forEach, transformation, ViewData); `run` is not called. */
  runner?: boolean;
  run(incoming: Record<string, unknown>, options: TaskRunOptions): TaskOutcome | Promise<TaskOutcome>;
}
