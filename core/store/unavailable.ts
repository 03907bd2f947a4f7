// A store that could not be opened (the embedded database file damaged or not openable, or a
// runtime without node:sqlite): the console still starts, like on an unreachable MongoDB, and
// every call, ping included, fails with the cause, so /store/status and /health/status say why.
import type { Collection, Doc, Store } from './port';
import { StoreError } from './errors';

/** `stopped`: a store the console refused to open (its file missing, empty or unreadable): its safety says so, in red. */
export function unavailableStore(kind: Store['kind'], location: string, cause: string, options: { stopped?: boolean } = {}): Store {
  const fail = () => Promise.reject(new StoreError('unreachable', cause));
  const collection = <T extends Doc = Doc>(name: string): Collection<T> => ({
    name,
    insertOne: fail,
    insertMany: fail,
    findOne: fail,
    find: fail,
    count: fail,
    updateOne: fail,
    updateMany: fail,
    findOneAndUpdate: fail,
    findManyAndUpdate: fail,
    deleteOne: fail,
    deleteMany: fail,
    createIndex: fail,
    listIndexes: fail,
    dropIndex: fail,
  });
  const store: Store = { kind, location, collection, listCollections: fail, ping: fail, close: async () => undefined };
  if (options.stopped) store.safety = () => ({ state: 'stopped', writable: false, reason: cause });
  return store;
}
