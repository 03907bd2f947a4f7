// The workflow operations: import (validated), list, get, delete.
import { OpError, type Handler } from '../../dispatch/dispatch';
import type { HostState } from '../../host/state';
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

/** Validates a workflow against the methods known to the active profile; throws a 400 naming each problem. */
export function assertValidWorkflow(state: HostState, workflow: Workflow): void {
  // Adapters are read when the runtime has them (wired by the adapters capability).
  const adapters = (state.runtime as { adapters?: AdapterMethods }).adapters;
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

export function workflowsHandlers(state: HostState): WorkflowHandlers {
  return {
    'workflows.create': async ({ body, query }, ctx) => {
      assertValidWorkflow(state, body);
      try {
        const saved = await withStore(() => saveWorkflow(state.runtime.store, body, { overwrite: query.overwrite }));
        ctx.setStatus(201);
        return saved;
      } catch (error) {
        if (error instanceof WorkflowExistsError) throw new OpError(409, error.message, { name: body.name });
        throw error;
      }
    },
    'workflows.list': async () => ({ items: await withStore(() => listWorkflows(state.runtime.store)) }),
    'workflows.get': async ({ params }) => {
      const workflow = await withStore(() => getWorkflow(state.runtime.store, params.name));
      if (!workflow) throw new OpError(404, `no workflow named "${params.name}"`);
      return workflow;
    },
    'workflows.delete': async ({ params }) => {
      if (!(await withStore(() => deleteWorkflow(state.runtime.store, params.name)))) throw new OpError(404, `no workflow named "${params.name}"`);
      return { deleted: params.name };
    },
  };
}
