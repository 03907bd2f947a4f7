// The engine's task throughput, with ratios measured in the same run:
//   - the store's own rate of claim + fenced complete pairs on a fresh embedded file
//     (the ceiling the engine is compared to), in three rounds beside the 1-worker and
//     2-worker runs, the median round reported; the first two are first run once, not
//     counted, so that neither is measured with the JavaScript still cold;
//   - engine tasks/s with 1 worker, 2 workers in one process, 2 workers in two threads of
//     one process (each its own connection), and 2 console processes on one embedded file,
//     for jobs of a 10-task workflow (BENCH_ENGINE_JOBS, 100 jobs); claim→done p50/p99 of
//     the 1-worker run, the share of it the file's write lock was held (SQLite has one
//     writer per file: 1 / that share bounds what more workers writing it can give), the
//     share its event loop was busy and the cores its process kept busy (CPU time per
//     second, every thread), and the same cores for the two-threads run;
//   - idle → first claim: how long a task queued by another process (a second connection
//     to the same embedded file: nothing tells this worker) waits for an idle worker
//     that polls with back-off up to its idle limit (200 ms) (BENCH_WAKE_SAMPLES, 20);
//   - one-task jobs/s beside Agenda (6, MongoDB backend) on the same jongodb wire
//     test server (engine-agenda.ts), both polling every 100 ms with 8 tasks at once (BENCH_AGENDA_JOBS, 200);
//     and the same starts with no worker on a fresh database: that server's time per write
//     grows with the size of the collection written (an updateOne by _id took 1.9 ms at 200
//     documents and 7.4 ms at 600, with no index), so what a start writes (a job document and
//     its first task records) bounds this engine's figure there;
//   - 10-task jobs one at a time on that server behind a link that holds each chunk 1 ms
//     each way (engine-link.ts): the time per task, and that in the link's pings;
//   - fair scheduling (engine-fair.ts): what bounding a job's turn of hand-offs costs on
//     long jobs, and how long one-task jobs started beside endless loops wait.
// `npm run bench -- engine --json` prints the figures as one JSON object.
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine/index';
import { TaskQueue, type TaskRecord } from '../core/engine/queue/queue';
import { openEmbeddedStore } from '../core/store/embedded/store';
import type { Store } from '../core/store/port';
import { AGENDA_JOBS, oneTaskJobsBesideAgenda } from './engine-agenda';
import { jobsOverSlowLink } from './engine-link';
import { fairScheduling, type FairFigures } from './engine-fair';
import { percentile, round, tempStore, until } from './engine-support';
import { stepsWorkflow } from '../test/store/support/steps';

const JOBS = Number(process.env.BENCH_ENGINE_JOBS ?? 100);
const STEPS = 10;
/** Rounds of the store's pairs and 1 worker (the median is reported). */
const ROUNDS = 3;
const ROOT = path.resolve(import.meta.dirname, '..');

