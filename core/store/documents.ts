// How the service's own documents (workflows, transformations, other imported parts)
// are kept in a collection, whole and as they were. They carry keys the embedded
// store cannot hold: a leading `$` (JSON Schema's `$schema`, `$id`)
// or a `.`. They are stored escaped with the full-width dollar sign and full stop
// (MongoDB's own advice for such keys) and read back as they were.
import type { Collection, Doc } from './port';
import { isDuplicateKey } from './errors';

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

// Most keys need no change: they are returned as they are, without building a new string.
const escapeKey = (key: string) => (key[0] === '$' || key.includes('.') ? key.replace(/^\$/, ESC_DOLLAR).replaceAll('.', ESC_DOT) : key);
const unescapeKey = (key: string) =>
  key[0] === ESC_DOLLAR || key.includes(ESC_DOT) ? (key[0] === ESC_DOLLAR ? '$' + key.slice(1) : key).replaceAll(ESC_DOT, '.') : key;

/** A document's own fields renamed (and every nested key): a record stays a record. */
function mapDocKeys(doc: Readonly<Record<string, unknown>>, rename: (key: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(doc)) out[rename(key)] = mapKeys(item, rename);
  return out;
}

/** Keys the embedded store cannot hold escaped (`$x` → `＄x`, `a.b` → `a．b`), at any depth. */
export const escapeKeys = (doc: Readonly<Record<string, unknown>>) => mapDocKeys(doc, escapeKey);
/** The document as it was before `escapeKeys`. */
export const unescapeKeys = (doc: Readonly<Record<string, unknown>>) => mapDocKeys(doc, unescapeKey);

/** Replaces the fields of a stored document by `doc`'s, its `_id` kept: fields `doc` no longer has are removed. */
export async function replaceFields(collection: Collection, existing: Doc, doc: Doc): Promise<void> {
  const gone = Object.keys(existing).filter((key) => key !== '_id' && !(key in doc));
  await collection.updateOne({ _id: existing._id }, { $set: doc, ...(gone.length ? { $unset: Object.fromEntries(gone.map((key) => [key, '' as const])) } : {}) });
}

/**
 * Inserts `doc`, whose `name` no other document of the collection may have: `taken` is thrown when one
 * has it, found first or refused by a unique index on name when another caller took it meanwhile.
 */
export async function insertNamed(collection: Collection, doc: Doc & { name: string }, taken: () => Error): Promise<string> {
  if (await collection.findOne({ name: doc.name })) throw taken();
  try {
    return await collection.insertOne(doc);
  } catch (error) {
    if (isDuplicateKey(error)) throw taken();
    throw error;
  }
}

/** Throws `taken` when `name` is a new name for `existing` that another document of the collection has. */
export async function refuseTakenName(collection: Collection, existing: Doc, name: string, taken: () => Error): Promise<void> {
  if (name !== existing.name && (await collection.findOne({ name }))) throw taken();
}
