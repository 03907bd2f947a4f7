// The queues a user would pick instead of this engine, and raw SQLite, each doing the same
// one-task work (upper-case a job's text) on a fresh file in the same temporary folder with
// the same settings (WAL, synchronous=NORMAL): plainjob (better-sqlite3, one job at a time,
// its design), liteque (better-sqlite3 through drizzle, 8 at once), and node:sqlite with one
// table: insert, claim (an UPDATE … RETURNING of the oldest queued row) and complete, each
// statement its own transaction, as a queue commits them. Used by queues.ts. plainjob, liteque
// and better-sqlite3 are not in the project's install: peers.ts installs them on first use.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { benchPeers, type Peers } from './peers';

/** What one system did in one round: items finished, the time from the first enqueue to the last finish, the file it left. */
export interface Work {
  items: number;
  elapsedMs: number;
  /** Bytes of the database file(s) per item, once closed. */
  bytesPerItem: number;
  /** Raw SQLite only: the time its claims and completes took, without the inserts. */
  claimCompleteMs?: number;
}

/** Enqueue batches of BATCH for at least `seconds`, at most one batch ahead of the worker running meanwhile, then wait for the last to finish. */
export const BATCH = 200;

export async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'bench-queues-'));
}

export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(path.join(dir, name))).size;
  return total;
}

/** The peers, or an error saying why they cannot run here (queues.ts skips their rounds then). */
async function peers(): Promise<Peers> {
  const found = await benchPeers();
  if ('unavailable' in found) throw new Error(found.unavailable);
  return found;
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };
export const yieldToWorkers = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits while `outstanding` jobs of the last batches are not finished yet: the enqueuer keeps at most one batch ahead of the worker. */
export async function backlogBelow(limit: number, outstanding: () => number | Promise<number>): Promise<void> {
  while ((await outstanding()) >= limit) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('bench: a queue did not finish its jobs within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export async function plainjobRound(seconds: number): Promise<Work> {
  const { plainjob, Database } = await peers();
  const { better, defineQueue, defineWorker } = plainjob;
  const dir = await tempDir();
  const connection = better(new Database(path.join(dir, 'plainjob.sqlite')));
  const queue = defineQueue({ connection, logger: silent });
  let finished = 0;
  const worker = defineWorker(
    'bench',
    (job) => {
      (JSON.parse(job.data) as { text: string }).text.toUpperCase();
    },
    { queue, logger: silent, pollIntervall: 5, onCompleted: () => void finished++ },
  );
  try {
    const running = worker.start();
    const started = performance.now();
    let added = 0;
    while (performance.now() - started < seconds * 1000) {
      await backlogBelow(BATCH, () => added - finished);
      for (let i = 0; i < BATCH; i++) queue.add('bench', { text: `job ${added++}` });
      await yieldToWorkers();
    }
    await waitFor(() => finished >= added);
    const elapsedMs = performance.now() - started;
    await worker.stop();
    await running;
    queue.close();
    return { items: finished, elapsedMs, bytesPerItem: (await folderBytes(dir)) / finished };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function litequeRound(seconds: number): Promise<Work> {
  const { Runner, SqliteQueue, buildDBClient } = (await peers()).liteque;
  const dir = await tempDir();
  const db = buildDBClient(path.join(dir, 'liteque.sqlite'), { walEnabled: true, runMigrations: true });
  oldStyleTransactions(Reflect.get(Reflect.get(db, 'session') ?? {}, 'client'));
  const queue = new SqliteQueue<{ text: string }>('bench', db, { defaultJobArgs: { numRetries: 0 }, keepFailedJobs: false });
  let finished = 0;
  const runner = new Runner<{ text: string }, string>(
    queue,
    {
      run: async (job) => job.data.text.toUpperCase(),
      onComplete: async () => void finished++,
    },
    { pollIntervalMs: 5, timeoutSecs: 30, concurrency: 8 },
  );
  try {
    const running = runner.run();
    const started = performance.now();
    let added = 0;
    while (performance.now() - started < seconds * 1000) {
      await backlogBelow(BATCH, () => added - finished);
      for (let i = 0; i < BATCH; i++) await queue.enqueue({ text: `job ${added++}` });
      await yieldToWorkers();
    }
    await waitFor(() => finished >= added);
    const elapsedMs = performance.now() - started;
    runner.stop();
    await running;
    // drizzle 0.33 keeps the better-sqlite3 connection as its session's client.
    const client: unknown = Reflect.get(Reflect.get(db, 'session') ?? {}, 'client');
    if (client !== null && typeof client === 'object' && 'close' in client && typeof client.close === 'function') client.close();
    // liteque deletes a job once it completes: its file says nothing per job.
    return { items: finished, elapsedMs, bytesPerItem: Number.NaN };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * liteque 0.8 dequeues in a transaction whose function is async; better-sqlite3 13 (the one npm
 * installs for it) refuses that ("Transaction function cannot return a promise"). Its earlier
 * versions ran such a function's synchronous part between BEGIN and COMMIT and handed the
 * promise back: that is given back to liteque here (its claim stays guarded by its
 * allocationId update), so it runs as it did for its users.
 */
function oldStyleTransactions(client: unknown): void {
  if (client === null || typeof client !== 'object' || !('exec' in client) || typeof client.exec !== 'function') throw new Error('bench: liteque\'s better-sqlite3 connection was not found');
  const exec = client.exec.bind(client) as (sql: string) => void;
  const transaction = (fn: (...args: unknown[]) => unknown) => {
    const run = (...args: unknown[]) => {
      exec('BEGIN');
      try {
        const result = fn(...args);
        exec('COMMIT');
        return result;
      } catch (error) {
        exec('ROLLBACK');
        throw error;
      }
    };
    return Object.assign(run, { deferred: run, immediate: run, exclusive: run });
  };
  Reflect.set(client, 'transaction', transaction);
}

/** Raw node:sqlite: insert, claim and complete, each statement committed on its own. */
export async function rawSqliteRound(seconds: number): Promise<Work> {
  const dir = await tempDir();
  const db = new DatabaseSync(path.join(dir, 'raw.sqlite'));
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('CREATE TABLE jobs (id INTEGER PRIMARY KEY, data TEXT NOT NULL, status INTEGER NOT NULL DEFAULT 0, worker TEXT, result TEXT)');
    db.exec('CREATE INDEX jobs_status ON jobs (status, id)');
    const insert = db.prepare('INSERT INTO jobs (data) VALUES (?)');
    const claim = db.prepare('UPDATE jobs SET status = 1, worker = ? WHERE id = (SELECT id FROM jobs WHERE status = 0 ORDER BY id LIMIT 1) RETURNING id, data');
    const complete = db.prepare('UPDATE jobs SET status = 2, result = ? WHERE id = ? AND worker = ?');
    const started = performance.now();
    let items = 0;
    let claimCompleteMs = 0;
    while (performance.now() - started < seconds * 1000) {
      for (let i = 0; i < BATCH; i++) insert.run(JSON.stringify({ text: `job ${items + i}` }));
      const claiming = performance.now();
      for (let row = claim.get('w1'); row; row = claim.get('w1')) {
        const text = (JSON.parse(String(row.data)) as { text: string }).text.toUpperCase();
        complete.run(JSON.stringify({ text }), Number(row.id), 'w1');
        items++;
      }
      claimCompleteMs += performance.now() - claiming;
      await yieldToWorkers();
    }
    const elapsedMs = performance.now() - started;
    db.close();
    return { items, elapsedMs, bytesPerItem: (await folderBytes(dir)) / items, claimCompleteMs };
  } finally {
    if (db.isOpen) db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
