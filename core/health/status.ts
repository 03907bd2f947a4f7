// The console's own status: what the status bar shows and scripts poll.
import type { HealthStatus } from '../contract/health';
import type { HostState } from '../host/state';
import type { Store } from '../store/port';

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
    taskWorker: { running: false },
  };
}

// Pollers (the status bar, scripts) share one ping in flight: an unreachable
// MongoDB takes seconds to answer and must not pile up pings.
const pings = new WeakMap<Store, Promise<void>>();

async function storeService(store: Store): Promise<HealthStatus['services'][number]> {
  let ping = pings.get(store);
  if (!ping) {
    ping = store.ping().finally(() => pings.delete(store));
    pings.set(store, ping);
  }
  try {
    await ping;
    return { service: 'mongo', status: 'running', detail: store.location };
  } catch (error) {
    return { service: 'mongo', status: 'failed', detail: (error as Error).message };
  }
}
