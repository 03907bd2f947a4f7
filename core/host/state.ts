// The host's service container: what lives as long as the host (data directory, server id,
// the deprecated-call log, profile events) and the per-profile container
// (`runtime`), replaced as a whole when the active profile changes. Capabilities never see
// this type: the host hands each one only the services it names (core/host/handlers.ts).
import type { DeprecatedCallLog } from '../health/lifecycle';
import type { ProfileEvents } from '../profiles/events';
import type { LogService } from '../logging/logger';
import type { Runtime, RuntimeContext } from './runtime';
import type { StoreLifecycle } from '../store/lifecycle';
import type { ScheduleTicker } from '../automations/ticker';

export interface HostState extends RuntimeContext {
  dataDir: string;
  serverId: string;
  /** Replaced as a whole when another profile is activated; read it at each call. */
  runtime: Runtime;
  /** Open, backup, restore, profile switch and close of the runtime, one at a time (core/store/lifecycle.ts). */
  lifecycle: StoreLifecycle;
  callLog: DeprecatedCallLog;
  profileEvents: ProfileEvents;
  /** The one logger, configured from the active profile's loggerProps. */
  log: LogService;
  /** The timer firing the active profile's schedule triggers (core/automations/ticker.ts), stopped with the console. */
  schedules?: ScheduleTicker;
  /** This console's own HTTP API, once it listens (a drill site given as "this console"). */
  api?: { url: string; token: string };
}
