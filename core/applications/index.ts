// The applications of the active profile with their lifecycle (see lifecycle.ts).
import type { Logger } from 'pino';
import type { LoggerLevels } from '../contract/health';
import type { Store } from '../store/port';
import { storeHealth } from '../store/ping';
import { storeDesiredStates } from './desired-state';
import { Applications, type ApplicationHooks } from './lifecycle';

export { Applications, ApplicationStoppedError, UnknownApplicationError, type ApplicationHooks } from './lifecycle';
export { builtInApplications, isApplication, type ApplicationDefinition, type ApplicationState } from './registry';
export { storeDesiredStates, type DesiredStates } from './desired-state';

/** What the applications need of the runtime: the store, and the task worker WorkFlowEngine owns. */
export interface ApplicationDeps {
  store: Store;
  /** This server: applications run per server, so their started/stopped choice is this server's own. */
  serverId?: string;
  /** The console's log levels, reported per application. */
  loggerLevels?: () => LoggerLevels;
  /** Where a started/stopped choice that cannot be read or applied is logged. */
  log: Pick<Logger, 'error'>;
  worker?: () => { isRunning: boolean; start(): Promise<void>; stop(): Promise<void>; startsWithProfile: boolean } | undefined;
}

export async function openApplications(deps: ApplicationDeps): Promise<Applications> {
  const storeDown = async () => {
    const { connected, error } = await storeHealth(deps.store);
    return connected ? undefined : `the store does not answer: ${error}`;
  };
  const hooks: Record<string, ApplicationHooks> = {
    WorkFlowEngine: {
      // The task worker is the engine's: it stops with it, and comes back when the profile asks for it.
      stop: async () => deps.worker?.()?.stop(),
      start: async () => {
        const worker = deps.worker?.();
        if (worker?.startsWithProfile) await worker.start();
      },
      deadBecause: storeDown,
      figures: () => ({ taskWorkerRunning: deps.worker?.()?.isRunning ?? false }),
    },
    OperationsManager: { deadBecause: storeDown },
    AutomationCatalog: { deadBecause: storeDown },
  };
  return new Applications({ desired: storeDesiredStates(deps.store, deps.serverId), log: deps.log, loggerLevels: deps.loggerLevels }).open(hooks, deps.store.kind !== 'embedded');
}