/** The indexes the workflow engine declares for its collections, as an indexed deployment has them. */
/** The store alone: claim a queued task record, then write its end fenced by worker and attempt. */
async function storeClaimComplete(n = 2000): Promise<number> {
  const t = await tempStore();
  try {
    const queue = new TaskQueue(t.store);
    const now = Date.now();
    await t.store.collection<TaskRecord>('tasks').insertMany(
      Array.from({ length: n }, (_, i) => ({ _id: `r${i}`, jobId: `j${i % 50}`, taskId: `t${i}`, iteration: 0, name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', status: 'queued', queuedAt: now + i, runAfter: now, attempt: 0, incoming: { str: `job ${i}` }, metrics: {} })),
    );
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const record = await queue.claim('w1', 30_000);
      if (!record) throw new Error(`bench: the queue ran dry after ${i} claims`);
      await queue.complete({ _id: record._id, workerId: 'w1', attempt: record.attempt }, { status: 'complete', finishState: 'success', outgoing: { uppercaseString: 'X' }, 'metrics.end_time': Date.now() });
    }
    return round(n / ((performance.now() - started) / 1000));
  } finally {
    await t.dispose();
  }
}

interface EngineRun {
  tasksPerSecond: number;
  /** This process's CPU time per task (user + system): what the machine's other load does not change much. */
  cpuMsPerTask?: number;
  p50Ms: number;
  p99Ms: number;
  tasks: number;
  /** The share of the run the file's write lock was held by this process's transactions. */
  lockShare?: number;
  /** The share of the run this thread's event loop was busy (not waiting for I/O or a timer). */
  eventLoopShare?: number;
  /** CPU time of the whole process (every thread) per second of the run: the cores it kept busy. */
  coresUsed?: number;
}

async function latencies(store: Store, jobIds?: string[]) {
  const records = await store.collection<TaskRecord>('tasks').find({ taskId: { $nin: ['workflow_start', 'workflow_end'] }, ...(jobIds ? { jobId: { $in: jobIds } } : {}) }, { projection: { metrics: 1, attempt: 1 } });
  const ms = records.map((r) => (r.metrics.end_time ?? 0) - (r.metrics.claimed_at ?? 0)).sort((a, b) => a - b);
  return { count: records.length, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

/** `workers` task workers in this process on one embedded store. */
async function engineInProcess(workers: number): Promise<EngineRun> {
  const t = await tempStore();
  try {
    await t.store.collection('workflows').insertOne(stepsWorkflow('steps', STEPS));
    const engines = Array.from({ length: workers }, (_v, i) => new Engine({ store: t.store, serverId: `bench-${i}`, serverName: `bench ${i}`, processTasksOnStart: false, worker: { idleMs: 5 } }));
    for (let i = 0; i < JOBS; i++) await engines[0]!.runner.start('steps', { variables: { text: `job ${i}` } });
    const jobs = t.store.collection('jobs');
    const started = performance.now();
    const cpu = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    const locked = t.store.lockHeldMs();
    for (const engine of engines) await (await engine.open()).startWorker();
    await until('the jobs to complete', async () => (await jobs.count({ status: 'running' })) === 0);
    const elapsed = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const eventLoopShare = round(performance.eventLoopUtilization(loop).utilization, 2);
    const lockShare = round((t.store.lockHeldMs() - locked) / 1000 / elapsed, 2);
    for (const engine of engines) await engine.close();
    const failed = await jobs.count({ status: { $ne: 'complete' } });
    if (failed) throw new Error(`bench: ${failed} jobs did not complete`);
    const l = await latencies(t.store);
    const cpuMs = (used.user + used.system) / 1000;
    return { tasksPerSecond: round(l.count / elapsed), cpuMsPerTask: round(cpuMs / l.count, 2), p50Ms: l.p50, p99Ms: l.p99, tasks: l.count, lockShare, eventLoopShare, coresUsed: round(cpuMs / 1000 / elapsed, 2) };
  } finally {
    await t.dispose();
  }
}

/**
 * Two task workers in worker threads of this process (engine-thread.ts), each with its own
 * connection to one file. They first work a batch not counted (a new thread's JavaScript
 * starts cold), then pause while the counted jobs are started.
 */
async function engineTwoThreads(): Promise<EngineRun> {
  const t = await tempStore('shared.sqlite');
  const threads: Worker[] = [];
  try {
    await t.store.collection('workflows').insertOne(stepsWorkflow('steps', STEPS));
    const starter = new Engine({ store: t.store, serverId: 'starter', serverName: 'starter', processTasksOnStart: false });
    const jobs = t.store.collection('jobs');
    const startBatch = async (batch: string) => {
      const ids: string[] = [];
      for (let i = 0; i < JOBS; i++) ids.push((await starter.runner.start('steps', { variables: { text: `${batch} job ${i}` } }))._id);
      return ids;
    };
    for (let i = 0; i < 2; i++) {
      threads.push(new Worker(new URL('./engine-thread.ts', import.meta.url), { workerData: { dir: t.dir, file: 'shared.sqlite', serverId: `thread-${i}` }, execArgv: ['--import', 'tsx'] }));
    }
    const all = (send: string | undefined, reply: (m: unknown) => boolean) =>
      Promise.all(
        threads.map((thread) => {
          const answered = new Promise<unknown>((resolve, reject) => {
            const onMessage = (m: unknown) => {
              if (!reply(m)) return;
              thread.off('message', onMessage);
              resolve(m);
            };
            thread.on('message', onMessage);
            thread.once('error', reject);
          });
          if (send) thread.postMessage(send);
          return answered;
        }),
      );
    await all(undefined, (m) => m === 'working');
    await startBatch('warm-up');
    await until('the warm-up jobs to complete', async () => (await jobs.count({ status: 'running' })) === 0);
    await all('pause', (m) => m === 'paused');
    const counted = await startBatch('counted');
    await starter.close();
    const started = performance.now();
    const cpu = process.cpuUsage();
    await all('resume', (m) => m === 'resumed');
    await until('the jobs to complete', async () => (await jobs.count({ status: 'running' })) === 0);
    const elapsed = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const stopped = (await all('stop', (m) => (m as { stopped?: boolean }).stopped === true)) as { error?: string }[];
    for (const m of stopped) if (m.error) throw new Error(`bench: a worker thread did not close: ${m.error}`);
    const l = await latencies(t.store, counted);
    const cpuMs = (used.user + used.system) / 1000;
    return { tasksPerSecond: round(l.count / elapsed), cpuMsPerTask: round(cpuMs / l.count, 2), p50Ms: l.p50, p99Ms: l.p99, tasks: l.count, coresUsed: round(cpuMs / 1000 / elapsed, 2) };
  } finally {
    for (const thread of threads) await thread.terminate();
    await t.dispose();
  }
}

/** Two console processes (test/store/support/file-console.ts) on one embedded file. */
async function engineTwoProcesses(): Promise<EngineRun & { longestStallMs: number }> {
  const t = await tempStore('shared.sqlite');
  const children = [] as ReturnType<typeof spawn>[];
  try {
    await t.store.collection('workflows').insertOne(stepsWorkflow('steps', STEPS));
    const starter = new Engine({ store: t.store, serverId: 'starter', serverName: 'starter', processTasksOnStart: false });
    for (let i = 0; i < JOBS; i++) await starter.runner.start('steps', { variables: { text: `job ${i}` } });
    await starter.close();
    let started = 0;
    const stalls: number[] = [];
    const working = Array.from({ length: 2 }, (_v, i) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/store/support/file-console.ts'), t.dir, 'shared.sqlite', `process-${i}`, '8'], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const stall = /^longest stall ([\d.]+)/m.exec(chunk.toString());
          if (stall) stalls.push(Number(stall[1]));
          if (/^working/m.test(chunk.toString())) {
            started ||= performance.now();
            resolve();
          }
        });
        child.once('exit', (code) => reject(new Error(`bench: console process ${i} exited (${code}) before working`)));
      });
    });
    await Promise.all(working);
    const jobs = t.store.collection('jobs');
    await until('the jobs to complete', async () => (await jobs.count({ status: 'running' })) === 0);
    const elapsed = (performance.now() - started) / 1000;
    const l = await latencies(t.store);
    // Each prints the longest its event loop was held up (waiting for the other's writes among the rest) as it stops.
    await Promise.all(children.map((child) => new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM')))));
    if (stalls.length !== 2) throw new Error(`bench: ${stalls.length} of 2 console processes said how long they stalled`);
    return { tasksPerSecond: round(l.count / elapsed), p50Ms: l.p50, p99Ms: l.p99, tasks: l.count, longestStallMs: Math.max(...stalls) };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await t.dispose();
  }
}

const WAKE_SAMPLES = Number(process.env.BENCH_WAKE_SAMPLES ?? 20);

/** Idle → first claim: jobs started through a second connection while this process's worker is idle. */
export async function wakeLatency(): Promise<{ p50Ms: number; maxMs: number; samples: number; idleMs: number }> {
  const t = await tempStore('shared.sqlite');
  const other = await openEmbeddedStore(t.dir, { file: 'shared.sqlite' });
  const idleMs = 200;
  const worker = new Engine({ store: t.store, serverId: 'idle', serverName: 'idle', processTasksOnStart: true, worker: { idleMs } });
  const starter = new Engine({ store: other, serverId: 'starter', serverName: 'starter', processTasksOnStart: false });
  try {
    await t.store.collection('workflows').insertOne(stepsWorkflow('one', 1));
    await worker.open();
    const waits: number[] = [];
    for (let i = 0; i < WAKE_SAMPLES; i++) {
      // Long enough for the worker's back-off to reach its idle limit, at a random phase of its poll.
      await new Promise((r) => setTimeout(r, 3 * idleMs + Math.random() * idleMs));
      const job = await starter.runner.start('one', { variables: { text: `wake ${i}` } });
      const tasks = other.collection<TaskRecord>('tasks');
      let first: TaskRecord | null = null;
      await until('the task to be claimed', async () => {
        first = await tasks.findOne({ jobId: job._id, taskId: { $nin: ['workflow_start', 'workflow_end'] } });
        return first?.metrics.claimed_at !== undefined;
      }, 60_000, 2);
      const claimed = first as TaskRecord | null;
      waits.push(claimed!.metrics.claimed_at! - claimed!.queuedAt);
    }
    waits.sort((a, b) => a - b);
    return { p50Ms: percentile(waits, 50), maxMs: waits[waits.length - 1]!, samples: waits.length, idleMs };
  } finally {
    await worker.close();
    await starter.close();
    await other.close();
    await t.dispose();
  }
}

export interface EngineFigures {
  tasksPerSecond: number;
  tasksPerSecondTwoWorkers: number;
  /** 2 workers in two threads of one process, each with its own connection to the file. */
  tasksPerSecondTwoThreads: number;
  tasksPerSecondTwoProcesses: number;
  /** The longest either console process's event loop was held up in that run (ms). */
  twoProcessesLongestStallMs: number;
  storeClaimCompletePerSecond: number;
  /** tasksPerSecond / storeClaimCompletePerSecond. */
  engineShareOfStore: number;
  /** The engine's share of the store in each round, lowest first (engineShareOfStore is the median round's). */
  engineShareRounds: number[];
  /** 2 workers in one process against the 1 worker run just before them, in the median round. */
  twoWorkersRatio: number;
  /** That ratio in each round, lowest first. */
  twoWorkersRatioRounds: number[];
  twoThreadsRatio: number;
  /** The share of the 1-worker run its thread's event loop was busy: what more workers in that thread can add to is the rest. */
  eventLoopShare: number;
  /** The cores the 1-worker run kept busy (its process's CPU seconds per second, every thread), and the two-threads run's. */
  coresUsed: number;
  twoThreadsCoresUsed: number;
  twoThreadsCpuMsPerTask: number;
  /** The share of the 1-worker run the file's write lock was held; 1 / it bounds any number of workers writing the file. */
  writeLockShare: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU ms per task of the 1-worker run, and the tasks/s one free core would give at that cost. */
  cpuMsPerTask: number;
  tasksPerCpuSecond: number;
  /** The machine's 1-minute load average when the run ended (other work on a shared machine slows every figure). */
  loadAverage: number;
  oneTaskJobsPerSecond?: number;
  agendaJobsPerSecond?: number;
  agendaRatio?: number;
  /** Jobs started per second on the same server with no worker running: a ceiling for oneTaskJobsPerSecond. */
  startsAlonePerSecond?: number;
  agendaSkipped?: string;
  /** 10-task jobs one at a time on the wire test server behind a link holding each chunk mongoLinkDelayMs each way (engine-link.ts). */
  mongoLinkDelayMs?: number;
  mongoLinkPingMs?: number;
  /** Start to complete per task (p50 over the jobs), and that in pings: the round trips a task waits for. */
  mongoLinkTaskMs?: number;
  mongoLinkRoundTripsPerTask?: number;
  mongoLinkSkipped?: string;
  /** Idle → first claim of a task queued by another process on the embedded file (the poll's back-off). */
  wakeP50Ms: number;
  wakeMaxMs: number;
  /** Fair scheduling: the bounded turn's cost on long jobs, and one-task jobs beside endless loops. */
  fair: FairFigures;
  jobs: number;
  tasks: number;
}

export async function benchEngine(options: { json?: boolean } = {}): Promise<EngineFigures | string[]> {
  // One run of each, not counted: the first runs of a process are JavaScript not yet compiled (about 1,000 tasks).
  await storeClaimComplete();
  await engineInProcess(1);
  // Three rounds of the store's pairs and 1 worker, side by side: the median round (by the
  // engine's share of the store) is reported, as one short run on a shared machine can be off by a fifth.
  // 2 workers in one process run in each round too, right after its 1 worker: the ratio of
  // the two is taken within a round, and the median round's (by that ratio) is reported.
  const rounds: { store: number; one: EngineRun; two: EngineRun }[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push({ store: await storeClaimComplete(), one: await engineInProcess(1), two: await engineInProcess(2) });
  const median = <T>(sorted: T[]) => sorted[Math.floor(sorted.length / 2)]!;
  const { store: storeClaimCompletePerSecond, one } = median([...rounds].sort((a, b) => a.one.tasksPerSecond / a.store - b.one.tasksPerSecond / b.store));
  const shares = rounds.map((r) => Math.round((r.one.tasksPerSecond / r.store) * 100)).sort((a, b) => a - b);
  const twoRatios = rounds.map((r) => round(r.two.tasksPerSecond / r.one.tasksPerSecond, 2)).sort((a, b) => a - b);
  const { two, one: twoBeside } = median([...rounds].sort((a, b) => a.two.tasksPerSecond / a.one.tasksPerSecond - b.two.tasksPerSecond / b.one.tasksPerSecond));
  const threads = await engineTwoThreads();
  const processes = await engineTwoProcesses();
  const agenda = await oneTaskJobsBesideAgenda();
  const link = await jobsOverSlowLink();
  const wake = await wakeLatency();
  const fair = await fairScheduling();
  const figures: EngineFigures = {
    tasksPerSecond: one.tasksPerSecond,
    tasksPerSecondTwoWorkers: two.tasksPerSecond,
    tasksPerSecondTwoThreads: threads.tasksPerSecond,
    tasksPerSecondTwoProcesses: processes.tasksPerSecond,
    twoProcessesLongestStallMs: processes.longestStallMs,
    storeClaimCompletePerSecond,
    engineShareOfStore: round(one.tasksPerSecond / storeClaimCompletePerSecond, 2),
    engineShareRounds: shares.map((p) => p / 100),
    twoWorkersRatio: round(two.tasksPerSecond / twoBeside.tasksPerSecond, 2),
    twoWorkersRatioRounds: twoRatios,
    twoThreadsRatio: round(threads.tasksPerSecond / one.tasksPerSecond, 2),
    writeLockShare: one.lockShare!,
    eventLoopShare: one.eventLoopShare!,
    coresUsed: one.coresUsed!,
    twoThreadsCoresUsed: threads.coresUsed!,
    twoThreadsCpuMsPerTask: threads.cpuMsPerTask!,
    p50Ms: one.p50Ms,
    p99Ms: one.p99Ms,
    cpuMsPerTask: one.cpuMsPerTask!,
    tasksPerCpuSecond: round(1000 / one.cpuMsPerTask!),
    loadAverage: round(os.loadavg()[0]!, 1),
    ...('unavailable' in agenda
      ? { agendaSkipped: agenda.unavailable }
      : { oneTaskJobsPerSecond: agenda.engineJobsPerSecond, agendaJobsPerSecond: agenda.agendaJobsPerSecond, agendaRatio: round(agenda.engineJobsPerSecond / agenda.agendaJobsPerSecond, 2), startsAlonePerSecond: agenda.startsPerSecond }),
    ...('unavailable' in link
      ? { mongoLinkSkipped: link.unavailable }
      : { mongoLinkDelayMs: link.delayMs, mongoLinkPingMs: link.pingMs, mongoLinkTaskMs: link.taskMs, mongoLinkRoundTripsPerTask: link.roundTripsPerTask }),
    wakeP50Ms: wake.p50Ms,
    wakeMaxMs: wake.maxMs,
    fair,
    jobs: JOBS,
    tasks: one.tasks,
  };
  if (options.json) return figures;
  return [
    `store claim+complete (embedded, 1 caller): ${storeClaimCompletePerSecond} pairs/s`,
    `engine, embedded, 1 worker: ${one.tasksPerSecond} tasks/s (${Math.round(figures.engineShareOfStore * 100)} % of the store's pairs/s, the median of ${ROUNDS} rounds: ${shares.join(', ')} %); claim→done p50 ${one.p50Ms} ms, p99 ${one.p99Ms} ms; ${one.cpuMsPerTask} ms of CPU per task (${figures.tasksPerCpuSecond} tasks per CPU second)`,
    `engine, embedded, 2 workers in one process: ${two.tasksPerSecond} tasks/s (${figures.twoWorkersRatio}× the 1 worker run just before, the median of ${ROUNDS} rounds: ${twoRatios.join(', ')}×); p50 ${two.p50Ms} ms, p99 ${two.p99Ms} ms`,
    `the 1-worker run kept its event loop busy ${Math.round(figures.eventLoopShare * 100)} % of the time (more workers in that thread add only to the rest, and to what larger group commits save) and ${figures.coresUsed} cores busy counting every thread of the process`,
    `the file's write lock held ${Math.round(figures.writeLockShare * 100)} % of the 1-worker run: more workers writing the file can give at most ${round(1 / figures.writeLockShare, 2)}× one`,
    `engine, embedded, 2 workers in two threads of one process, a connection each: ${threads.tasksPerSecond} tasks/s (${figures.twoThreadsRatio}× one); p50 ${threads.p50Ms} ms, p99 ${threads.p99Ms} ms; ${figures.twoThreadsCpuMsPerTask} ms of CPU per task, ${figures.twoThreadsCoresUsed} of ${os.cpus().length} cores busy`,
    `engine, 2 console processes on one embedded file: ${processes.tasksPerSecond} tasks/s (${round(processes.tasksPerSecond / one.tasksPerSecond, 2)}× one worker); p50 ${processes.p50Ms} ms, p99 ${processes.p99Ms} ms; the longest either's event loop stalled: ${processes.longestStallMs} ms`,
    'unavailable' in agenda
      ? `one-task jobs beside Agenda: skipped (${agenda.unavailable})`
      : `one-task jobs on jongodb: this engine ${agenda.engineJobsPerSecond}/s, Agenda ${agenda.agendaJobsPerSecond}/s (${figures.agendaRatio}×); starting them alone, no worker: ${agenda.startsPerSecond}/s (${round(agenda.startsPerSecond / agenda.agendaJobsPerSecond, 2)}× Agenda's whole run)`,
    'unavailable' in link
      ? `jobs over a slow link: skipped (${link.unavailable})`
      : `10-task jobs on jongodb over a link holding each chunk ${link.delayMs} ms each way (ping ${link.pingMs} ms), one job at a time: ${link.taskMs} ms per task, ${link.roundTripsPerTask} pings' worth (p50 over ${link.jobs} jobs)`,
    `idle worker → first claim of a task queued by another process (embedded, polling up to every ${wake.idleMs} ms): p50 ${wake.p50Ms} ms, max ${wake.maxMs} ms over ${wake.samples} jobs`,
    `fair scheduling, ${fair.jobs} jobs of ${fair.steps} tasks on 1 worker: a job's turn bounded to 16 hand-offs ${fair.boundedTasksPerSecond} tasks/s (${fair.boundedCpuMsPerTask} ms of CPU per task), unbounded ${fair.unboundedTasksPerSecond} tasks/s (${fair.unboundedCpuMsPerTask} ms): ${fair.turnRatio}× (the median of ${fair.turnRatioRounds.length} rounds: ${fair.turnRatioRounds.join(', ')}×); 20 one-task jobs started beside 10 endless loops: ${fair.besideLoopsMs === undefined ? 'not all complete within 60 s' : `all complete in ${fair.besideLoopsMs} ms`}`,
    `(${JOBS} jobs of ${STEPS} tasks per engine run, after one run of the store's pairs and of 1 worker not counted, then ${ROUNDS} rounds of the store's pairs, 1 worker and 2 workers; ${AGENDA_JOBS} one-task jobs each beside Agenda; load average ${figures.loadAverage} on ${os.cpus().length} cores)`,
  ];
}
