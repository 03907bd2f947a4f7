// A store that could not be opened (the embedded database file damaged or not openable, or a
// runtime without node:sqlite): the console still starts, like on an unreachable MongoDB, and
// every call, ping included, fails with the cause, so /store/status and /health/status say why.
import type { Collection, Store } from './port';
import { StoreError } from './errors';

/** `stopped`: a store the console refused to open (its file missing, empty or unreadable): its safety says so, in red. */
export function unavailableStore(kind: Store['kind'], location: string, cause: string, options: { stopped?: boolean } = {}): Store {
  const fail = () => Promise.reject(new StoreError('unreachable', cause));
  const collection = ((name: string) =>
    new Proxy({ name } as Collection, {
      get: (target, key) => (key === 'name' ? target.name : fail),
    })) as Store['collection'];
  const store: Store = { kind, location, collection, listCollections: fail, ping: fail, close: async () => undefined };
  if (options.stopped) store.safety = () => ({ state: 'stopped', writable: false, reason: cause });
  return store;
}
