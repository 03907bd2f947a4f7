// Store operations per second, on each adapter: insertOne, the claim
// (findOneAndUpdate on the task queue's filter and sort, from 1 and from 8 callers),
// updateOne by _id, and claim+complete pairs (a claim, then the fenced write of its end). This is the ceiling the engine's task throughput is compared to.
// Adapters: the embedded store; the MongoDB adapter on the jongodb test server; and on
// MONGODB_URL when it is set. Each claim sorts the queued documents, so figures depend
// on the queue length: `ops` is both the number of operations and the queue's start length.
// BENCH_STORE_OPS (1000) and BENCH_STORE_JONGODB_OPS (200) set them.
// Run alone: node --import tsx bench/store.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { openMongoStore } from '../core/store/mongodb/store';
import type { Store } from '../core/store/port';
import { startJongodb, jongodbBinary } from '../test/store/jongodb';
import { describeMachine } from './machine';

const OPS = Number(process.env.BENCH_STORE_OPS ?? 1000);
// The jongodb test server slows down as a collection grows (each operation scans it):
// fewer operations there, and its figures say nothing about a real MongoDB's.
const JONGODB_OPS = Number(process.env.BENCH_STORE_JONGODB_OPS ?? 200);
const CONCURRENT_CLAIMERS = 8;

export interface StoreBenchRow {
  store: string;
  ops: number;
  'insert ops/s': number;
  'claim ops/s (1 caller)': number;
  [key: `claim ops/s (${number} callers)`]: number;
  'updateOne ops/s': number;
  'claim+complete pairs/s': number;
}

async function timed(ops: number, work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return Math.round(ops / ((performance.now() - started) / 1000));
}

async function measure(label: string, store: Store, OPS: number): Promise<StoreBenchRow> {
  const suffix = `${process.pid}_${Date.now()}`;
  const tasks = store.collection(`bench_tasks_${suffix}`);
  await tasks.createIndex({ key: { status: 1, queuedAt: 1 }, name: 'status_1_queuedAt_1' });
  const now = Date.now();
  const task = (i: number) => ({ jobId: `job-${i % 50}`, taskId: `t${i}`, app: 'WorkFlowEngine', status: 'queued', queuedAt: i, runAfter: now, attempt: 0, incoming: { i } });

  const ids: string[] = [];
  const insert = await timed(OPS, async () => {
    for (let i = 0; i < OPS; i++) ids.push(await tasks.insertOne(task(i)));
  });
  const claimOne = (workerId: string) =>
    tasks.findOneAndUpdate(
      { status: 'queued', runAfter: { $lte: Date.now() } },
      { $set: { status: 'running', workerId, leaseUntil: Date.now() + 30_000 }, $inc: { attempt: 1 } },
      { sort: { queuedAt: 1 } },
    );
  const claim = await timed(OPS, async () => {
    for (let i = 0; i < OPS; i++) if (!(await claimOne('w1'))) throw new Error(`${label}: the queue ran dry after ${i} claims`);
  });
  const update = await timed(OPS, async () => {
    for (let i = 0; i < OPS; i++) await tasks.updateOne({ _id: ids[i]! }, { $set: { status: 'complete', outgoing: { ok: true } } });
  });

  // The same queue again, drained by several callers at once.
  await tasks.updateMany({}, { $set: { status: 'queued' } });
  const parallel = await timed(OPS, async () => {
    await Promise.all(
      Array.from({ length: CONCURRENT_CLAIMERS }, async (_v, w) => {
        while (await claimOne(`w${w}`));
      }),
    );
  });
  // Claim, then write the end fenced by worker and attempt, as the queue does for each task.
  await tasks.updateMany({}, { $set: { status: 'queued' } });
  const pairs = await timed(OPS, async () => {
    for (let i = 0; i < OPS; i++) {
      const doc = await claimOne('w1');
      if (!doc) throw new Error(`${label}: the queue ran dry after ${i} claim+complete pairs`);
      await tasks.updateOne({ _id: doc._id, status: 'running', workerId: 'w1', attempt: doc.attempt }, { $set: { status: 'complete', outgoing: { ok: true } }, $unset: { leaseUntil: '' } });
    }
  });
  await tasks.deleteMany({});
  return {
    store: label,
    ops: OPS,
    'insert ops/s': insert,
    'claim ops/s (1 caller)': claim,
    [`claim ops/s (${CONCURRENT_CLAIMERS} callers)`]: parallel,
    'updateOne ops/s': update,
    'claim+complete pairs/s': pairs,
  };
}

export async function benchStore(): Promise<StoreBenchRow[]> {
  const rows: StoreBenchRow[] = [];

  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-store-'));
  const embedded = await openEmbeddedStore(path.join(dir, 'db'));
  try {
    rows.push(await measure('embedded (SQLite file)', embedded, OPS));
  } finally {
    await embedded.close();
    await rm(dir, { recursive: true, force: true });
  }

  const found = jongodbBinary();
  if ('unavailable' in found) {
    console.log(`store bench on jongodb skipped: ${found.unavailable}`);
  } else {
    const server = await startJongodb();
    const store = openMongoStore({ url: server.url, db: 'bench' });
    try {
      rows.push(await measure('MongoDB adapter on jongodb (test server)', store, JONGODB_OPS));
    } finally {
      await store.close();
      await server.stop();
    }
  }

  const real = process.env.MONGODB_URL;
  if (!real) {
    console.log('store bench on a real MongoDB skipped: set MONGODB_URL to include it');
  } else {
    const db = `bench_store_${process.pid}`;
    const store = openMongoStore({ url: real, db });
    try {
      rows.push(await measure('MongoDB (MONGODB_URL)', store, OPS));
    } finally {
      await store.close();
      const client = await MongoClient.connect(real);
      await client.db(db).dropDatabase().finally(() => client.close());
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`machine: ${describeMachine()}`);
  console.table(await benchStore());
}
