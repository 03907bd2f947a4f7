// Runs the method of one task: the WorkFlowEngine's built-in library, or an
// adapter's method through the adapter manager. childJob and manual tasks are the
// job runner's own (runner.ts). Every failure becomes a task error with a message.
import { runBuiltInTask, type TaskOutcome, type TaskRunOptions } from '../tasks/library';
import type { TaskDefinition } from './types';

export const ENGINE_APP = 'WorkFlowEngine';

/** What the engine needs of the adapter manager (Runtime.adapters). */
export interface AdapterCaller {
  call(adapterId: string, method: string, args: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<unknown>;
}

export type TaskMethodRunner = (task: TaskDefinition, incoming: Record<string, unknown>, options?: TaskRunOptions) => Promise<TaskOutcome>;

export function isChildJob(task: TaskDefinition) {
  return task.name === 'childJob' && (task.app ?? ENGINE_APP) === ENGINE_APP;
}

/** An adapter's answer as the task's outgoing values: by name when it has them, whole otherwise. */
function adapterOutgoing(task: TaskDefinition, result: unknown): Record<string, unknown> {
  const names = Object.keys(task.variables?.outgoing ?? {});
  if (result && typeof result === 'object' && !Array.isArray(result) && names.some((n) => n in (result as object))) {
    return Object.fromEntries(names.map((n) => [n, (result as Record<string, unknown>)[n]]));
  }
  return names.length ? { [names[0]!]: result } : { result };
}

export function methodRunner(adapters: () => AdapterCaller | undefined): TaskMethodRunner {
  return async (task, incoming, options = {}) => {
    const app = task.app ?? ENGINE_APP;
    if (app === ENGINE_APP && task.location !== 'Adapter') {
      // Rejects only when the signal aborts: the worker is handing the task back.
      return runBuiltInTask(task.name, incoming, options);
    }
    const manager = adapters();
    if (!manager) {
      return { state: 'error', outgoing: {}, error: `${app}.${task.name}: adapters are not available on this server, so the adapter cannot be called` };
    }
    try {
      const result = await manager.call(app, task.name, incoming);
      if (options.signal?.aborted) throw options.signal.reason;
      return { state: 'success', outgoing: adapterOutgoing(task, result) };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { state: 'error', outgoing: {}, error: (error as Error).message };
    }
  };
}
