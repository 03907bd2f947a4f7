// The workflow operations of the contract, answered by the workflows service.
import type { Handler } from '../../dispatch/dispatch';
import type { CheckedWorkflow, StoredWorkflow } from '../../contract/workflows';
import type { WorkflowsService } from './service';
import { checkWorkflow } from './validate';

export { createWorkflowsService, type WorkflowsService, type WorkflowsDeps } from './service';

type WorkflowHandlers = {
  'workflows.create': Handler<'workflows.create'>;
  'workflows.list': Handler<'workflows.list'>;
  'workflows.search': Handler<'workflows.search'>;
  'workflows.detailed': Handler<'workflows.detailed'>;
  'workflows.get': Handler<'workflows.get'>;
  'workflows.delete': Handler<'workflows.delete'>;
};

/** The stored workflow with what the console doubts about it (computed at each answer, never stored). */
const withWarnings = (workflow: StoredWorkflow): CheckedWorkflow => ({ ...workflow, warnings: checkWorkflow(workflow).warnings });

export function workflowsHandlers(service: WorkflowsService): WorkflowHandlers {
  return {
    'workflows.create': async ({ body, query }, ctx) => {
      const { workflow, warnings } = await service.importWorkflow(body, { overwrite: query.overwrite });
      ctx.setStatus(201);
      return { ...workflow, warnings };
    },
    'workflows.list': async () => ({ items: await service.list() }),
    'workflows.search': async ({ query }) => service.search(query),
    'workflows.detailed': async ({ params }) => service.detailed(params.name),
    'workflows.get': async ({ params }) => withWarnings(await service.get(params.name)),
    'workflows.delete': async ({ params }) => service.remove(params.name),
  };
}
