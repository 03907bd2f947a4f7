// A store that could not be opened (the embedded database file damaged or not openable, or a
// runtime without node:sqlite): the console still starts, like on an unreachable MongoDB, and
// every call, ping included, fails with the cause, so /store/status and /health/status say why.
import type { Collection, Store } from './port';
import { StoreError } from './errors';

export function unavailableStore(kind: Store['kind'], location: string, cause: string): Store {
  const fail = () => Promise.reject(new StoreError('unreachable', cause));
  const collection = ((name: string) =>
    new Proxy({ name } as Collection, {
      get: (target, key) => (key === 'name' ? target.name : fail),
    })) as Store['collection'];
  return { kind, location, collection, listCollections: fail, ping: fail, close: async () => undefined };
}
