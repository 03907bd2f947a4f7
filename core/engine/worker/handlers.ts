// Handlers of the worker operations: status, and starting or stopping this
// server's task worker now (processTasksOnStart in properties.json is unchanged).
import type { Handlers } from '../../dispatch/dispatch';
import type { Engine } from '../index';
import { fenceServer } from './fence';

export interface WorkersDeps {
  /** The active profile's workflow engine. */
  engine(): Engine;
}

export type WorkersService = WorkersDeps;

export function createWorkersService(deps: WorkersDeps): WorkersService {
  return deps;
}

export function workersHandlers(service: WorkersService): Pick<Handlers, 'workers.status' | 'workers.activateTaskWorker' | 'workers.deactivateTaskWorker' | 'workers.declareGone'> {
  return {
    'workers.declareGone': async ({ params }) => {
      const engine = service.engine();
      const deps = { beats: engine.heartbeats.collection, requeue: (serverId: string, now: number) => engine.runner.requeueTasksOf(serverId, '', now), selfId: engine.options.serverId, intervalMs: engine.heartbeats.intervalMs };
      return fenceServer(deps, params.serverId);
    },
    'workers.status': () => service.engine().status(),
    'workers.activateTaskWorker': async () => {
      const engine = service.engine();
      await engine.startWorker();
      return engine.status();
    },
    'workers.deactivateTaskWorker': async () => {
      const engine = service.engine();
      await engine.stopWorker();
      return engine.status();
    },
  };
}
