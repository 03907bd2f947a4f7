// Handlers of the worker operations: status, and starting or stopping this
// server's task worker now (processTasksOnStart in properties.json is unchanged).
import type { Handlers } from '../../dispatch/dispatch';
import type { HostState } from '../../host/state';
import { engineOf } from '../jobs/handlers';

export function workersHandlers(state: HostState): Pick<Handlers, 'workers.status' | 'workers.activateTaskWorker' | 'workers.deactivateTaskWorker'> {
  return {
    'workers.status': () => engineOf(state).status(),
    'workers.activateTaskWorker': async () => {
      const engine = engineOf(state);
      await engine.startWorker();
      return engine.status();
    },
    'workers.deactivateTaskWorker': async () => {
      const engine = engineOf(state);
      await engine.stopWorker();
      return engine.status();
    },
  };
}
