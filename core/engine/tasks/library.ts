// The built-in task library of the WorkFlowEngine application: the string tasks,
// newVariable, merge, query, evaluation and delay. childJob and manual tasks are
// not here: the job runner owns them.
import { TaskArgumentError } from './args';
import { dataTasks } from './data';
import { stringTasks } from './strings';
import type { BuiltInTask, TaskOutcome, TaskRunOptions } from './types';

export type { BuiltInTask, TaskOutcome, TaskRunOptions } from './types';
export { MAX_DELAY_SECONDS } from './data';

/** The application the built-in tasks belong to, as a workflow's task `app` names it. */
export const WORKFLOW_ENGINE_APP = 'WorkFlowEngine';

export const builtInTasks: ReadonlyMap<string, BuiltInTask> = new Map(
  [...stringTasks, ...dataTasks].map((task) => [task.method, task]),
);

export const builtInTaskMethods: string[] = [...builtInTasks.keys()];

export function isBuiltInTask(method: string): boolean {
  return builtInTasks.has(method);
}

/**
 * Runs a built-in task. Always resolves with an outcome: a bad argument or an
 * unexpected throw is `{ state: 'error', error }` naming the cause. It rejects
 * only when `options.signal` aborts (the worker hands the task back, nothing is
 * recorded), with the signal's reason.
 */
export async function runBuiltInTask(
  method: string,
  incoming: Record<string, unknown>,
  options: TaskRunOptions = {},
): Promise<TaskOutcome> {
  const task = builtInTasks.get(method);
  if (!task) {
    return { state: 'error', outgoing: {}, error: `${WORKFLOW_ENGINE_APP} has no task "${method}"` };
  }
  try {
    return await task.run(incoming ?? {}, options);
  } catch (error) {
    if (options.signal?.aborted && error === options.signal.reason) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { state: 'error', outgoing: {}, error: error instanceof TaskArgumentError ? `${method}: ${message}` : `${method} failed: ${message}` };
  }
}
