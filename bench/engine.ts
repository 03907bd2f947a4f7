// The engine's task throughput: completed tasks per second and claim-to-done
// latency (median, p99) for jobs of a linear workflow of 10 string tasks (the real
// built-in library), with 1 and 2 workers, on the embedded store and over the wire
// on the jongodb test server; printed beside the store's claim ceiling (bench/store)
// measured in the same run. The engine's declared indexes are created first, as on
// an indexed deployment. BENCH_ENGINE_JOBS (30) jobs of 10 tasks each. Then the
// Jobs page's request (a page and the total) with BENCH_JOBS_LIST (100,000) jobs
// stored (BENCH_JOBS_LIST_WIRE, 10,000, on jongodb).
// Run alone: node --import tsx bench/engine.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine/index';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { openMongoStore } from '../core/store/mongodb/store';
import type { Store } from '../core/store/port';
import { jongodbBinary, startJongodb } from '../test/store/jongodb';
import { linearStrings } from '../test/engine/queue/support';
import { benchStore, type StoreBenchRow } from './store';
import { listJobs } from '../core/engine/jobs/list';
import { describeMachine } from './machine';
import { declaredCollections } from '../core/indexes/declared';

/** The indexes the workflow engine declares for its collections, as an indexed deployment has them. */
async function createEngineIndexes(store: Store) {
  for (const declared of declaredCollections.filter((c) => ['jobs', 'tasks', 'workflows'].includes(c.collection))) {
    const collection = store.collection(declared.collection);
    for (const index of declared.indexes) await collection.createIndex({ key: index.key, name: index.name, unique: index.unique });
  }
}

const JOBS = Number(process.env.BENCH_ENGINE_JOBS ?? 30);
const TASKS = 10;

