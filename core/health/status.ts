// The console's own status: what the status bar shows and scripts poll, in the service's shape
// (`host`, `serverId`, `serverName`, `services`, `timestamp`, `apps`, `adapters`) with the console's
// fields after it.
import os from 'node:os';
import type { HealthStatus } from '../contract/health';
import { RUNNING_RELEASE } from '../release';
import type { RuntimeConfig } from '../profiles/runtime-config';
import type { Store } from '../store/port';
import { storeHealth } from '../store/ping';

export interface StatusDeps {
  serverId: string;
  /** The active profile's runtime config (no profile id when none is active). */
  profile(): Pick<RuntimeConfig, 'profileId' | 'serverName'>;
  store(): Store;
  /** Whether this server's task worker runs now, and whether it starts with the profile (processTasksOnStart as saved). */
  taskWorker(): { running: boolean; startupValue: boolean };
  /** The state of each application and of each adapter now, as read without asking them (no round trip). */
  states(): { apps: string[]; adapters: string[] };
}

/** The service's overall word for a group: `running` when every one is RUNNING. */
const overall = (states: string[]) => (states.every((state) => state === 'RUNNING') ? 'running' : 'degraded');

export async function healthStatus(deps: StatusDeps): Promise<HealthStatus> {
  const profile = deps.profile();
  const store = deps.store();
  const mongo = await storeService(store);
  const states = deps.states();
  return {
    host: os.hostname(),
    serverId: deps.serverId,
    serverName: profile.serverName ?? deps.serverId,
    services: [mongo],
    timestamp: Date.now(),
    apps: overall(states.apps),
    adapters: overall(states.adapters),
    release: RUNNING_RELEASE,
    // No profile is active (console.json cannot be read): said in words, never a profile's id.
    profile: profile.profileId ?? '(none)',
    store: store.kind,
    taskWorker: deps.taskWorker(),
  };
}

/** The store as the service it is: `mongo` for MongoDB (the service's name), `embedded-store` for the store in the data directory. */
export const storeServiceName = (store: Pick<Store, 'kind'>) => (store.kind === 'mongodb' ? 'mongo' : 'embedded-store');

async function storeService(store: Store): Promise<HealthStatus['services'][number]> {
  const { connected, error } = await storeHealth(store);
  const service = storeServiceName(store);
  // A store that answers but takes no writes (read-only after a failed check, failing writes) is not running as it should.
  const safety = store.safety?.();
  if (connected && safety && !safety.writable) return { service, status: 'failed', detail: safety.reason };
  return connected ? { service, status: 'running', detail: store.location } : { service, status: 'failed', detail: error ?? safety?.reason };
}
