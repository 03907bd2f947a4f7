// Equal work for the engine bench (issue 45), as systems of the queues bench's alternating
// rounds (queues.ts):
//   - one-task jobs N queued at once (1,000, and 100,000 unless --quick), this engine and
//     plainjob each: every job enqueued first with no worker running, then the worker started;
//     the time from the first enqueue to the last job finished (enqueue, then run);
//   - raw node:sqlite doing the engine's own write pattern (engine-raw.ts), one-task and 10-task;
//   - a CPU-bound neighbour process (a busy loop) running on the machine while this engine and
//     plainjob do their steady stream of one-task jobs, for oneTaskJobsRatioUnderLoad.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { engineRound } from './engine-round';
import { rawSamePatternRound } from './engine-raw';
import { openBenchEngine } from './engine-support';
import { benchPeers } from './peers';
import { folderBytes, plainjobRound, tempDir, type Work } from './queues-peers';

export interface System {
  name: string;
  unit: string;
  /** A queue installed on first use (peers.ts), skipped where it cannot be. */
  peer?: true;
  run: (seconds: number) => Promise<Work & { tasks?: number }>;
}

async function waitUntil(what: string, done: () => boolean | Promise<boolean>, everyMs = 5) {
  const deadline = Date.now() + 1_800_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} did not happen within 30 minutes`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** This engine: `n` one-task jobs started with no worker running, then the worker (8 at once) started. */
export async function engineQueuedRound(n: number): Promise<Work> {
  const { dir, store, engine } = await openBenchEngine({ steps: 1, processTasksOnStart: false });
  try {
    const jobs = store.collection('jobs');
    const started = performance.now();
    for (let i = 0; i < n; i++) await engine.runner.start('bench', { variables: { text: `job ${i}` } });
    await engine.startWorker();
    // The worker's count of tasks it ended, read every 2 ms, as plainjob's round counts its completions:
    // a one-task job ends in the write that ends its task. (Counting running jobs in the store instead
    // costs a read of the status index per look, 100,000 entries at the start of the large round.)
    await waitUntil(`${n} queued engine jobs finishing`, () => engine.worker.stats.completed >= n, 2);
    const elapsedMs = performance.now() - started;
    await engine.close();
    const complete = await jobs.count({ status: 'complete' });
    if (complete !== n) throw new Error(`bench: ${n - complete} of ${n} queued engine jobs did not complete`);
    await store.close();
    return { items: n, elapsedMs, bytesPerItem: (await folderBytes(dir)) / n };
  } finally {
    await store.close().catch((error: unknown) => console.error(`bench: closing the queued round's store: ${String(error)}`));
    await rm(dir, { recursive: true, force: true });
  }
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/** A plainjob queue on a fresh file in a temporary folder, with a worker for the bench's one-task jobs that counts those it finished. */
export async function openPlainjob() {
  const peers = await benchPeers();
  if ('unavailable' in peers) throw new Error(peers.unavailable);
  const { better, defineQueue, defineWorker } = peers.plainjob;
  const dir = await tempDir();
  const connection = better(new peers.Database(path.join(dir, 'plainjob.sqlite')));
  const queue = defineQueue({ connection, logger: silent });
  let finished = 0;
  const worker = defineWorker(
    'bench',
    (job) => {
      (JSON.parse(job.data) as { text: string }).text.toUpperCase();
    },
    { queue, logger: silent, pollIntervall: 5, onCompleted: () => void finished++ },
  );
  return { dir, queue, worker, finished: () => finished };
}

/** plainjob: `n` jobs added with no worker running, then its worker started. */
export async function plainjobQueuedRound(n: number): Promise<Work> {
  const { dir, queue, worker, finished } = await openPlainjob();
  try {
    const started = performance.now();
    for (let i = 0; i < n; i++) queue.add('bench', { text: `job ${i}` });
    const running = worker.start();
    await waitUntil(`${n} queued plainjob jobs finishing`, () => finished() >= n, 2);
    const elapsedMs = performance.now() - started;
    await worker.stop();
    await running;
    queue.close();
    return { items: finished(), elapsedMs, bytesPerItem: (await folderBytes(dir)) / finished() };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A process keeping one core busy (a busy loop), until stopped. */
function startNeighbour(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  child.unref();
  return child;
}

/** `run` while a CPU-bound neighbour process runs beside it (started first, stopped after). */
export function underLoad(run: (seconds: number) => Promise<Work & { tasks?: number }>) {
  return async (seconds: number) => {
    const neighbour = startNeighbour();
    try {
      // Let it reach its loop before the round is timed.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return await run(seconds);
    } finally {
      neighbour.kill('SIGKILL');
    }
  };
}

export const NEIGHBOUR = 'beside a CPU-bound neighbour process';

/** The equal-work systems; `quick` leaves the 100,000-job queues out. */
export function equalWorkSystems(quick: boolean): System[] {
  const queued = quick ? [1000] : [1000, 100_000];
  return [
    { name: 'raw same pattern, one-task jobs', unit: 'jobs/s', run: (s) => rawSamePatternRound(s, 1) },
    { name: 'raw same pattern, 10-task jobs', unit: 'tasks/s', run: (s) => rawSamePatternRound(s, 10) },
    ...queued.flatMap((n): System[] => [
      { name: `engine ${n} one-task jobs queued at once`, unit: 'jobs/s', run: () => engineQueuedRound(n) },
      { name: `plainjob ${n} jobs queued at once`, unit: 'jobs/s', peer: true, run: () => plainjobQueuedRound(n) },
    ]),
  ];
}

/** The pair run under load, in rounds of their own after the others. */
export const underLoadSystems: System[] = [
  { name: `engine one-task jobs ${NEIGHBOUR}`, unit: 'jobs/s', run: underLoad((s) => engineRound(s, 1, 8)) },
  { name: `plainjob ${NEIGHBOUR}`, unit: 'jobs/s', peer: true, run: underLoad(plainjobRound) },
];