export interface EngineBenchRow {
  store: string;
  workers: number;
  tasks: number;
  'tasks/s': number;
  'claim→done median ms': number;
  'claim→done p99 ms': number;
  'tasks run twice': number;
  'store claim ceiling ops/s (1 caller)': number | string;
  'store claim ceiling ops/s (8 callers)': number | string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function run(label: string, stores: Store[], workers: number, ceiling: StoreBenchRow | undefined): Promise<EngineBenchRow> {
  const main = stores[0]!;
  await createEngineIndexes(main);
  const name = `bench-linear-${workers}-${Date.now()}`;
  await main.collection('workflows').insertOne({ ...linearStrings(name, TASKS), name });
  const engines = Array.from(
    { length: workers },
    (_v, i) => new Engine({ store: stores[i % stores.length]!, serverId: `bench-${i}`, serverName: `bench ${i}`, processTasksOnStart: false, worker: { idleMs: 5 } }),
  );
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) ids.push((await engines[0]!.runner.start(name, { variables: { text: `Job ${i}` } }))._id);
  const jobs = main.collection('jobs');
  const started = performance.now();
  for (const engine of engines) await (await engine.open()).startWorker();
  for (;;) {
    const open = await jobs.count({ name, status: 'running' });
    if (open === 0) break;
    if (performance.now() - started > 600_000) throw new Error(`${label}: ${open} jobs still running after 10 min`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const elapsed = (performance.now() - started) / 1000;
  for (const engine of engines) await engine.close();

  const failed = await jobs.count({ name, status: { $ne: 'complete' } });
  if (failed) throw new Error(`${label}: ${failed} jobs did not complete`);
  const records = await main.collection('tasks').find({ jobId: { $in: ids }, taskId: { $nin: ['workflow_start', 'workflow_end'] } });
  const latencies = records
    .map((r) => {
      const m = r.metrics as { claimed_at?: number; end_time?: number };
      return (m.end_time ?? 0) - (m.claimed_at ?? 0);
    })
    .sort((a, b) => a - b);
  const key = `claim ops/s (8 callers)` as const;
  return {
    store: label,
    workers,
    tasks: records.length,
    'tasks/s': Math.round(records.length / elapsed),
    'claim→done median ms': percentile(latencies, 50),
    'claim→done p99 ms': percentile(latencies, 99),
    'tasks run twice': records.filter((r) => Number(r.attempt) > 1).length,
    'store claim ceiling ops/s (1 caller)': ceiling?.['claim ops/s (1 caller)'] ?? 'n/a',
    'store claim ceiling ops/s (8 callers)': ceiling?.[key] ?? 'n/a',
  };
}

const LIST_JOBS = Number(process.env.BENCH_JOBS_LIST ?? 100_000);
// The jongodb test server scans without indexes and slows down past some thousands of documents.
const LIST_JOBS_WIRE = Number(process.env.BENCH_JOBS_LIST_WIRE ?? 10_000);

export interface JobsListBenchRow {
  store: string;
  jobs: number;
  'first page ms': number;
  'page at skip 50% ms': number;
  'status=error page ms': number;
}

/** The Jobs page's request (a page of 100 and the total) with `count` jobs stored. */
async function benchJobsList(label: string, store: Store, count: number): Promise<JobsListBenchRow> {
  await createEngineIndexes(store);
  const jobs = store.collection('jobs');
  const statuses = ['complete', 'complete', 'complete', 'error', 'canceled'];
  const base = Date.now() - count * 1000;
  for (let i = 0; i < count; i += 1000) {
    await jobs.insertMany(
      Array.from({ length: Math.min(1000, count - i) }, (_v, k) => {
        const n = i + k;
        return { _id: `bench-${n}`, name: `workflow-${n % 20}`, description: `job ${n}`, status: statuses[n % statuses.length], variables: { n }, metrics: { start_time: base + n * 1000, end_time: base + n * 1000 + 500, user: 'bench' }, children: [], tasks: {}, transitions: {} };
      }),
    );
  }
  const time = async (query: Parameters<typeof listJobs>[1]) => {
    const started = performance.now();
    const page = await listJobs({ jobs, tasks: store.collection('tasks'), workflowNames: async () => [] }, query);
    if (page.results.length === 0) throw new Error(`${label}: an empty page`);
    return Math.round(performance.now() - started);
  };
  return {
    store: label,
    jobs: count,
    'first page ms': await time({ skip: 0, limit: 100 }),
    'page at skip 50% ms': await time({ skip: Math.floor(count / 2), limit: 100 }),
    'status=error page ms': await time({ status: 'error', skip: 0, limit: 100 }),
  };
}

export async function benchEngine(): Promise<EngineBenchRow[]> {
  const ceilings = await benchStore();
  const ceiling = (prefix: string) => ceilings.find((row) => row.store.startsWith(prefix));
  const rows: EngineBenchRow[] = [];

  for (const workers of [1, 2]) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-engine-'));
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    try {
      // Two workers on the embedded store share its one process, as two workers of one server would.
      rows.push(await run('embedded (nedb file)', [store], workers, ceiling('embedded')));
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  const listRows: JobsListBenchRow[] = [];
  {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-jobs-list-'));
    const store = await openEmbeddedStore(path.join(dir, 'db'));
    try {
      listRows.push(await benchJobsList('embedded (nedb file)', store, LIST_JOBS));
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  const found = jongodbBinary();
  if ('unavailable' in found) {
    console.log(`engine bench on jongodb skipped: ${found.unavailable}`);
  } else {
    const server = await startJongodb();
    try {
      const store = openMongoStore({ url: server.url, db: 'bench_jobs_list' });
      try {
        listRows.push(await benchJobsList('MongoDB adapter on jongodb', store, LIST_JOBS_WIRE));
      } finally {
        await store.close();
      }
      for (const workers of [1, 2]) {
        // One connection per worker: two workers are two servers on one database.
        const stores = Array.from({ length: workers }, () => openMongoStore({ url: server.url, db: `bench_engine_${workers}` }));
        try {
          rows.push(await run('MongoDB adapter on jongodb', stores, workers, ceiling('MongoDB adapter on jongodb')));
        } finally {
          for (const store of stores) await store.close();
        }
      }
    } finally {
      await server.stop();
    }
  }
  console.log('Jobs page request (a page of 100 and the total):');
  console.table(listRows);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`machine: ${describeMachine()}`);
  console.table(await benchEngine());
}
