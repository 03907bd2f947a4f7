// Everything that depends on the active profile. Opened when the host starts, and
// closed and opened again when the operator activates another profile, so the
// console is reconfigured without a restart. Capabilities that need the profile
// (the store, the task worker, adapters) open here and close in reverse order.
import type { ProfileProperties } from '../profiles/directory';
import type { Store } from '../store/port';
import { openStore } from '../store/open';
import { createMissingCollectionsAtOpen } from '../indexes/startup';
import { openAdapters, type AdapterInstances } from '../adapters';
import { openApplications, type Applications } from '../applications';
import { openEngine, type Engine } from '../engine';
import { serverId } from './data-dir';

export interface Runtime {
  profile: ProfileProperties;
  /** The profile's store; exists even when MongoDB is unreachable (its calls then fail clearly). */
  store: Store;
  /** The profile's adapter instances (service configs), each in its own process (started at open, stopped at close). */
  adapters: AdapterInstances;
  /** The applications and their lifecycle (a stopped one stays stopped across restarts). */
  applications: Applications;
  /** The workflow engine: job runner and task worker (started now when processTasksOnStart is not false). */
  engine: Engine;
}

export async function openRuntime(dataDir: string, profile: ProfileProperties): Promise<Runtime> {
  const store = await openStore(dataDir, profile);
  let adapters: AdapterInstances | undefined;
  try {
    await createMissingCollectionsAtOpen(store);
    adapters = await openAdapters(dataDir, profile, store);
    const id = await serverId(dataDir);
    const runtime = { profile, store, adapters } as Runtime;
    runtime.engine = await openEngine({
      store,
      serverId: id,
      serverName: profile.serverName ?? id,
      processTasksOnStart: profile.processTasksOnStart !== false,
      adapters: () => runtime.adapters,
    });
    const engine = runtime.engine;
    runtime.applications = await openApplications({
      store,
      worker: () => ({
        isRunning: engine.worker.isRunning,
        start: () => engine.startWorker(),
        stop: () => engine.stopWorker(),
        startsWithProfile: profile.processTasksOnStart !== false,
      }),
    });
    return runtime;
  } catch (error) {
    // A half-opened runtime leaves no adapter process or store connection behind.
    await adapters?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  // The worker stops first, handing its running tasks back to the queue.
  await runtime.engine?.close();
  await runtime.adapters.close();
  // The store closes last: everything above may still write on its way down.
  await runtime.store.close();
}
