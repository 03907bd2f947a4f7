// The automations operations of the contract, answered in the service's `{ message, data, metadata }`.
import type { Handlers } from '../dispatch/dispatch';
import type { AutomationOverview } from '../contract/automations';
import { ConsoleError, isRefusal } from '../errors';
import type { AutomationsService } from './service';
import type { TriggerRunner } from './run';

export { createAutomationsService, type AutomationsDeps, type AutomationsService } from './service';
export { createTriggerRunner, type RunDeps, type TriggerRunner } from './run';
export { AUTOMATIONS_COLLECTION, TRIGGERS_COLLECTION } from './documents';

type Operations =
  | 'automations.list'
  | 'automations.get'
  | 'automations.create'
  | 'automations.update'
  | 'automations.delete'
  | 'automations.export'
  | 'automations.import'
  | 'automations.overview'
  | 'triggers.list'
  | 'triggers.get'
  | 'triggers.create'
  | 'triggers.update'
  | 'triggers.delete'
  | 'triggers.runEndpoint'
  | 'triggers.runManual';

export interface AutomationsHandlerDeps {
  service: AutomationsService;
  runner: TriggerRunner;
  /** The last jobs of a workflow, newest first. */
  recentJobs(workflow: string, limit: number): Promise<AutomationOverview['recentJobs']>;
  /** Whether a workflow of this name is stored. */
  hasWorkflow(name: string): Promise<boolean>;
}

const RECENT_JOBS = 5;

export function automationsHandlers({ service, runner, recentJobs, hasWorkflow }: AutomationsHandlerDeps): Pick<Handlers, Operations> {
  const ok = <T>(message: string, data: T) => ({ message, data, metadata: {} });
  return {
    'automations.list': async ({ query }) => ({ message: 'Successfully retrieved automations', ...(await service.list(query)) }),
    'automations.get': async ({ params }) => ok('Successfully retrieved automation', await service.get(params.id)),
    'automations.create': async ({ body }) => ok('Successfully created automation', await service.create(body)),
    'automations.update': async ({ params, body }) => ok('Successfully updated automation', await service.update(params.id, body)),
    'automations.delete': async ({ params }) => ok('Successfully deleted automation', await service.remove(params.id)),
    'automations.export': async ({ params }) => ok('Successfully exported automation', await service.exportOne(params.id)),
    'automations.import': async ({ body }) => {
      const results = [];
      for (const [index, raw] of body.automations.entries()) {
        try {
          const { automation, warnings } = await service.importOne(raw);
          results.push({ success: true, data: automation, ...(warnings.length ? { message: warnings.join('; ') } : {}) });
        } catch (error) {
          if (!(error instanceof ConsoleError) || !isRefusal(error.code)) throw error;
          results.push({ success: false, data: raw, message: `body.automations.${index}.${error.message}` });
        }
      }
      const imported = results.filter((r) => r.success).length;
      return ok(`Imported ${imported} of ${results.length} automations`, results);
    },
    'automations.overview': async () => {
      const { data } = await service.list({ skip: 0, limit: 0 });
      const automations: AutomationOverview[] = [];
      for (const automation of data) {
        const triggers = (await service.triggersOf(automation._id)).sort((a, b) => a.name.localeCompare(b.name));
        const workflow = typeof automation.componentName === 'string' && automation.componentName ? automation.componentName : undefined;
        const stored = workflow ? await hasWorkflow(workflow) : false;
        automations.push({
          ...automation,
          triggers,
          ...(workflow ? { workflow } : {}),
          ...(stored ? {} : { problem: workflow ? `workflow "${workflow}" is not stored: import it to run this automation` : 'it names no workflow' }),
          recentJobs: workflow && stored ? await recentJobs(workflow, RECENT_JOBS) : [],
        });
      }
      return { automations };
    },
    'triggers.list': async ({ query }) => ({ message: 'Successfully retrieved triggers', ...(await service.listTriggers(query)) }),
    'triggers.get': async ({ params }) => ok('Successfully retrieved trigger', await service.getTrigger(params.id)),
    'triggers.create': async ({ body }) => ok('Successfully created trigger', await service.createTrigger(body)),
    'triggers.update': async ({ params, body }) => ok('Successfully updated trigger', await service.updateTrigger(params.id, body)),
    'triggers.delete': async ({ params }) => ok('Successfully deleted trigger', await service.removeTrigger(params.id)),
    'triggers.runEndpoint': async ({ params, body }) => runner.runEndpoint(params.routeName, 'POST', body),
    'triggers.runManual': async ({ params, body }) => runner.runManual(params.id, body.formData),
  };
}
