// At startup, the declared collections that do not exist yet are created with their
// indexes (a new database starts indexed). Existing collections are left as they
// are: indexing a big jobs collection belongs in a maintenance window, on request.
import type { Store } from '../store/port';
import type { IndexBuilds } from './builds';
import { declaredCollections } from './declared';
import { errorMessage } from '../errors';

/** Starts the builds in the background and resolves once they are started; returns the collections created. */
/** `warn` is the caller's logger (the runtime's, with the profile): a collection not created is said there. */
export async function createMissingCollections(store: Store, builds: IndexBuilds, warn: (message: string) => void): Promise<string[]> {
  let existing: string[];
  try {
    existing = await store.listCollections();
  } catch (error) {
    warn(`indexing: the ${store.location} did not list its collections (${errorMessage(error)}); no collection was created at startup`);
    return [];
  }
  const absent = declaredCollections.filter((declared) => !existing.includes(declared.collection));
  for (const declared of absent) {
    await builds.start(declared).catch((error: Error) => warn(`indexing: ${declared.collection} was not created: ${error.message}`));
  }
  return absent.map((declared) => declared.collection);
}

/**
 * The startup hook of a profile's runtime. The embedded store is local and quick, so
 * startup waits for it; a MongoDB that is slow or down must not hold startup, so its
 * collections are created in the background (the Indexing tab shows the builds).
 */
export async function createMissingCollectionsAtOpen(store: Store, builds: IndexBuilds, warn: (message: string) => void): Promise<void> {
  const creating = createMissingCollections(store, builds, warn).then(() => builds.whenIdle());
  if (store.kind === 'embedded') await creating;
}
