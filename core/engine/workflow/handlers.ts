// The workflow operations: import (validated), list, get, delete.
import { OpError, type Handler } from '../../dispatch/dispatch';
import type { Store } from '../../store/port';
import type { Workflow, WorkflowProblem } from '../../contract/workflows';
import { StoreError } from '../../store/errors';
import { knownMethods, type AdapterMethods } from './known';
import { deleteWorkflow, getWorkflow, listWorkflows, saveWorkflow, WorkflowExistsError } from './repository';
import { validateWorkflow } from './validate';

type WorkflowHandlers = {
  'workflows.create': Handler<'workflows.create'>;
  'workflows.list': Handler<'workflows.list'>;
  'workflows.get': Handler<'workflows.get'>;
  'workflows.delete': Handler<'workflows.delete'>;
};

export interface WorkflowsDeps {
  /** The active profile's store. */
  store(): Store;
  /** The active profile's adapters: the methods a workflow may call. */
  adapters(): AdapterMethods;
}

export type WorkflowsService = WorkflowsDeps;

export function createWorkflowsService(deps: WorkflowsDeps): WorkflowsService {
  return deps;
}

/** Validates a workflow against the methods known to the active profile; throws a 400 naming each problem. */
export function assertValidWorkflow(service: Pick<WorkflowsService, 'adapters'>, workflow: Workflow): void {
  const adapters = service.adapters();
  const problems = validateWorkflow(workflow, knownMethods(adapters));
  if (problems.length === 0) return;
  throw new OpError(400, `workflow "${workflow.name}" cannot be imported: ${problems.map((p) => p.message).join('; ')}`, {
    problems,
    issues: problems.map((p: WorkflowProblem) => ({ path: `body.${p.path}`, message: p.message })),
  });
}

/** A store that cannot be reached or read is the server's trouble, not the caller's: 503 naming the cause. */
async function withStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreError && ['unreachable', 'auth', 'damaged'].includes(error.code)) {
      throw new OpError(503, `the workflows cannot be reached in the store: ${error.message}`);
    }
    throw error;
  }
}

export function workflowsHandlers(service: WorkflowsService): WorkflowHandlers {
  return {
    'workflows.create': async ({ body, query }, ctx) => {
      assertValidWorkflow(service, body);
      try {
        const saved = await withStore(() => saveWorkflow(service.store(), body, { overwrite: query.overwrite }));
        ctx.setStatus(201);
        return saved;
      } catch (error) {
        if (error instanceof WorkflowExistsError) throw new OpError(409, error.message, { name: body.name });
        throw error;
      }
    },
    'workflows.list': async () => ({ items: await withStore(() => listWorkflows(service.store())) }),
    'workflows.get': async ({ params }) => {
      const workflow = await withStore(() => getWorkflow(service.store(), params.name));
      if (!workflow) throw new OpError(404, `no workflow named "${params.name}"`);
      return workflow;
    },
    'workflows.delete': async ({ params }) => {
      if (!(await withStore(() => deleteWorkflow(service.store(), params.name)))) throw new OpError(404, `no workflow named "${params.name}"`);
      return { deleted: params.name };
    },
  };
}
