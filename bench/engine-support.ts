// What the engine benches share: a fresh embedded store with the engine's indexes, a
// wait for a condition, and rounding.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { declaredCollections, indexesBuiltOn } from '../core/indexes/declared';
import { openEmbeddedStore } from '../core/store/embedded/store';
import type { Store } from '../core/store/port';

/** The indexes the console builds on this kind of store (as core/indexes/builds.ts does: those for the service's tools on MongoDB only are not built on the embedded store). */
export async function createEngineIndexes(store: Store) {
  for (const declared of declaredCollections.filter((c) => ['jobs', 'tasks', 'workflows'].includes(c.collection))) {
    const collection = store.collection(declared.collection);
    for (const index of indexesBuiltOn(declared, store.kind)) await collection.createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
export const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function tempStore(file?: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-engine-'));
  const store = await openEmbeddedStore(dir, { file });
  await createEngineIndexes(store);
  return { dir, store, dispose: async () => (await store.close(), await rm(dir, { recursive: true, force: true })) };
}

export async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 600_000, everyMs = 10) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

