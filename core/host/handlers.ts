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
import { engineOf } from '../engine/jobs/handlers';
import { applications } from '../applications/registry';
import { indexBuildsOf } from '../indexes/builds';
import { declaredCollections } from '../indexes/declared';
import { attentionHandlers, createAttentionService } from '../attention/service';
import { createWorklistService, worklistHandlers } from '../worklist/service';

export function buildHandlers(state: HostState): Handlers {
  const attention = createAttentionService({
    jobs: () => engineOf(state).runner.jobs,
    tasks: () => engineOf(state).runner.queue.tasks,
    adapters: () => state.runtime.adapters.items(),
    applications: () => applications.items(),
    indexes: () => {
      const builds = indexBuildsOf(state.runtime.store);
      return Promise.all(declaredCollections.map((declared) => builds.status(declared)));
    },
    deprecatedCalls: () => deprecatedCallLog(state).list(),
    worker: () => ({
      profile: state.runtime.profile.id,
      processTasksOnStart: state.runtime.profile.processTasksOnStart !== false,
      running: state.runtime.engine?.worker.isRunning ?? false,
    }),
  });
  const worklist = createWorklistService({ tasks: () => engineOf(state).runner.queue.tasks, jobs: () => engineOf(state).runner.jobs });
  // Operations that are API rows of the release's deprecation table answer per their lifecycle.
  return withApiLifecycle({
    'health.status': () => healthStatus(state),
    ...healthHandlers(state),
    ...indexesHandlers(state),
    ...profilesHandlers(state),
    ...releaseHandlers(state),
    ...upgradeHandlers(state),
    ...storeHandlers(state),
    ...workflowsHandlers(state),
    ...jobsHandlers(state),
    ...workersHandlers(state),
    ...attentionHandlers(attention),
    ...worklistHandlers(worklist),
  }, deprecatedCallLog(state));
}
