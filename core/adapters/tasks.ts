// Workflow tasks that call an adapter (`app` = the instance name, `name` = the method), checked
// against the instance's pronghorn.json before a job starts: an unknown instance or method, and a
// required input the task does not give, are problems naming the task and the field.
import type { WorkflowProblem } from '../contract/workflows';
import { findMethod, type AdapterPackage } from './package';

export interface AdapterLookup {
  has(instance: string): boolean;
  packageOf(instance: string): AdapterPackage | undefined;
}

export interface AdapterTask {
  app?: string;
  name: string;
  variables?: { incoming?: Record<string, unknown> };
}

/** The problems of one adapter task; none for a task that is not an adapter's. */
export function adapterTaskProblems(taskId: string, task: AdapterTask, adapters: AdapterLookup): WorkflowProblem[] {
  if (!task.app || !adapters.has(task.app)) return [];
  const pkg = adapters.packageOf(task.app);
  if (!pkg) return []; // the instance's package is missing: its health says so, and the call fails naming it
  const method = findMethod(pkg, task.name);
  if (!method) {
    return [{ path: `tasks.${taskId}.name`, task: taskId, message: `task "${taskId}": adapter ${task.app} (${pkg.name}) has no method "${task.name}" in its pronghorn.json` }];
  }
  const incoming = task.variables?.incoming ?? {};
  return method.input
    .filter((input) => input.required === true && !(input.name in incoming))
    .map((input) => ({
      path: `tasks.${taskId}.variables.incoming.${input.name}`,
      task: taskId,
      message: `task "${taskId}": ${task.app}.${task.name} requires input "${input.name}"${input.type ? ` (${input.type})` : ''}`,
    }));
}
