// Joins the handlers of every capability into the one table the transports serve.
import type { Handlers } from '../dispatch/dispatch';
import type { HostState } from './state';
import { healthStatus } from '../health/status';
import { indexesHandlers } from '../indexes/handlers';
import { profilesHandlers } from '../profiles/handlers';
import { releaseHandlers } from '../release/handlers';
import { workflowsHandlers } from '../engine/workflow/handlers';

export function buildHandlers(state: HostState): Handlers {
  return {
    'health.status': () => healthStatus(state),
    ...indexesHandlers(state),
    ...profilesHandlers(state),
    ...releaseHandlers(state),
    ...workflowsHandlers(state),
  };
}
