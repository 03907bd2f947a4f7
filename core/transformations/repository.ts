// Transformations in the `transformations` collection of the active profile's
// store, one document each in the service's shape with its `_id` kept. Keys the
// embedded store cannot hold (a leading `$`, as in each schema's `$id`, or a `.`)
// are stored escaped and read back as they were.
import type { StoredTransformation } from '../contract/transformations';
import type { Doc, Store } from '../store/port';

export const TRANSFORMATIONS_COLLECTION = 'transformations';

const ESC_DOLLAR = '\uFF04';
const ESC_DOT = '\uFF0E';

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, rename));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[rename(key)] = mapKeys(item, rename);
    return out;
  }
  return value;
}

const escapeKey = (key: string) => key.replace(/^\$/, ESC_DOLLAR).replaceAll('.', ESC_DOT);
const unescapeKey = (key: string) => key.replace(new RegExp(`^${ESC_DOLLAR}`), '$').replaceAll(ESC_DOT, '.');

export type TransformationDoc = StoredTransformation;

export function toStored(doc: TransformationDoc): Doc {
  const { _id, ...body } = doc;
  return { _id, ...(mapKeys(body, escapeKey) as Record<string, unknown>) };
}

export function fromStored(doc: Doc): TransformationDoc {
  const { _id, ...body } = doc;
  return { _id: String(_id), ...(mapKeys(body, unescapeKey) as Record<string, unknown>) } as TransformationDoc;
}

export function collection(store: Store) {
  return store.collection(TRANSFORMATIONS_COLLECTION);
}
