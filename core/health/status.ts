// The console's own status: what the status bar shows and scripts poll.
import type { HealthStatus } from '../contract/health';
import type { HostState } from '../host/state';
import type { Store } from '../store/port';
import { storeHealth } from '../store/ping';

export const RELEASE = '2022.1';

export async function healthStatus(state: HostState): Promise<HealthStatus> {
  const { profile, store } = state.runtime;
  const mongo = await storeService(store);
  return {
    release: RELEASE,
    serverId: state.serverId,
    serverName: profile.serverName ?? state.serverId,
    profile: profile.id,
    store: store.kind,
    services: [mongo],
    taskWorker: { running: state.runtime.engine?.worker.isRunning ?? false },
  };
}

async function storeService(store: Store): Promise<HealthStatus['services'][number]> {
  const { connected, error } = await storeHealth(store);
  return connected ? { service: 'mongo', status: 'running', detail: store.location } : { service: 'mongo', status: 'failed', detail: error };
}
