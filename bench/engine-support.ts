// What the engine benches share: a fresh embedded store with the engine's indexes, the engine on
// one as the console runs it, a wait for a condition, medians and rounding.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../core/engine/index';
import { declaredCollections, indexesBuiltOn } from '../core/indexes/declared';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { withLargeData } from '../core/store/large-data/large-data';
import type { Store } from '../core/store/port';
import { stepsWorkflow } from '../test/store/support/steps';
import { tempDir } from './queues-peers';

/** The indexes the console builds on this kind of store (as core/indexes/builds.ts does: those for the service's tools on MongoDB only are not built on the embedded store). */
export async function createEngineIndexes(store: Store) {
  for (const declared of declaredCollections.filter((c) => ['jobs', 'tasks', 'workflows'].includes(c.collection))) {
    const collection = store.collection(declared.collection);
    for (const index of indexesBuiltOn(declared, store.kind)) await collection.createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
  }
}

/**
 * The engine on a fresh embedded file (engine.sqlite in a new folder under the system's temp folder,
 * the console's indexes), the workflow `bench` of `steps` WorkFlowEngine tasks stored, opened (its
 * worker running when `processTasksOnStart`). The caller closes the store and removes `dir`.
 */
export async function openBenchEngine(options: { steps: number; processTasksOnStart: boolean; concurrency?: number; serverId?: string }) {
  const dir = await tempDir();
  const store = await openEmbeddedStore(dir, { file: 'engine.sqlite' });
  try {
    await createEngineIndexes(store);
    await store.collection('workflows').insertOne(stepsWorkflow('bench', options.steps));
    // The store as the console hands it to its engine (core/host/runtime.ts): large values kept in job_data.
    const engine = new Engine({
      store: withLargeData(store),
      serverId: options.serverId ?? 'bench',
      serverName: 'bench',
      processTasksOnStart: options.processTasksOnStart,
      worker: { idleMs: 5, concurrency: options.concurrency ?? 8 },
    });
    await engine.open();
    return { dir, store, engine };
  } catch (error) {
    await store.close();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The middle value (the upper one of an even count). */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

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

