// Joins the handlers of every capability into the one table the transports serve.
import type { Handlers } from '../dispatch/dispatch';
import type { HostState } from './state';
import { healthStatus } from '../health/status';
import { deprecatedCallLog, healthHandlers } from '../health/handlers';
import { withApiLifecycle } from '../health/lifecycle';
import { indexesHandlers } from '../indexes/handlers';
import { profilesHandlers } from '../profiles/handlers';
import { releaseHandlers } from '../release/handlers';
import { upgradeHandlers } from '../upgrade/handlers';
import { storeHandlers } from '../store/handlers';
import { createWorkflowsService, workflowsHandlers } from '../engine/workflow/handlers';
import { jobsHandlers } from '../engine/jobs/handlers';
import { createProjectsService, projectsHandlers } from '../projects/handlers';
import { workersHandlers } from '../engine/worker/handlers';

export function buildHandlers(state: HostState): Handlers {
  const workflows = createWorkflowsService({ store: () => state.runtime.store, adapters: () => state.runtime.adapters });
  // Operations that are API rows of the release's deprecation table answer per their lifecycle.
  return withApiLifecycle({
    'health.status': () => healthStatus(state),
    ...healthHandlers(state),
    ...indexesHandlers(state),
    ...profilesHandlers(state),
    ...releaseHandlers(state),
    ...upgradeHandlers(state),
    ...storeHandlers(state),
    ...workflowsHandlers(workflows),
    ...jobsHandlers(state, (name) => workflows.assertStartable(name)),
    ...workersHandlers(state),
    ...projectsHandlers(createProjectsService({ store: () => state.runtime.store, workflows })),
  }, deprecatedCallLog(state));
}
