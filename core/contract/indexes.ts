// Operations of indexing: the indexes each application declares for its collections,
// their status on the active profile's store, and the build that creates them
// (POST /indexes/:collectionName replaced `npm run index` in 2022.1).
import { z } from 'zod';
import { CollectionName } from './ids';
import { defineOperations } from './operation';

const Direction = z.union([z.literal(1), z.literal(-1)]);

export const IndexDescription = z.object({
  key: z.record(z.string(), Direction),
  name: z.string(),
  unique: z.boolean(),
  /** MongoDB's partial index: only the documents matching this filter are in it. */
  partialFilterExpression: z.record(z.string(), z.unknown()).optional(),
  /** On a misnamed entry: the index found with the same key (its name, its unique flag or its partial filter differs). */
  found: z.object({ name: z.string(), unique: z.boolean(), partialFilterExpression: z.record(z.string(), z.unknown()).optional() }).optional(),
  /** On an external entry (the site's own index, never dropped): the declared index whose key it has, whose queries it serves. */
  serves: z.string().optional(),
});
export type IndexDescription = z.infer<typeof IndexDescription>;

export const BuildFailure = z.object({
  /** The index whose creation (or drop, for a misnamed one) failed. */
  index: z.string(),
  message: z.string(),
  at: z.string(),
});

export const CollectionIndexStatus = z.object({
  collection: z.string(),
  application: z.string(),
  indexed: z.boolean(),
  running: z.boolean(),
  /** Declared indexes. */
  total: z.number(),
  /** Declared indexes present as declared. */
  current: z.number(),
  missing: z.array(IndexDescription),
  misnamed: z.array(IndexDescription),
  external: z.array(IndexDescription),
  /** While a build runs: how far it got. */
  progress: z.object({ done: z.number(), total: z.number(), index: z.string() }).optional(),
  /** When the last build failed: which index and why. Cleared by the next build. */
  failure: BuildFailure.optional(),
});
export type CollectionIndexStatus = z.infer<typeof CollectionIndexStatus>;

export const BuildStart = z.object({
  unchanged: z.number(),
  changed: z.number(),
  total: z.number(),
  running: z.boolean(),
});

export const DeclaredIndexDescription = IndexDescription.extend({ purpose: z.string() });

export const DeclaredCollectionIndexes = z.object({
  application: z.string(),
  collection: z.string(),
  indexes: z.array(DeclaredIndexDescription),
});

const CollectionParams = z.object({ collectionName: CollectionName });

export const indexesOperations = defineOperations({
  'indexes.build': {
    method: 'POST',
    path: '/indexes/:collectionName',
    summary: 'Start building the declared indexes of a collection (no body); answers at once',
    params: CollectionParams,
    output: BuildStart,
  },
  'indexes.status': {
    method: 'GET',
    path: '/indexes/:collectionName/status',
    summary: 'Whether a collection has the indexes its application declares',
    params: CollectionParams,
    output: CollectionIndexStatus,
  },
  'indexes.statusAll': {
    method: 'GET',
    path: '/indexes/status',
    summary: 'Index status of every collection with declared indexes',
    output: z.object({ results: z.array(CollectionIndexStatus), total: z.number() }),
  },
  'indexes.declared': {
    method: 'GET',
    path: '/indexes',
    summary: 'The indexes each application declares, optionally for one application',
    query: z.object({ application: z.string().optional() }),
    output: z.object({ results: z.array(DeclaredCollectionIndexes), total: z.number() }),
  },
});
