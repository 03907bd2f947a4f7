// Fair task scheduling (the task worker's `handoffsPerTurn`), what it costs and what it
// gives, measured in one run:
//   - cost: long jobs (a chain of BENCH_FAIR_STEPS tasks, 64; BENCH_FAIR_JOBS jobs, 20) on
//     1 worker, with a job's turn bounded (the default, 16 hand-offs) and unbounded (every
//     next task handed to the same slot, as before the bound), alternated in 3 rounds; the
//     median round's ratio of tasks/s is reported, and the CPU per task of each;
//   - effect: 20 one-task jobs started beside 10 jobs looping for ever (a revert loop of two
//     tasks), 8 worker slots: the time until all 20 are complete (unbounded: they never are).
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine/index';
import { stepsWorkflow } from '../test/store/support/steps';
import { round, tempStore, until } from './engine-support';

const JOBS = Number(process.env.BENCH_FAIR_JOBS ?? 20);
const STEPS = Number(process.env.BENCH_FAIR_STEPS ?? 64);
const ROUNDS = 3;

interface LongRun {
  tasksPerSecond: number;
  cpuMsPerTask: number;
}

/** JOBS long jobs, started before the worker, worked by 1 worker with `handoffsPerTurn`. */
async function longJobs(handoffsPerTurn: number): Promise<LongRun> {
  const t = await tempStore();
  try {
    await t.store.collection('workflows').insertOne(stepsWorkflow('long', STEPS));
    const engine = new Engine({ store: t.store, serverId: 'fair', serverName: 'fair', processTasksOnStart: false, worker: { idleMs: 5, handoffsPerTurn } });
    for (let i = 0; i < JOBS; i++) await engine.runner.start('long', { variables: { text: `job ${i}` } });
    const jobs = t.store.collection('jobs');
    const started = performance.now();
    const cpu = process.cpuUsage();
    await (await engine.open()).startWorker();
    await until('the long jobs to complete', async () => (await jobs.count({ status: 'running' })) === 0);
    const elapsed = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await engine.close();
    const tasks = JOBS * STEPS;
    return { tasksPerSecond: round(tasks / elapsed), cpuMsPerTask: round((used.user + used.system) / 1000 / tasks, 3) };
  } finally {
    await t.dispose();
  }
}

/** 10 endless loops, then 20 one-task jobs: ms until the 20 are complete (undefined: not within 60 s). */
async function besideLoops(): Promise<number | undefined> {
  const t = await tempStore();
  const engine = new Engine({ store: t.store, serverId: 'fair', serverName: 'fair', processTasksOnStart: true, worker: { idleMs: 5, concurrency: 8 } });
  try {
    const loop = stepsWorkflow('loop', 2);
    loop.transitions.t2 = { t1: { type: 'revert', state: 'success' } };
    await t.store.collection('workflows').insertOne(loop);
    await t.store.collection('workflows').insertOne(stepsWorkflow('one', 1));
    await engine.open();
    const loops: string[] = [];
    for (let i = 0; i < 10; i++) loops.push((await engine.runner.start('loop', { variables: { text: `loop ${i}` } }))._id);
    const tasks = t.store.collection('tasks');
    await until('the loops to go round', async () => (await Promise.all(loops.map((jobId) => tasks.count({ jobId })))).filter((n) => n >= 10).length >= 8);
    const started = performance.now();
    const singles: string[] = [];
    for (let i = 0; i < 20; i++) singles.push((await engine.runner.start('one', { variables: { text: `one ${i}` } }))._id);
    const jobs = t.store.collection('jobs');
    const done = await until('the one-task jobs to complete', async () => (await jobs.count({ _id: { $in: singles }, status: 'complete' })) === singles.length, 60_000).then(
      () => true,
      () => false,
    );
    const ms = round(performance.now() - started);
    for (const id of loops) await engine.runner.cancel(id);
    return done ? ms : undefined;
  } finally {
    await engine.close();
    await t.dispose();
  }
}

export interface FairFigures {
  /** tasks/s with a job's turn bounded over tasks/s unbounded, in the median round. */
  turnRatio: number;
  turnRatioRounds: number[];
  boundedTasksPerSecond: number;
  unboundedTasksPerSecond: number;
  boundedCpuMsPerTask: number;
  unboundedCpuMsPerTask: number;
  /** ms until 20 one-task jobs started beside 10 endless loops are complete (undefined: not within 60 s). */
  besideLoopsMs?: number;
  jobs: number;
  steps: number;
}

export async function fairScheduling(): Promise<FairFigures> {
  await longJobs(16); // not counted: the JavaScript is still cold
  const rounds: { bounded: LongRun; unbounded: LongRun }[] = [];
  for (let i = 0; i < ROUNDS; i++) rounds.push({ bounded: await longJobs(16), unbounded: await longJobs(Number.POSITIVE_INFINITY) });
  const ratio = (r: (typeof rounds)[number]) => r.bounded.tasksPerSecond / r.unbounded.tasksPerSecond;
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  const median = sorted[Math.floor(sorted.length / 2)] ?? rounds[0];
  if (!median) throw new Error('bench: no round of the fairness run');
  return {
    turnRatio: round(ratio(median), 2),
    turnRatioRounds: sorted.map((r) => round(ratio(r), 2)),
    boundedTasksPerSecond: median.bounded.tasksPerSecond,
    unboundedTasksPerSecond: median.unbounded.tasksPerSecond,
    boundedCpuMsPerTask: median.bounded.cpuMsPerTask,
    unboundedCpuMsPerTask: median.unbounded.cpuMsPerTask,
    besideLoopsMs: await besideLoops(),
    jobs: JOBS,
    steps: STEPS,
  };
}
