// The per-profile service container: everything that depends on the active profile. Opened
// when the host starts, and closed and opened again when the operator activates another
// profile (or changes the active one's database or adapters folder), so the console is
// reconfigured without a restart. Services open in dependency order and close in reverse.
import type { ProfileProperties } from '../profiles/directory';
import type { Store } from '../store/port';
import { openStore } from '../store/open';
import { IndexBuilds } from '../indexes/builds';
import { createMissingCollectionsAtOpen } from '../indexes/startup';
import { openAdapters, type AdapterInstances, type AdapterLauncher } from '../adapters';
import { openApplications, type Applications } from '../applications';
import { openEngine, type Engine } from '../engine';
import type { Vault } from '../secrets/secrets';
import type { Logger } from '../logging/logger';
import { createTransformationsService } from '../transformations/service';
import { transformationRunner } from '../transformations/task';

export interface Runtime {
  profile: ProfileProperties;
  /** The profile's store; exists even when MongoDB is unreachable (its calls then fail clearly). */
  store: Store;
  /** Index builds on the profile's store (live as long as the store). */
  indexes: IndexBuilds;
  /** The profile's adapter instances (service configs), each in its own process (started at open, stopped at close). */
  adapters: AdapterInstances;
  /** The applications and their lifecycle (one the operator stopped stays stopped across restarts). */
  applications: Applications;
  /** The workflow engine: job runner and task worker (started now when processTasksOnStart is not false). */
  engine: Engine;
}

/** What a runtime is opened with, besides the profile: fixed for the life of the host. */
export interface RuntimeContext {
  dataDir: string;
  serverId: string;
  /** Where the adapter runner and shipped adapters are (a packaged build's unpacked folder). */
  productDir?: string;
  adapterLauncher?: AdapterLauncher;
  /** Seals and opens the data directory's secrets (profiles, adapter service configs). */
  vault: Vault;
  /** The host's logger; the runtime's services log through it with the profile's id. */
  logger: Logger;
  /** The log levels in use (health reports them per adapter). */
  loggerLevels: () => Record<string, unknown>;
}

export async function openRuntime(context: RuntimeContext, profile: ProfileProperties): Promise<Runtime> {
  const { dataDir, serverId } = context;
  const log = context.logger.child({ profile: profile.id });
  const store = await openStore(dataDir, profile, { vault: context.vault });
  let adapters: AdapterInstances | undefined;
  try {
    const indexes = new IndexBuilds(store);
    await createMissingCollectionsAtOpen(store, indexes, (message) => log.warn({ component: 'indexes' }, message));
    const opened = await openAdapters(dataDir, profile, store, { vault: context.vault, productDir: context.productDir, launcher: context.adapterLauncher, log, loggerLevels: context.loggerLevels });
    adapters = opened;
    // The applications open after the engine (WorkFlowEngine's worker is the engine's): read when a task runs.
    let applications: Awaited<ReturnType<typeof openApplications>> | undefined;
    const engine = await openEngine({
      store,
      serverId,
      serverName: profile.serverName ?? serverId,
      processTasksOnStart: profile.processTasksOnStart !== false,
      adapters: () => opened,
      applicationRunning: (app) => applications?.isRunning(app) ?? true,
      log,
      transformations: transformationRunner(createTransformationsService({ store: () => store }).resolve),
    });
    log.info({ store: store.location, processTasksOnStart: profile.processTasksOnStart !== false }, `profile "${profile.id}" opened`);
    applications = await openApplications({
      store,
      serverId,
      log,
      loggerLevels: context.loggerLevels,
      worker: () => ({
        isRunning: engine.worker.isRunning,
        start: () => engine.startWorker(),
        stop: () => engine.stopWorker(),
        startsWithProfile: profile.processTasksOnStart !== false,
      }),
    });
    return { profile, store, indexes, adapters: opened, engine, applications };
  } catch (error) {
    // A half-opened runtime leaves no adapter process or store connection behind; the
    // opening error is the one reported, a failure to close is added to it.
    const failures: string[] = [];
    await adapters?.close().catch((e: Error) => failures.push(`adapters: ${e.message}`));
    await store.close().catch((e: Error) => failures.push(`store: ${e.message}`));
    if (failures.length) (error as Error).message += ` (and closing what had opened failed: ${failures.join('; ')})`;
    log.error({ err: error }, `profile "${profile.id}" cannot be opened: ${(error as Error).message}`);
    throw error;
  }
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  // The worker stops first, handing its running tasks back to the queue.
  await runtime.engine.close();
  await runtime.adapters.close();
  // The store closes last: everything above may still write on its way down.
  await runtime.store.close();
}
