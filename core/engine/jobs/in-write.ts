// Built-in tasks run in the write that queues them. Where the store's unit of work is one
// transaction (the embedded store), a WorkFlowEngine task the engine carries out itself from its
// library (a string, array, object, number, time or data method: pure, no I/O, no operator) is run
// as its record is written, and the record is written ended; its job is advanced in the same
// write. So a chain of such tasks up to the first that waits (an adapter's, a manual task, a
// timer, a child job, a transformation) is one commit, as BPM engines run service tasks up to a
// wait state in the transaction that reached them. The job, its records, their fields and the
// variables are those a worker's run would write; a task that asks for a wait (delay, stub's
// delay) or a retry after an error is left to the worker, as before.
import type { Logger } from 'pino';
import type { TaskRecord } from '../queue/queue';
import { builtInTasks, runBuiltInTask, WORKFLOW_ENGINE_APP, type TaskOutcome } from '../tasks/library';
import { DEFAULT_SEMANTICS, type ReleaseSemantics } from '../../release/semantics';
import { scopeOf } from './decide';
import { endFields, isManual, storedOutcome, withEnd } from './records';
import { retryOf } from './settings';
import { sayTaskError } from './status-log';
import type { JobDoc, TaskDefinition } from './types';
import { refersToTasks, resolveIncoming } from './variables';

/** The most tasks one write runs (a loop of built-ins goes on in the next write, by the worker). */
export const TASKS_PER_WRITE = 16;

/** Whether the task is one the engine runs in the write that queues it. */
function runsInWrite(definition: TaskDefinition | undefined): definition is TaskDefinition {
  if (!definition || definition.location === 'Adapter' || (definition.app ?? WORKFLOW_ENGINE_APP) !== WORKFLOW_ENGINE_APP) return false;
  const task = builtInTasks.get(definition.name);
  return !!task && !task.runner && !isManual(definition) && !retryOf(definition);
}

/** A task run in the write: its outcome and the fields its record ends with (records.ts's endFields). */
interface RunInWrite {
  outcome: TaskOutcome;
  fields: Record<string, unknown>;
}

/** Made only where the store's unit of work is one transaction (runner.ts): a write's tasks commit with it or not at all. */
export class TasksInWrite {
  private readonly semantics: ReleaseSemantics;

  constructor(
    private readonly log: Logger,
    semantics?: ReleaseSemantics,
  ) {
    this.semantics = semantics ?? DEFAULT_SEMANTICS;
  }

  /**
   * The claimed record (not yet written) ended by its task run now, where the write has room (`left`:
   * undefined for a write's first): `ended` as a worker's end
   * hands it to the advance (the record is written with it, advanced), `left` for the tasks after it.
   * Undefined: the worker runs the task once the write commits.
   */
  async end(job: JobDoc, records: TaskRecord[], claimed: TaskRecord, left = TASKS_PER_WRITE): Promise<{ ended: TaskRecord; left: number } | undefined> {
    if (left <= 0) return undefined;
    const ran = await this.run(job, records, claimed);
    if (!ran) return undefined;
    if (ran.outcome.state === 'error') sayTaskError(this.log, { jobId: job._id, taskId: claimed.taskId, recordId: claimed._id, workerId: claimed.workerId, task: claimed.name }, ran.outcome.error);
    return { ended: withEnd(claimed, ran.fields), left: left - 1 };
  }

  /**
   * Runs the task of `record` (claimed, not yet written) for `job` as it is now, with the job's
   * records; undefined when it is not one run in the write, or it asked for a wait or a retry.
   */
  private async run(job: JobDoc, records: TaskRecord[], record: TaskRecord): Promise<RunInWrite | undefined> {
    const definition = job.tasks[record.taskId];
    if (job.status !== 'running' || record.incomingOverride !== undefined || !runsInWrite(definition)) return undefined;
    const incomingDefinition = definition.variables?.incoming;
    let incoming: Record<string, unknown> = {};
    let outcome: TaskOutcome;
    try {
      const scope = scopeOf(job, refersToTasks(incomingDefinition) ? records : []);
      incoming = resolveIncoming(incomingDefinition, scope);
      outcome = await runBuiltInTask(definition.name, incoming, { jobVariables: scope.job, iteration: record.iteration, timers: true, semantics: this.semantics });
    } catch (error) {
      // As a worker's run: a value that cannot be resolved ends the task in error.
      outcome = { state: 'error', outgoing: {}, error: error instanceof Error ? error.message : String(error) };
    }
    if (outcome.after !== undefined && outcome.after > 0) return undefined;
    outcome = storedOutcome(this.semantics, outcome);
    return { outcome, fields: endFields(incoming, outcome) };
  }
}
