// The console's own status: what the status bar shows and scripts poll.
import type { HealthStatus } from '../contract/health';
import type { HostState } from '../host/state';

export const RELEASE = '2022.1';

export function healthStatus(state: HostState): HealthStatus {
  const profile = state.runtime.profile;
  return {
    release: RELEASE,
    serverId: state.serverId,
    serverName: profile.serverName ?? state.serverId,
    profile: profile.id,
    store: profile.mongoProps?.url ? 'mongodb' : 'embedded',
    services: [{ service: 'mongo', status: 'running' }],
    taskWorker: { running: false },
  };
}
