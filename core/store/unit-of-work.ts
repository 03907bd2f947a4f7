// One unit of work on a store: what a caller writes that must happen together (a job's
// start, a task's end and its job's advance, an operator's action) runs here, and only here
// is a transaction opened. On the embedded store it is one SQLite transaction: the calls
// the work makes in its async context commit together or not at all (a unit inside another
// joins it). On MongoDB a work that asks for it (`session: true`: it leaves no write running
// once it returns, as an operator's action) is one session transaction where the server has
// them (a replica set); otherwise the work runs as it is, and its writes are ordered so the
// engine's sweepers (unadvanced records, half-started jobs, expired leases) finish or undo
// what a crash leaves between them.
import type { Store } from './port';

/** Whether a unit of work on this store commits together (a transaction) or relies on its write order. */
export const isAtomic = (store: Pick<Store, 'transaction'>): boolean => typeof store.transaction === 'function';

/** Runs `work` as one unit of work on `store` (see above). */
export function unitOfWork<R>(store: Pick<Store, 'transaction' | 'sessionTransaction'>, work: () => Promise<R>, options: { session?: boolean } = {}): Promise<R> {
  if (store.transaction) return store.transaction(() => work());
  if (options.session && store.sessionTransaction) return store.sessionTransaction(work);
  return work();
}
