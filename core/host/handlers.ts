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
import { workflowsHandlers } from '../engine/workflow/handlers';
import { jobsHandlers } from '../engine/jobs/handlers';
import { workersHandlers } from '../engine/worker/handlers';
import { adaptersHandlers, createAdaptersService } from '../adapters/handlers';
import { applicationsHandlers, createApplicationsService } from '../applications/handlers';

export function buildHandlers(state: HostState): Handlers {
  // Operations that are API rows of the release's deprecation table answer per their lifecycle.
  return withApiLifecycle({
    'health.status': () => healthStatus(state),
    ...healthHandlers(state),
    ...adaptersHandlers(createAdaptersService({ adapters: () => state.runtime.adapters })),
    ...applicationsHandlers(createApplicationsService({ applications: () => state.runtime.applications })),
    ...indexesHandlers(state),
    ...profilesHandlers(state),
    ...releaseHandlers(state),
    ...upgradeHandlers(state),
    ...storeHandlers(state),
    ...workflowsHandlers(state),
    ...jobsHandlers(state),
    ...workersHandlers(state),
  }, deprecatedCallLog(state));
}
