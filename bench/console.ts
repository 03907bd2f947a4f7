// The console with many jobs (BENCH_CONSOLE_JOBS, 100,000) in its embedded store:
// the Jobs list's request (a page of 50 and the total) first page and deep page, in
// this process on the store alone and over HTTP from a started console; the time from
// starting `serve` to its listening; and that console's resident memory once it has
// served the Jobs list. The jobs are written in one transaction, as a migration does.
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
import { stepsWorkflow } from '../test/store/support/steps';

const JOBS = Number(process.env.BENCH_CONSOLE_JOBS ?? 100_000);
const PAGE = 50;
const ROOT = path.resolve(import.meta.dirname, '..');
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `count` finished jobs of a 5-task workflow, newest last, in one insertMany (one transaction). */
async function fill(store: Store, count: number) {
  const workflow = stepsWorkflow('steps', 5);
  const statuses = ['complete', 'complete', 'complete', 'error', 'canceled'] as const;
  const base = Date.now() - count * 1000;
  const docs: JobDoc[] = Array.from({ length: count }, (_v, n) => ({
    _id: `bench-${n}`,
    name: `workflow-${n % 20}`,
    description: `job ${n}`,
    status: statuses[n % statuses.length]!,
    variables: { text: `job ${n}`, result: `JOB ${n}` },
    metrics: { start_time: base + n * 1000, end_time: base + n * 1000 + 500, user: 'bench' },
    children: [],
    tasks: workflow.tasks as JobDoc['tasks'],
    transitions: workflow.transitions,
    last_updated: base + n * 1000 + 500,
  }));
  const started = performance.now();
  await store.collection<JobDoc>('jobs').insertMany(docs);
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
      for (const index of declared.indexes) await store.collection(declared.collection).createIndex({ key: index.key, name: index.name, unique: index.unique });
    }
    const insertPerSecond = await fill(store, JOBS);
    const deps = { jobs: store.collection('jobs'), tasks: store.collection('tasks'), workflowNames: async () => [] };
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
        const body = (await res.json()) as { total: number; results: unknown[] };
        if (body.total !== JOBS || body.results.length !== PAGE) throw new Error(`bench: unexpected page (${body.total} jobs, ${body.results.length} rows)`);
      };
      const firstPageColdMs = await timed(() => get(`skip=0&limit=${PAGE}`));
      const firstPage: number[] = [];
      for (let i = 0; i < 5; i++) firstPage.push(await timed(() => get(`skip=0&limit=${PAGE}`)));
      const deepPage: number[] = [];
      for (let i = 0; i < 3; i++) deepPage.push(await timed(() => get(`skip=${JOBS - PAGE}&limit=${PAGE}`)));
      const figures = {
        jobs: JOBS,
        insertJobsPerSecond: insertPerSecond,
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
        `${JOBS} jobs written at ${insertPerSecond} jobs/s (one transaction)`,
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
