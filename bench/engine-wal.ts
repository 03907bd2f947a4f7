// What a commit writes (`npm run bench -- wal`): the WAL frames of one-task job starts (no worker
// running) and of the steady stream (start and run), read from the WAL file and named by the table
// or index each page belongs to (SQLite's dbstat), per commit; and what a commit costs per page it
// writes, on raw node:sqlite (a transaction inserting one row into each of k tables, k = 1 to 16).
// A commit writes every page its transaction changed, one WAL frame each (two writes to the file).
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { requestCheckpoint } from '../core/store/embedded/checkpoint';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { openBenchEngine, round } from './engine-support';
import { tempDir } from './queues-peers';

const STARTS = 3_000;
/** The last commits counted: the WAL starts over after a checkpoint, so only its last stretch is read. */
const COUNTED = 300;

/** The frames of each commit in the WAL's current stretch (the frames with its header's salt), by page number. */
export function commitsOf(wal: Buffer): number[][] {
  const pageSize = wal.readUInt32BE(8);
  const [salt1, salt2] = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  const commits: number[][] = [];
  let frames: number[] = [];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    frames.push(wal.readUInt32BE(at));
    // A commit's last frame holds the database's size in pages.
    if (wal.readUInt32BE(at + 4)) {
      commits.push(frames);
      frames = [];
    }
  }
  return commits;
}

async function framesOf(steady: boolean) {
  const { dir, store, engine } = await openBenchEngine({ steps: 1, processTasksOnStart: steady });
  try {
    for (let i = 0; i < STARTS; i++) await engine.runner.start('bench', { variables: { text: `job ${i}` } });
    const file = path.join(dir, 'engine.sqlite');
    // A copy of the WAL as the last commits left it (closing the store checkpoints it away).
    copyFileSync(`${file}-wal`, path.join(dir, 'copy.wal'));
    await engine.close();
    await store.close();
    const db = new DatabaseSync(file, { readOnly: true });
    const names = new Map<number, string>();
    try {
      for (const row of db.prepare('SELECT name, pageno, pagetype FROM dbstat').all()) {
        // Page 1 holds the file's header (its size in pages, written when the file grows) before sqlite_schema's root.
        if (Number(row.pageno) === 1) names.set(1, 'page 1 (the file header, with its size in pages)');
        else names.set(Number(row.pageno), `${String(row.name)}${row.pagetype === 'internal' ? ' (interior page)' : row.pagetype === 'overflow' ? ' (overflow page)' : ''}`);
      }
    } finally {
      db.close();
    }
    const commits = commitsOf(readFileSync(path.join(dir, 'copy.wal'))).slice(-COUNTED);
    const byTree = new Map<string, number>();
    for (const commit of commits) {
      for (const page of commit) {
        const tree = names.get(page) ?? `page ${page}`;
        byTree.set(tree, (byTree.get(tree) ?? 0) + 1);
      }
    }
    return {
      workload: steady ? 'one-task jobs, steady stream (a start and a run per commit)' : 'one-task job starts, no worker running (a start per commit)',
      commits: commits.length,
      framesPerCommit: round(commits.reduce((sum, c) => sum + c.length, 0) / (commits.length || 1), 2),
      byTree: [...byTree].sort((a, b) => b[1] - a[1]).map(([tree, frames]) => ({ tree, framesPerCommit: round(frames / (commits.length || 1), 2) })),
    };
  } finally {
    await store.close().catch((error: unknown) => console.error(`bench: closing the wal bench's store: ${String(error)}`));
    await rm(dir, { recursive: true, force: true });
  }
}

/** Raw node:sqlite, the store's file settings: a commit's time by the pages it writes (one row inserted into each of k tables). */
function commitCost() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-commit-'));
  const db = new DatabaseSync(path.join(dir, 'raw.sqlite'));
  try {
    db.exec('PRAGMA page_size = 2048; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0');
    for (let t = 0; t < 16; t++) db.exec(`CREATE TABLE t${t} (id INTEGER PRIMARY KEY, v TEXT)`);
    const inserts = Array.from({ length: 16 }, (_v, t) => db.prepare(`INSERT INTO t${t} (v) VALUES (?)`));
    const [begin, commit] = [db.prepare('BEGIN IMMEDIATE'), db.prepare('COMMIT')];
    const rows = [];
    for (const pages of [1, 2, 4, 8, 12, 16]) {
      const n = 4_000;
      let commitNs = 0n;
      const cpu = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        begin.run();
        for (let t = 0; t < pages; t++) inserts[t]!.run('x'.repeat(40));
        const at = process.hrtime.bigint();
        commit.run();
        commitNs += process.hrtime.bigint() - at;
        if (i % 1_000 === 999) db.exec('PRAGMA wal_checkpoint(PASSIVE)');
      }
      const used = process.cpuUsage(cpu);
      rows.push({ pages, commitUs: round(Number(commitNs) / n / 1000, 1), cpuUsPerTransaction: round((used.user + used.system) / n, 1), systemUsPerTransaction: round(used.system / n, 1) });
    }
    return rows;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What asking the checkpoint thread costs the committing thread (a message waking it), a request every 20 ms as under writes. */
async function checkpointAsk() {
  const dir = await tempDir();
  const store = await openEmbeddedStore(dir, { file: 'asked.sqlite' });
  try {
    await store.collection('x').insertOne({ _id: 'a' });
    const spent: number[] = [];
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const at = process.hrtime.bigint();
      requestCheckpoint(store.file);
      spent.push(Number(process.hrtime.bigint() - at) / 1000);
    }
    spent.sort((a, b) => a - b);
    return { medianUs: round(spent[50]!, 1), p90Us: round(spent[90]!, 1) };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchWal(): Promise<object> {
  const workloads = [await framesOf(false), await framesOf(true)];
  for (const w of workloads) {
    console.log(`${w.workload}: ${w.framesPerCommit} WAL frames per commit (the last ${w.commits} commits)`);
    for (const t of w.byTree) console.log(`  ${t.framesPerCommit} ${t.tree}`);
  }
  const commits = commitCost();
  for (const c of commits) console.log(`raw commit of ${c.pages} page(s): ${c.commitUs} µs (a transaction ${c.cpuUsPerTransaction} µs CPU, ${c.systemUsPerTransaction} in the kernel)`);
  const ask = await checkpointAsk();
  console.log(`a checkpoint request: ${ask.medianUs} µs on the committing thread (90th percentile ${ask.p90Us})`);
  return {
    workloads,
    commitCost: commits,
    checkpointRequest: ask,
    method: `${STARTS} one-task job starts by the engine on a fresh file (the console's indexes), the WAL's last ${COUNTED} commits read frame by frame and each page named by dbstat; then raw node:sqlite (2 KiB pages, WAL, synchronous NORMAL) committing 4,000 transactions of one row in each of k tables; then 100 checkpoint requests, one every 20 ms, timed on the asking thread`,
  };
}
