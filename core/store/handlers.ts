// The store operations: the active profile's store status, and a connection test
// of any saved profile (opened apart from the running one, then closed).
import { performance } from 'node:perf_hooks';
import type { Handlers } from '../dispatch/dispatch';
import { OpError } from '../dispatch/dispatch';
import { readProperties, type ProfileProperties } from '../profiles/directory';
import { openStore } from './open';
import type { Store } from './port';
import type { Vault } from '../secrets/secrets';
import { storeHealth } from './ping';

type StoreHandlers = Pick<Handlers, 'store.status' | 'store.testConnection'>;

export interface StoreDeps {
  dataDir: string;
  /** Opens a tested profile's sealed password. */
  vault: Vault;
  /** The active profile's store. */
  store(): Store;
}

export type StoreService = StoreDeps;

export function createStoreService(deps: StoreDeps): StoreService {
  return deps;
}

export function storeHandlers(service: StoreService): StoreHandlers {
  return {
    'store.status': async () => {
      const store = service.store();
      const health = await storeHealth(store);
      const integrity = health.connected && store.integrity ? await store.integrity() : undefined;
      return { kind: store.kind, location: store.location, ...health, ...(integrity ? { integrity } : {}) };
    },
    'store.testConnection': async ({ params }) => {
      const profile = await readProfile(service.dataDir, params.id);
      const store = await openStore(service.dataDir, profile, { vault: service.vault });
      try {
        const started = performance.now();
        await store.ping();
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        return { ok: true, kind: store.kind, location: store.location, latencyMs };
      } catch (error) {
        return { ok: false, kind: store.kind, location: store.location, error: (error as Error).message };
      } finally {
        await store.close();
      }
    },
  };
}

async function readProfile(dataDir: string, id: string): Promise<ProfileProperties> {
  // The id names a folder: refuse anything that could leave the profiles directory.
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(id)) throw new OpError(404, `profile "${id}" not found`);
  try {
    return await readProperties(dataDir, id);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new OpError(404, `profile "${id}" not found`);
    throw new OpError(422, `profile "${id}" cannot be read: ${(error as Error).message}`);
  }
}
