// What the capabilities of the core share while the host runs. Each area takes
// only the fields it needs, so areas do not depend on each other through the host.
import type { Runtime } from './runtime';

export interface HostState {
  dataDir: string;
  serverId: string;
  /** Replaced as a whole when another profile is activated; read it at each call. */
  runtime: Runtime;
}
