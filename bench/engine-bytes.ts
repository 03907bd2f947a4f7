// Where the bytes of one-task jobs go on the embedded store (issue 45): the engine runs 5,000 one-task
// jobs on a fresh file (as engine-round.ts: the console's indexes, the store wrapped by withLargeData),
// the file is closed, and SQLite's dbstat says, per table and index, its size, payload and unused bytes
// per job. Run twice: with the bench's 5-character server id, and with a UUID, as the console's data
// folder gives one (core/host/data-dir.ts): the task record holds it twice (metrics.server_id, workerId),
// and a record's size decides how many fit a 2 KiB page.
import { randomUUID } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openBenchEngine, round } from './engine-support';
import { backlogBelow, BATCH } from './queues-peers';

const JOBS = 5_000;

interface Part {
  name: string;
  pages: number;
  bytesPerJob: number;
  payloadPerJob: number;
  unusedPerJob: number;
}

async function bytesOf(serverId: string): Promise<{ serverId: string; fileBytesPerJob: number; parts: Part[] }> {
  const { dir, store, engine } = await openBenchEngine({ steps: 1, processTasksOnStart: true, serverId });
  try {
    const jobs = store.collection('jobs');
    const running = () => jobs.count({ status: 'running' });
    for (let added = 0; added < JOBS; ) {
      await backlogBelow(BATCH, running);
      for (let i = 0; i < BATCH && added < JOBS; i++) await engine.runner.start('bench', { variables: { text: `job ${added++}` } });
    }
    const deadline = Date.now() + 600_000;
    while ((await running()) > 0) {
      if (Date.now() > deadline) throw new Error('bench: the engine did not finish its jobs within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await engine.close();
    await store.close();
    const file = path.join(dir, 'engine.sqlite');
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const rows = db.prepare(`SELECT name, count(*) AS pages, sum(pgsize) AS size, sum(payload) AS payload, sum(unused) AS unused FROM dbstat GROUP BY name ORDER BY size DESC`).all();
      const parts = rows
        .filter((r) => Number(r.pages) > 1)
        .map((r) => ({ name: String(r.name), pages: Number(r.pages), bytesPerJob: round(Number(r.size) / JOBS), payloadPerJob: round(Number(r.payload) / JOBS), unusedPerJob: round(Number(r.unused) / JOBS) }));
      return { serverId, fileBytesPerJob: round((await stat(file)).size / JOBS), parts };
    } finally {
      db.close();
    }
  } finally {
    await store.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchBytes(): Promise<object> {
  const runs = [];
  for (const serverId of ['bench', randomUUID()]) {
    const run = await bytesOf(serverId);
    console.log(`server id ${serverId}: ${run.fileBytesPerJob} B per one-task job`);
    for (const p of run.parts) console.log(`  ${p.name}: ${p.bytesPerJob} B per job (payload ${p.payloadPerJob}, unused ${p.unusedPerJob}; ${p.pages} pages)`);
    runs.push(run);
  }
  return { jobs: JOBS, runs, method: `${JOBS} one-task jobs run by the engine on a fresh file (the console's indexes), the file closed, dbstat per table and index (those of more than one page)` };
}
