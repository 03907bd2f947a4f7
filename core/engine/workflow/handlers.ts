// The workflow operations of the contract, answered by the workflows service.
import type { Handler } from '../../dispatch/dispatch';
import type { CheckedWorkflow, StoredWorkflow } from '../../contract/workflows';
import type { WorkflowsService } from './service';
import { checkWorkflow } from './validate';
import { ConsoleError } from '../../errors';
import { runBuiltInTask } from '../tasks/library';

export { createWorkflowsService, type WorkflowsService, type WorkflowsDeps } from './service';

type WorkflowHandlers = {
  'workflows.create': Handler<'workflows.create'>;
  'workflows.list': Handler<'workflows.list'>;
  'workflows.search': Handler<'workflows.search'>;
  'workflows.detailed': Handler<'workflows.detailed'>;
  'workflows.get': Handler<'workflows.get'>;
  'workflows.delete': Handler<'workflows.delete'>;
  'workflows.studioCreate': Handler<'workflows.studioCreate'>;
  'workflows.validateAsset': Handler<'workflows.validateAsset'>;
  'workflows.validateStudio': Handler<'workflows.validateStudio'>;
  'workflows.tasksList': Handler<'workflows.tasksList'>;
  'workflows.runEvaluationGroups': Handler<'workflows.runEvaluationGroups'>;
  'workflows.studioUpdate': Handler<'workflows.studioUpdate'>;
  'workflows.appsList': Handler<'workflows.appsList'>;
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
    'workflows.studioCreate': async ({ body }) => {
      // A refusal names each problem at its place under body.automation.
      const { workflow } = await service.importWorkflow(body.automation, { at: 'body.automation' });
      const created = await service.detailed(workflow.name);
      return { created, edit: `/#/workflows/${encodeURIComponent(workflow.name)}` };
    },
    'workflows.studioUpdate': async ({ params, body }) => {
      const updated = await service.replaceById(params.id, body.update, 'body.update');
      return { updated, edit: `/#/workflows/${encodeURIComponent(updated.name)}` };
    },
    'workflows.tasksList': () => service.tasks(),
    'workflows.runEvaluationGroups': async ({ body }) => {
      const groups = body.evaluation_groups ?? body.evaluation_group;
      if (!groups) throw new ConsoleError('bad_input', 'body.evaluation_groups: send the evaluation groups to run', { issues: [{ path: 'body.evaluation_groups', message: 'required' }] });
      // As the evaluation task runs them: its outcome's return_value; what it cannot read is the caller's to mend.
      const outcome = await runBuiltInTask('evaluation', { evaluation_groups: groups, all_true_flag: body.all_true_flag ?? true });
      if (outcome.state === 'error') throw new ConsoleError('bad_input', `body.evaluation_groups: ${outcome.error ?? 'the evaluation cannot be run'}`);
      return outcome.outgoing.return_value === true;
    },
    'workflows.appsList': () => service.apps(),
    'workflows.validateAsset': ({ body }) => {
      const { problems, warnings } = checkWorkflow(body.asset);
      return { isValid: problems.length === 0, errors: problems, warnings };
    },
    'workflows.validateStudio': ({ body }) => {
      const { problems, warnings } = checkWorkflow(body.workflow);
      return { errors: problems, warnings };
    },
  };
}
