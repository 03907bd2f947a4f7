// The workflow operations of the contract, answered by the workflows service.
import type { Handler } from '../../dispatch/dispatch';
import type { WorkflowsService } from './service';

export { createWorkflowsService, type WorkflowsService, type WorkflowsDeps } from './service';

type WorkflowHandlers = {
  'workflows.create': Handler<'workflows.create'>;
  'workflows.list': Handler<'workflows.list'>;
  'workflows.get': Handler<'workflows.get'>;
  'workflows.delete': Handler<'workflows.delete'>;
};

export function workflowsHandlers(service: WorkflowsService): WorkflowHandlers {
  return {
    'workflows.create': async ({ body, query }, ctx) => {
      const { workflow } = await service.importWorkflow(body, { overwrite: query.overwrite });
      ctx.setStatus(201);
      return workflow;
    },
    'workflows.list': async () => ({ items: await service.list() }),
    'workflows.get': async ({ params }) => service.get(params.name),
    'workflows.delete': async ({ params }) => service.remove(params.name),
  };
}
