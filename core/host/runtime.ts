// The per-profile service container: everything that depends on the active profile, opened from
// its runtime config (core/profiles/runtime-config.ts). Opened when the host starts, and closed
// and opened again when the operator activates another profile (or changes what the active
// one's store, adapters folder or secrets are), so the console is reconfigured without a
// restart. Services open in dependency order and close in reverse.
import type { LoggerLevels } from '../contract/health';
import type { RuntimeConfig } from '../profiles/runtime-config';
import type { Store } from '../store/port';
import { openConfiguredStore } from '../store/open';
import { APPLICATIONS_VERSION } from '../applications/registry';
import { IndexBuilds } from '../indexes/builds';
import { createMissingCollectionsAtOpen } from '../indexes/startup';
import { errorMessage } from '../errors';
import { openAdapters, type AdapterInstances, type AdapterLauncher } from '../adapters';
import { openApplications, type Applications } from '../applications';
import { openEngine, type Engine } from '../engine';
import { createLargeDataIndexes } from '../store/large-data/bucket';
import { withLargeData } from '../store/large-data/large-data';
import type { Vault } from '../secrets/secrets';
import type { Logger } from '../logging/logger';
import { createTransformationsService } from '../transformations/service';
import { transformationRunner } from '../transformations/task';

export interface Runtime {
  /** The active profile as read once; replaced when the profile is saved (see profile-switch.ts). */
  config: RuntimeConfig;
  /**
   * The profile's store; exists even when MongoDB is unreachable (its calls then fail clearly). Its
   * `jobs` and `tasks` keep values above 1 MiB in job_data and read them back whole (withLargeData):
   * the engine and every other reader of job and task documents get it from here, none unwraps it.
   */
  store: Store;
  /** Index builds on the profile's store (live as long as the store). */
  indexes: IndexBuilds;
  /** The profile's adapter instances (service configs), each in its own process (started at open, stopped at close). */
  adapters: AdapterInstances;
  /** The applications and their lifecycle (one the operator stopped stays stopped across restarts). */
  applications: Applications;
  /** The workflow engine: job runner and task worker (started now when the config's processTasksOnStart is true). */
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
  loggerLevels: () => LoggerLevels;
}

export async function openRuntime(context: RuntimeContext, config: RuntimeConfig): Promise<Runtime> {
  const { dataDir, serverId } = context;
  const name = config.profileId === undefined ? 'no profile' : `profile "${config.profileId}"`;
  const log = context.logger.child({ profile: config.profileId ?? null });
  const storeLog = { info: (message: string) => log.info({ component: 'store' }, message), error: (message: string) => log.error({ component: 'store' }, message) };
  // Job and task values above the threshold are kept in job_data, as the service keeps them; every reader
  // (the engine, the work queue, attention, the job pages) gets this one store and reads them whole.
  const store = withLargeData(await openConfiguredStore(config.store, config.profileId ?? '', { vault: context.vault, log: storeLog, consoleVersion: APPLICATIONS_VERSION }));
  let adapters: AdapterInstances | undefined;
  try {
    const indexes = new IndexBuilds(store);
    await createMissingCollectionsAtOpen(store, indexes, (message) => log.warn({ component: 'indexes' }, message));
    // job_data's indexes, made at every open (a no-op once made); a slow or down MongoDB does not hold startup.
    const largeData = createLargeDataIndexes(store).catch((error: unknown) =>
      log.warn({ component: 'indexes', error: errorMessage(error) }, `indexing: job_data's indexes were not made: ${errorMessage(error)}`),
    );
    if (store.kind === 'embedded') await largeData;
    const opened = await openAdapters(dataDir, config, store, { vault: context.vault, productDir: context.productDir, launcher: context.adapterLauncher, log, loggerLevels: context.loggerLevels });
    adapters = opened;
    // The applications open after the engine (WorkFlowEngine's worker is the engine's): read when a task runs.
    let applications: Awaited<ReturnType<typeof openApplications>> | undefined;
    // The one reader of processTasksOnStart: the runtime's config, which saving the active profile replaces
    // (profile-switch.ts). The worker status, attention, health and WorkFlowEngine's start all read it through the engine.
    let runtime: Runtime | undefined;
    const transformations = createTransformationsService({ store: () => store });
    const engine = await openEngine({
      store,
      serverId,
      serverName: config.serverName ?? serverId,
      processTasksOnStart: config.processTasksOnStart,
      startupValue: () => (runtime?.config ?? config).processTasksOnStart,
      startupValueSet: () => (runtime?.config ?? config).processTasksOnStartSet,
      adapters: () => opened,
      applicationRunning: (app) => applications?.isRunning(app) ?? true,
      log,
      transformations: transformationRunner(transformations.resolve, transformations.runDocument),
    });
    log.info({ store: store.location, processTasksOnStart: config.processTasksOnStart }, `${name} opened`);
    applications = await openApplications({
      store,
      serverId,
      log,
      loggerLevels: context.loggerLevels,
      worker: () => ({
        isRunning: engine.worker.isRunning,
        start: () => engine.startWorker(),
        stop: () => engine.stopWorker(),
        startsWithProfile: engine.startupValue,
      }),
    });
    runtime = { config, store, indexes, adapters: opened, engine, applications };
    return runtime;
  } catch (error) {
    // A half-opened runtime leaves no adapter process or store connection behind; the
    // opening error is the one reported, a failure to close is added to it.
    const failures: string[] = [];
    const note = (what: string) => (e: unknown) => void failures.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    await adapters?.close().catch(note('adapters'));
    await store.close().catch(note('store'));
    if (failures.length && error instanceof Error) error.message += ` (and closing what had opened failed: ${failures.join('; ')})`;
    log.error({ err: error }, `${name} cannot be opened: ${error instanceof Error ? error.message : String(error)}`);
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
