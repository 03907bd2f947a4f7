// The console with many jobs (BENCH_CONSOLE_JOBS, 100,000) in its embedded store:
// the Jobs list's request (a page of 50 and the total) first page and deep page, in
// this process on the store alone and over HTTP from a started console; the time from
// starting `serve` to its listening; and that console's resident memory once it has
// served the Jobs list. The jobs are run by the engine first, with their task records.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ensureActiveProfile } from '../core/profiles/directory';
import { openStore } from '../core/store/open';
import type { Store } from '../core/store/port';
import { declaredCollections } from '../core/indexes/declared';
import { listJobs } from '../core/engine/jobs/list';
import type { JobDoc } from '../core/engine/jobs/types';
import type { TaskRecord } from '../core/engine/queue/queue';
import { Engine } from '../core/engine/index';
import { backlogBelow } from './queues-peers';
import { stepsWorkflow } from '../test/store/support/steps';

const JOBS = Number(process.env.BENCH_CONSOLE_JOBS ?? 100_000);
const PAGE = 50;
const ROOT = path.resolve(import.meta.dirname, '..');
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * `count` jobs run by the engine as an operator's are (its job documents, workflow snapshots and
 * task records, as the console writes them): one-task jobs of 20 workflows, 200 at a time.
 */
async function fill(store: Store, count: number) {
  const names = Array.from({ length: 20 }, (_v, i) => `workflow-${i}`);
  for (const name of names) await store.collection('workflows').insertOne(stepsWorkflow(name, 1));
  const engine = await new Engine({ store, serverId: 'bench', serverName: 'bench', processTasksOnStart: true, worker: { idleMs: 5 } }).open();
  const jobs = store.collection('jobs');
  const started = performance.now();
  try {
    for (let n = 0; n < count; n++) {
      if (n % 200 === 0) await backlogBelow(200, () => jobs.count({ status: 'running' }));
      await engine.runner.start(names[n % names.length]!, { description: `job ${n}`, variables: { text: `job ${n}` } });
    }
    await backlogBelow(1, () => jobs.count({ status: 'running' }));
  } finally {
    await engine.close();
  }
  return round(count / ((performance.now() - started) / 1000), 0);
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const started = performance.now();
  await fn();
  return round(performance.now() - started);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024);
}

/** The console as `npm start` runs it without Electron: the bundle `npm run build` makes; else `npm run serve` (tsx). */
const SERVE_BUNDLE = path.join(ROOT, 'dist/serve/serve.cjs');
const consoleCommand = () =>
  existsSync(SERVE_BUNDLE)
    ? { args: [SERVE_BUNDLE], label: 'the bundled console (dist/serve/serve.cjs, as `npm start` runs it)' }
    : { args: ['--import', 'tsx', path.join(ROOT, 'core/cli/serve.ts')], label: '`npm run serve` through tsx (no dist/serve: run `npm run build` to measure the bundle)' };

/** The console on a data directory; resolves once it listens. */
async function startConsole(dataDir: string) {
  const spawned = performance.now();
  const child = spawn(process.execPath, [...consoleCommand().args, '--data-dir', dataDir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CONSOLE_TOKEN: 'bench-token' },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Console listening on (\S+)/.exec(output);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bench: the console exited (${code}) before listening: ${output}`)));
  });
  return { child, url, startToListeningMs: round(performance.now() - spawned, 0) };
}

export async function benchConsole(options: { json?: boolean } = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-console-'));
  try {
    const { profile, problem } = await ensureActiveProfile(dataDir);
    if (problem) throw problem;
    const store = await openStore(dataDir, profile);
    // Indexed as a new database is at the console's first start.
    for (const declared of declaredCollections) {
      for (const index of declared.indexes) await store.collection(declared.collection).createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
    }
    const jobsRunPerSecond = await fill(store, JOBS);
    const deps = { jobs: store.collection<JobDoc>('jobs'), tasks: store.collection<TaskRecord>('tasks'), workflowNames: async () => [] };
    const list = (skip: number) => listJobs(deps, { skip, limit: PAGE });
    const repeat = async (n: number, fn: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) times.push(await timed(fn));
      return median(times);
    };
    const inProcess = {
      firstPageMs: await repeat(5, () => list(0)),
      deepPageMs: await repeat(3, () => list(JOBS - PAGE)),
      errorPageMs: await repeat(3, () => listJobs(deps, { status: 'error', skip: 0, limit: PAGE })),
    };
    await store.close();

    // The same console on an empty data directory, for what the jobs add to its start and memory.
    const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'bench-console-empty-'));
    let empty: { startToListeningMs: number; rssMb: number };
    try {
      const e = await startConsole(emptyDir);
      try {
        empty = { startToListeningMs: e.startToListeningMs, rssMb: rssMb(e.child.pid!) };
      } finally {
        e.child.kill('SIGKILL');
      }
    } finally {
      await rm(emptyDir, { recursive: true, force: true });
    }

    // A console started on the data directory with the jobs, as an operator starts it.
    const { child, url, startToListeningMs } = await startConsole(dataDir);
    try {
      const get = async (query: string) => {
        const res = await fetch(`${url}/operations-manager/jobs?${query}`, { headers: { authorization: 'Bearer bench-token' } });
        if (res.status !== 200) throw new Error(`bench: GET /operations-manager/jobs?${query} answered ${res.status}`);
        const body = (await res.json()) as { data: unknown[]; metadata: { total: number } };
        if (body.metadata.total !== JOBS || body.data.length !== PAGE) throw new Error(`bench: unexpected page (${body.metadata.total} jobs, ${body.data.length} rows)`);
      };
      const firstPageColdMs = await timed(() => get(`skip=0&limit=${PAGE}`));
      const firstPage: number[] = [];
      for (let i = 0; i < 5; i++) firstPage.push(await timed(() => get(`skip=0&limit=${PAGE}`)));
      const deepPage: number[] = [];
      for (let i = 0; i < 3; i++) deepPage.push(await timed(() => get(`skip=${JOBS - PAGE}&limit=${PAGE}`)));
      const figures = {
        jobs: JOBS,
        jobsRunPerSecond,
        storeFirstPageMs: inProcess.firstPageMs,
        storeDeepPageMs: inProcess.deepPageMs,
        storeErrorPageMs: inProcess.errorPageMs,
        httpFirstPageColdMs: firstPageColdMs,
        httpFirstPageMs: median(firstPage),
        httpDeepPageMs: median(deepPage),
        startToListeningMs,
        rssMb: rssMb(child.pid!),
        emptyStartToListeningMs: empty.startToListeningMs,
        emptyRssMb: empty.rssMb,
      };
      if (options.json) return figures;
      return [
        `${JOBS} one-task jobs run by the engine at ${jobsRunPerSecond} jobs/s (their documents, snapshots and task records)`,
        `Jobs list (page of ${PAGE} and the total), store alone: first page ${figures.storeFirstPageMs} ms, last page ${figures.storeDeepPageMs} ms, status=error ${figures.storeErrorPageMs} ms`,
        `Jobs list over HTTP: first page ${figures.httpFirstPageMs} ms (first request ${firstPageColdMs} ms), last page ${figures.httpDeepPageMs} ms`,
        `console measured: ${consoleCommand().label}`,
        `console start to listening: ${startToListeningMs} ms (${empty.startToListeningMs} ms with no jobs); its RSS after serving the list: ${figures.rssMb} MB (${empty.rssMb} MB with no jobs)`,
      ];
    } finally {
      child.kill('SIGKILL');
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
