// Indexing speed on each store, through a real console host over HTTP:
// - the time to index the jobs collection holding 100,000 jobs (POST /indexes/jobs,
//   then polling the status until the build ends), and
// - the latency of GET /indexes/status (every declared collection).
// Stores: the embedded store, and the MongoDB adapter on MONGODB_URL when set,
// otherwise on the jongodb test server (with fewer jobs, see JONGODB_JOBS).
// Run: npm run bench -- indexes (BENCH_INDEX_JOBS changes the count).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHost, type Host } from '../core/host/host';
import { findDeclaredCollection } from '../core/indexes/declared';
import { indexesOperations } from '../core/contract/indexes';
import { startJongodb } from '../test/store/jongodb';

const JOBS = Number(process.env.BENCH_INDEX_JOBS ?? 100_000);
// The jongodb test server inserts and indexes in time quadratic in the collection's
// size (20,000 jobs: 74 s to insert, 42 s to index one key), so 100,000 would take
// most of an hour and say nothing about MongoDB. It gets 10,000; a real MongoDB
// (MONGODB_URL) gets the full count.
const JONGODB_JOBS = Math.min(JOBS, Number(process.env.BENCH_INDEX_JONGODB_JOBS ?? 10_000));
const STATUS_CALLS = 50;
const TOKEN = 'bench-token';

export interface IndexBenchResult {
  store: string;
  jobs: number;
  indexes: number;
  indexJobsMs: number;
  statusAllMedianMs: number;
  statusAllP95Ms: number;
}

async function api(host: Host, pathname: string, method = 'GET'): Promise<unknown> {
  const response = await fetch(host.url + pathname, { method, headers: { authorization: `Bearer ${TOKEN}` } });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** One collection's index status, read as the contract says. */
async function collectionStatus(host: Host, collection: string) {
  return indexesOperations['indexes.status'].output.parse(await api(host, `/indexes/${collection}/status`));
}

const STATUSES = ['running', 'paused', 'error', 'canceled', 'complete'];

async function fillJobs(host: Host, count: number) {
  const jobs = host.state.runtime.store.collection('jobs');
  // Start without the declared indexes, as a database indexed by nobody would be.
  for (const index of await jobs.listIndexes()) if (index.name !== '_id_') await jobs.dropIndex(index.name);
  const start = Date.UTC(2021, 0, 1);
  for (let offset = 0; offset < count; offset += 5000) {
    const batch = Array.from({ length: Math.min(5000, count - offset) }, (_v, k) => {
      const i = offset + k;
      return {
        name: `workflow-${i % 200}`,
        description: `job ${i}`,
        status: STATUSES[i % STATUSES.length],
        variables: { device: `dev-${i % 1000}` },
        metrics: { start_time: new Date(start + i * 1000).toISOString(), user: 'bench' },
        children: [],
      };
    });
    await jobs.insertMany(batch);
  }
}

async function benchHost(label: string, host: Host, count: number): Promise<IndexBenchResult> {
  await fillJobs(host, count);
  const before = await collectionStatus(host, 'jobs');
  if (before.missing.length !== findDeclaredCollection('jobs')!.indexes.length) throw new Error('jobs should start without its indexes');

  const started = performance.now();
  await api(host, '/indexes/jobs', 'POST');
  let status = await collectionStatus(host, 'jobs');
  while (status.running) {
    await new Promise((r) => setTimeout(r, 20));
    status = await collectionStatus(host, 'jobs');
  }
  const indexJobsMs = performance.now() - started;
  if (!status.indexed) throw new Error(`indexing jobs on ${label} failed: ${JSON.stringify(status.failure ?? status)}`);

  // Every other declared collection indexed too, so the status call reads them all.
  const all = indexesOperations['indexes.statusAll'].output.parse(await api(host, '/indexes/status'));
  for (const row of all.results) if (!row.indexed) await api(host, `/indexes/${row.collection}`, 'POST');

  const latencies: number[] = [];
  for (let i = 0; i < STATUS_CALLS; i++) {
    const t = performance.now();
    await api(host, '/indexes/status');
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  const result = {
    store: label,
    jobs: count,
    indexes: findDeclaredCollection('jobs')!.indexes.length,
    indexJobsMs: Math.round(indexJobsMs),
    statusAllMedianMs: Number(latencies[Math.floor(latencies.length / 2)]!.toFixed(2)),
    statusAllP95Ms: Number(latencies[Math.floor(latencies.length * 0.95)]!.toFixed(2)),
  };
  // Each store's figures as soon as they are known (the MongoDB run can be long).
  console.log(describe(result));
  return result;
}

function describe(r: IndexBenchResult) {
  return `indexes ${r.store}: index jobs (${r.jobs} jobs, ${r.indexes} indexes) ${r.indexJobsMs} ms; GET /indexes/status (9 collections) median ${r.statusAllMedianMs} ms, p95 ${r.statusAllP95Ms} ms`;
}

async function withHost<T>(profile: Record<string, unknown> | undefined, work: (host: Host) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-indexes-'));
  if (profile) {
    await mkdir(path.join(dataDir, 'profiles', String(profile.id)), { recursive: true });
    await writeFile(path.join(dataDir, 'profiles', String(profile.id), 'properties.json'), JSON.stringify(profile));
    await writeFile(path.join(dataDir, 'console.json'), JSON.stringify({ activeProfile: profile.id }));
  }
  const host = await startHost({ dataDir, port: 0, token: TOKEN });
  try {
    return await work(host);
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchIndexes(): Promise<IndexBenchResult[]> {
  const results: IndexBenchResult[] = [];
  results.push(await withHost(undefined, (host) => benchHost('embedded', host, JOBS)));

  const realUrl = process.env.MONGODB_URL;
  const server = realUrl ? undefined : await startJongodb();
  try {
    const url = realUrl ?? server!.url;
    const db = `bench_indexes_${process.pid}`;
    results.push(
      await withHost({ id: 'bench-mongo', mongoProps: { url, db } }, async (host) => {
        try {
          return await benchHost(realUrl ? 'MongoDB (MONGODB_URL)' : 'MongoDB adapter on jongodb', host, realUrl ? JOBS : JONGODB_JOBS);
        } finally {
          if (realUrl) {
            // Leave a real server as it was found.
            const { MongoClient } = await import('mongodb');
            const client = await MongoClient.connect(realUrl);
            await client.db(db).dropDatabase();
            await client.close();
          }
        }
      }),
    );
  } finally {
    await server?.stop();
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchIndexes();
