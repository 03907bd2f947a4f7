// The tasks a workflow can call in this profile, as the service's workflow builder lists them
// (GET /workflow_builder/tasks/list), and the applications and adapters that give them
// (GET /automation-studio/apps/list): WorkFlowEngine's built-in tasks, the tasks of the console's other
// applications (MOP's), and each adapter instance's methods (from its pronghorn.json). A builder reads
// them to write a task's `name`, `app`, `type` and `location` as a workflow export has them.
import { builtInApplications } from '../../applications/registry';
import { applicationTask } from '../tasks/library';
import { defaultApplications, type AdapterListing } from './catalog';
import { isManual } from '../jobs/records';

export interface PaletteTask {
  name: string;
  app: string;
  /** `manual` for a task an operator ends, `automatic` otherwise. */
  type: 'automatic' | 'manual';
  location: 'Application' | 'Adapter';
  canvasName: string;
  displayName: string;
  summary?: string;
}

/** Every task of the applications and adapter instances of the profile, application by application. */
export function taskPalette(adapters: AdapterListing | undefined): PaletteTask[] {
  const tasks: PaletteTask[] = [];
  for (const [app, methods] of defaultApplications()) {
    for (const name of methods) {
      const known = applicationTask(app, name);
      const type = isManual({ name, app }) ? 'manual' : 'automatic';
      tasks.push({ name, app, type, location: 'Application', canvasName: known?.displayName ?? name, displayName: app, ...(known ? { summary: known.summary } : {}) });
    }
  }
  for (const app of adapters?.list() ?? []) {
    for (const name of adapters?.methods(app) ?? []) tasks.push({ name, app, type: 'automatic', location: 'Adapter', canvasName: name, displayName: app });
  }
  return tasks;
}

/** The applications and adapter instances, each with its type, as Automation Studio lists them. */
export function appsList(adapters: AdapterListing | undefined): { name: string; type: 'Application' | 'Adapter' }[] {
  return [
    ...builtInApplications.map((application) => ({ name: application.id, type: 'Application' as const })),
    ...(adapters?.list() ?? []).map((name) => ({ name, type: 'Adapter' as const })),
  ];
}
