// What the capabilities of the core share while the host runs. Each area takes
// only the fields it needs, so areas do not depend on each other through the host.
import type { ProfileProperties } from '../profiles/directory';

export interface HostState {
  dataDir: string;
  serverId: string;
  profile: ProfileProperties;
}
