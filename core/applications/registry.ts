// The built-in applications of the service that this console serves, with the service's ids,
// package names and route prefixes.

export type ApplicationState = 'RUNNING' | 'STOPPED' | 'DEAD';

export interface ApplicationDefinition {
  id: string;
  package_id: string;
  version: string;
  description: string;
  routePrefix: string;
}

/** Version of the applications shipped with this console release. */
export const APPLICATIONS_VERSION = '2022.1.0';

const app = (id: string, name: string, routePrefix: string, description: string): ApplicationDefinition => ({
  id,
  package_id: `@itential/app-${name}`,
  version: APPLICATIONS_VERSION,
  description,
  routePrefix,
});

export const builtInApplications: readonly ApplicationDefinition[] = [
  app('WorkFlowEngine', 'workflow_engine', 'workflow_engine', 'Runs workflows, jobs, child jobs and tasks; owns the task worker'),
  app('OperationsManager', 'operations_manager', 'operations-manager', 'Starts and follows jobs (POST /operations-manager/jobs/start)'),
  app('AutomationCatalog', 'automation_catalog', 'automation-catalog', 'The catalog of automations operators can run'),
  app('AdminEssentials', 'admin_essentials', 'admin_essentials', 'Administration: profiles, adapters, health and indexing'),
  app('MOP', 'mop', 'mop', 'Method of procedure templates and analytic templates'),
  app('ServiceCatalog', 'service_catalog', 'service_catalog', 'The catalog of services offered to operators'),
  app('JsonForms', 'json_forms', 'json-forms', 'The JSON forms operators fill in (the ShowJsonForm task; GET /json-forms/forms/:id)'),
];

export const isApplication = (id: string) => builtInApplications.some((a) => a.id === id);
