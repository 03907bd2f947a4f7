// The console's own status: what the status bar shows and scripts poll.
import type { HealthStatus } from '../contract/health';
import type { ProfileProperties } from '../profiles/directory';
import type { Store } from '../store/port';
import { storeHealth } from '../store/ping';

export const RELEASE = '2022.1';

export interface StatusDeps {
  serverId: string;
  profile(): ProfileProperties;
  store(): Store;
  /** Whether this server's task worker runs now. */
  taskWorkerRunning(): boolean;
}

export async function healthStatus(deps: StatusDeps): Promise<HealthStatus> {
  const profile = deps.profile();
  const store = deps.store();
  const mongo = await storeService(store);
  return {
    release: RELEASE,
    serverId: deps.serverId,
    serverName: profile.serverName ?? deps.serverId,
    profile: profile.id,
    store: store.kind,
    services: [mongo],
    taskWorker: { running: deps.taskWorkerRunning() },
  };
}

async function storeService(store: Store): Promise<HealthStatus['services'][number]> {
  const { connected, error } = await storeHealth(store);
  return connected ? { service: 'mongo', status: 'running', detail: store.location } : { service: 'mongo', status: 'failed', detail: error };
}
