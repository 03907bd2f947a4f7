// What methods a workflow's tasks may call on this console: the WorkFlowEngine's
// built-in tasks and childJob, and the methods each adapter of the active profile
// declares. The other built-in applications expose no task methods here.
import { builtInApplications } from '../../applications/registry';
import { builtInTasks, WORKFLOW_ENGINE_APP } from '../tasks/library';
import type { KnownMethods } from './validate';

/** Methods the job runner itself carries out (not in the task library). */
export const RUNNER_METHODS = ['childJob'] as const;
const RUNNER_OUTGOING: Record<string, string[]> = { childJob: ['job_details'] };

export interface AdapterMethods {
  has?(id: string): boolean;
  methods(id: string): string[] | undefined;
}

export function knownMethods(adapters?: AdapterMethods): KnownMethods {
  return {
    hasApp(app) {
      return builtInApplications.some((a) => a.id === app) || adapters?.methods(app) !== undefined;
    },
    hasMethod(app, method) {
      if (app === WORKFLOW_ENGINE_APP) return builtInTasks.has(method) || (RUNNER_METHODS as readonly string[]).includes(method);
      return adapters?.methods(app)?.includes(method) ?? false;
    },
    outgoingOf(app, method) {
      if (app !== WORKFLOW_ENGINE_APP) return undefined;
      return builtInTasks.get(method)?.outgoing ?? RUNNER_OUTGOING[method];
    },
  };
}
