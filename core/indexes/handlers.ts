// Indexing operations on the active profile's store.
import type { Handler } from '../dispatch/dispatch';
import type { IndexBuilds } from './builds';
import {
  declaredCollectionNames,
  declaredCollections,
  declaringApplications,
  findDeclaredCollection,
  findDeclaringApplication,
  type DeclaredCollection,
} from './declared';
import { ConsoleError, errorMessage } from '../errors';

export interface IndexesDeps {
  /** The index builds of the active profile's store. */
  indexes(): IndexBuilds;
}

export type IndexesService = IndexesDeps;

export function createIndexesService(deps: IndexesDeps): IndexesService {
  return deps;
}

function declaredOrNotFound(name: string): DeclaredCollection {
  const declared = findDeclaredCollection(name);
  if (!declared) {
    throw new ConsoleError('not_found',
      `collection "${name}" has no declared indexes; collections that can be indexed: ${declaredCollectionNames.join(', ')}`,
      { collections: declaredCollectionNames },
    );
  }
  return declared;
}

/** A store that cannot answer is the database's fault, not the caller's. */
async function storeCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConsoleError) throw error;
    throw new ConsoleError('unavailable', errorMessage(error));
  }
}

export function indexesHandlers(service: IndexesService): {
  'indexes.build': Handler<'indexes.build'>;
  'indexes.status': Handler<'indexes.status'>;
  'indexes.statusAll': Handler<'indexes.statusAll'>;
  'indexes.declared': Handler<'indexes.declared'>;
} {
  return {
    'indexes.build': async ({ params }) => {
      const declared = declaredOrNotFound(params.collectionName);
      return storeCall(() => service.indexes().start(declared));
    },
    'indexes.status': async ({ params }) => {
      const declared = declaredOrNotFound(params.collectionName);
      return storeCall(() => service.indexes().status(declared));
    },
    'indexes.statusAll': async () => {
      const builds = service.indexes();
      const results = await storeCall(() => Promise.all(declaredCollections.map((declared) => builds.status(declared))));
      return { results, total: results.length };
    },
    'indexes.declared': async ({ query }) => {
      let collections = declaredCollections;
      if (query.application) {
        const app = findDeclaringApplication(query.application);
        if (!app) {
          const names = declaringApplications.map((a) => a.name);
          throw new ConsoleError('not_found', `application "${query.application}" declares no indexes; applications that do: ${names.join(', ')}`, {
            applications: names,
          });
        }
        collections = app.collections;
      }
      const results = collections.map((c) => ({
        application: c.application,
        collection: c.collection,
        indexes: c.indexes.map(({ key, name, unique, partialFilterExpression, purpose }) => ({ key, name, unique, ...(partialFilterExpression ? { partialFilterExpression } : {}), purpose })),
      }));
      return { results, total: results.length };
    },
  };
}
