// Joins the handlers of every capability into the one table the transports serve. Each
// capability gets only the services it names; per-profile services are read at each call,
// so a profile switch (a new runtime) is seen by every handler.
import type { Handlers } from '../dispatch/dispatch';
import type { HostState } from './state';
import { createHealthService, healthHandlers } from '../health/handlers';
import { withApiLifecycle } from '../health/lifecycle';
import { createIndexesService, indexesHandlers } from '../indexes/handlers';
import { createProfilesService, profilesHandlers } from '../profiles/handlers';
import { releaseHandlers } from '../release/handlers';
import { createUpgradeService, upgradeHandlers } from '../upgrade/handlers';
import { createStoreService, storeHandlers } from '../store/handlers';
import { createWorkflowsService, workflowsHandlers } from '../engine/workflow/handlers';
import { createJobsService, jobsHandlers } from '../engine/jobs/handlers';
import { createWorkersService, workersHandlers } from '../engine/worker/handlers';
import { adaptersHandlers, createAdaptersService } from '../adapters/handlers';
import { applicationsHandlers, createApplicationsService } from '../applications/handlers';
import { createTransformationsService } from '../transformations/service';
import { transformationsHandlers } from '../transformations/handlers';

export function buildHandlers(state: HostState): Handlers {
  const profile = () => state.runtime.profile;
  const store = () => state.runtime.store;
  const adapters = () => state.runtime.adapters;
  const applications = () => state.runtime.applications;
  const engine = () => state.runtime.engine;
  const { dataDir, serverId } = state;
  // Operations that are API rows of the release's deprecation table answer per their lifecycle.
  return withApiLifecycle(
    {
      ...healthHandlers(
        createHealthService({
          serverId,
          profile,
          store,
          adapters: () => adapters().manager,
          taskWorkerRunning: () => engine().worker.isRunning,
          applications,
          callLog: state.callLog,
        }),
      ),
      ...adaptersHandlers(createAdaptersService({ adapters })),
      ...applicationsHandlers(createApplicationsService({ applications })),
      ...indexesHandlers(createIndexesService({ indexes: () => state.runtime.indexes })),
      ...profilesHandlers(createProfilesService({ dataDir, runningProfileId: () => profile().id, profileEvents: state.profileEvents })),
      ...releaseHandlers(),
      ...upgradeHandlers(createUpgradeService()),
      ...storeHandlers(createStoreService({ dataDir, store })),
      ...workflowsHandlers(createWorkflowsService({ store, adapters })),
      ...jobsHandlers(createJobsService({ engine, guardStart: () => applications().require('OperationsManager', 'starting a job') })),
      ...workersHandlers(createWorkersService({ engine })),
      ...transformationsHandlers(createTransformationsService({ store })),
    },
    state.callLog,
  );
}
