// Transformations in the `transformations` collection of the active profile's
// store, one document each in the service's shape with its `_id` kept. Keys the
// embedded store cannot hold (a leading `$`, as in each schema's `$id`, or a `.`)
// are stored escaped and read back as they were.
import type { StoredTransformation } from '../contract/transformations';
import { escapeKeys, unescapeKeys } from '../store/documents';
import type { Doc, Store } from '../store/port';

export const TRANSFORMATIONS_COLLECTION = 'transformations';

export type TransformationDoc = StoredTransformation;

export function toStored(doc: TransformationDoc): Doc {
  const { _id, ...body } = doc;
  return { _id, ...escapeKeys(body) };
}

export function fromStored(doc: Doc): TransformationDoc {
  const { _id, ...body } = doc;
  return { _id: String(_id), ...unescapeKeys(body) } as TransformationDoc;
}

export function collection(store: Store) {
  return store.collection(TRANSFORMATIONS_COLLECTION);
}
