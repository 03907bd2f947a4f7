// The embedded store keeps MongoDB index specifications (key order, direction,
// name, options) in `indexes.json` beside the collection files; the datastore
// itself only knows field sets. This maps one to the other.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type Datastore from '@seald-io/nedb';
import { writeJsonAtomic } from '../../files/atomic';
import type { IndexSpec } from '../port';
import { StoreError } from '../errors';

export const ID_INDEX: IndexSpec = { key: { _id: 1 }, name: '_id_' };

type IndexFile = { collections: Record<string, IndexSpec[]> };

export const indexFile = (dir: string) => path.join(dir, 'indexes.json');

export async function readIndexFile(dir: string): Promise<Record<string, IndexSpec[]>> {
  const file = indexFile(dir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as IndexFile;
    return parsed.collections ?? {};
  } catch (error) {
    throw new StoreError('damaged', `damaged index file ${file}: ${(error as Error).message}. Restore it from a backup or remove it (the indexes are then created again by indexing).`);
  }
}

export async function writeIndexFile(dir: string, collections: Record<string, IndexSpec[]>) {
  await writeJsonAtomic(indexFile(dir), { collections } satisfies IndexFile);
}

/** The spec as listed: only options that are set, like MongoDB's listIndexes. */
export function normalizeSpec(spec: IndexSpec): IndexSpec {
  const out: IndexSpec = { key: { ...spec.key }, name: spec.name };
  if (spec.unique) out.unique = true;
  if (spec.sparse) out.sparse = true;
  if (spec.expireAfterSeconds !== undefined) out.expireAfterSeconds = spec.expireAfterSeconds;
  return out;
}

const sameKey = (a: IndexSpec, b: IndexSpec) => JSON.stringify(Object.entries(a.key)) === JSON.stringify(Object.entries(b.key));
export const sameSpec = (a: IndexSpec, b: IndexSpec) =>
  JSON.stringify(normalizeSpec(a)) === JSON.stringify(normalizeSpec(b));

/** MongoDB's rules: a name is one definition, and one key has one name. */
export function checkNewSpec(collection: string, existing: IndexSpec[], spec: IndexSpec): 'exists' | 'new' {
  if (Object.keys(spec.key).length === 0) throw new StoreError('invalid', `index ${spec.name} on ${collection} has an empty key`);
  const byName = existing.find((s) => s.name === spec.name);
  if (byName) {
    if (sameSpec(byName, spec)) return 'exists';
    throw new StoreError('index-conflict', `index ${spec.name} on ${collection} already exists with another definition`);
  }
  const byKey = existing.find((s) => sameKey(s, spec));
  if (byKey) {
    throw new StoreError('index-conflict', `an index on ${collection} with the same key already exists with another name: ${byKey.name}`);
  }
  return 'new';
}

type NedbIndex = { fieldName: string[]; unique: boolean; sparse: boolean; expireAfterSeconds?: number };

/** The datastore indexes that serve these specs: one per field set. */
function nedbIndexes(specs: IndexSpec[]): Map<string, NedbIndex> {
  const groups = new Map<string, IndexSpec[]>();
  // The datastore uses a compound index only for equality on all its fields; MongoDB uses
  // its first field alone too (claims filter on `status`). A plain index on that first
  // field gives the datastore the same shortcut.
  const prefixes = specs
    .filter((spec) => Object.keys(spec.key).length > 1)
    .map((spec): IndexSpec => ({ key: { [Object.keys(spec.key)[0]!]: 1 }, name: '(prefix)' }));
  for (const spec of [...specs, ...prefixes]) {
    const fields = Object.keys(spec.key).sort();
    const id = fields.join(',');
    groups.set(id, [...(groups.get(id) ?? []), spec]);
  }
  const out = new Map<string, NedbIndex>();
  for (const [id, group] of groups) {
    const unique = group.filter((s) => s.unique);
    const ttl = group.find((s) => s.expireAfterSeconds !== undefined && Object.keys(s.key).length === 1);
    out.set(id, {
      fieldName: id.split(','),
      unique: unique.length > 0,
      sparse: unique.length > 0 ? unique.every((s) => s.sparse) : group.every((s) => s.sparse),
      ...(ttl ? { expireAfterSeconds: ttl.expireAfterSeconds } : {}),
    });
  }
  return out;
}

type NedbInternals = { indexes: Record<string, { unique: boolean; sparse: boolean }>; ttlIndexes: Record<string, number> };

/** Makes the datastore's indexes exactly those the specs need (throws on a unique violation). */
export async function applyIndexes(ds: Datastore, specs: IndexSpec[]) {
  const wanted = nedbIndexes(specs);
  const internals = ds as unknown as NedbInternals;
  for (const [id, current] of Object.entries(internals.indexes)) {
    if (id === '_id') continue;
    const want = wanted.get(id);
    const ttlNow = internals.ttlIndexes[id];
    if (!want || want.unique !== current.unique || want.sparse !== current.sparse || want.expireAfterSeconds !== ttlNow) {
      await ds.removeIndexAsync(id);
      delete internals.ttlIndexes[id];
    }
  }
  for (const [id, want] of wanted) {
    if (internals.indexes[id]) continue;
    await ds.ensureIndexAsync({
      fieldName: want.fieldName.length === 1 ? want.fieldName[0]! : want.fieldName,
      unique: want.unique,
      sparse: want.sparse,
      ...(want.expireAfterSeconds !== undefined ? { expireAfterSeconds: want.expireAfterSeconds } : {}),
    });
  }
}
