// Where the time of one-task jobs queued at once goes (issue 45), phase by phase: `npm run bench --
// phases [--rounds N] [--quick]`. Each round enqueues N one-task jobs with no worker running, then
// starts the worker and waits for every job to end, for this engine and for plainjob doing the same, in
// turn (the order turned each round); each phase's rate and CPU time per job is printed with the load
// average at the round's end, and the ratios are taken within a round. N is 10,000 (1,000 with --quick).
import { rm } from 'node:fs/promises';
import os from 'node:os';
import { median, openBenchEngine, round } from './engine-support';
import { openPlainjob } from './engine-equal';

interface Phases {
  system: string;
  round: number;
  enqueuePerSecond: number;
  enqueueCpuMs: number;
  runPerSecond: number;
  runCpuMs: number;
  totalPerSecond: number;
  load: number;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function until(what: string, done: () => boolean) {
  const deadline = Date.now() + 600_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} did not happen within 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function phases(system: string, roundNo: number, n: number, t: { start: number; queued: number; end: number; enqueueCpu: number; runCpu: number }): Phases {
  return {
    system,
    round: roundNo,
    enqueuePerSecond: Math.round(n / ((t.queued - t.start) / 1000)),
    enqueueCpuMs: round(t.enqueueCpu / n, 3),
    runPerSecond: Math.round(n / ((t.end - t.queued) / 1000)),
    runCpuMs: round(t.runCpu / n, 3),
    totalPerSecond: Math.round(n / ((t.end - t.start) / 1000)),
    load: round(os.loadavg()[0] ?? 0, 2),
  };
}

async function engineRound(roundNo: number, n: number): Promise<Phases> {
  const { dir, store, engine } = await openBenchEngine({ steps: 1, processTasksOnStart: false });
  try {
    const start = performance.now();
    let cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) await engine.runner.start('bench', { variables: { text: `job ${i}` } });
    const queued = performance.now();
    const enqueueCpu = cpuMs(cpu);
    cpu = process.cpuUsage();
    await engine.startWorker();
    await until(`${n} queued engine jobs finishing`, () => engine.worker.stats.completed >= n);
    const end = performance.now();
    return phases('engine', roundNo, n, { start, queued, end, enqueueCpu, runCpu: cpuMs(cpu) });
  } finally {
    await engine.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function plainjobRound(roundNo: number, n: number): Promise<Phases> {
  const { dir, queue, worker, finished } = await openPlainjob();
  try {
    const start = performance.now();
    let cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) queue.add('bench', { text: `job ${i}` });
    const queued = performance.now();
    const enqueueCpu = cpuMs(cpu);
    cpu = process.cpuUsage();
    const running = worker.start();
    await until(`${n} queued plainjob jobs finishing`, () => finished() >= n);
    const end = performance.now();
    const runCpu = cpuMs(cpu);
    await worker.stop();
    await running;
    return phases('plainjob', roundNo, n, { start, queued, end, enqueueCpu, runCpu });
  } finally {
    queue.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchQueuedPhases(): Promise<object> {
  const argv = process.argv.slice(2);
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 3;
  const n = argv.includes('--quick') ? 1000 : 10_000;
  // A round of each not counted: the code paths compiled before any is timed.
  await engineRound(0, 1000);
  await plainjobRound(0, 1000);
  const rows: Phases[] = [];
  for (let r = 1; r <= rounds; r++) {
    const pair = r % 2 ? [engineRound, plainjobRound] : [plainjobRound, engineRound];
    for (const run of pair) rows.push(await run(r, n));
  }
  console.table(rows);
  const ratio = (field: 'enqueuePerSecond' | 'runPerSecond' | 'totalPerSecond') =>
    median(Array.from({ length: rounds }, (_, i) => rows.filter((row) => row.round === i + 1)).map(([a, b]) => (a!.system === 'engine' ? a![field] / b![field] : b![field] / a![field])));
  const ratios = { enqueue: round(ratio('enqueuePerSecond'), 2), run: round(ratio('runPerSecond'), 2), total: round(ratio('totalPerSecond'), 2) };
  console.log(`${n} one-task jobs queued at once, this engine against plainjob (median of ${rounds} rounds): enqueue ${ratios.enqueue}×, run ${ratios.run}×, enqueue + run ${ratios.total}×`);
  return { jobs: n, rounds: rows, ratios, method: 'each round: N one-task jobs enqueued with no worker running, then the worker started until every job ended; this engine and plainjob in turn, the order turned each round; CPU time is the process\'s (user + system) per job' };
}
