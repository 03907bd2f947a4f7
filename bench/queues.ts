// This engine beside the embedded queues a user would pick instead (issue 32), in one run:
// alternating rounds of at least `--seconds` (default 5) each, `--rounds` (default 5) of them
// (on a shared 2-core machine one round in three could move a median by a tenth);
// in each round every system runs once, the order turned by one each round, so a busy moment
// of the shared machine falls on all alike. A system's figure is the median of all its
// rounds, nothing dropped; every round is printed with the machine's load average and the
// share of CPU time the hypervisor stole during it (/proc/stat).
//
// Every system enqueues batches of 200 tasks (200 one-task jobs, 20 ten-task jobs) for the
// round's seconds while its worker runs, at most one batch ahead of it (a batch waits while
// one is unfinished), then waits for the last to finish: the rate is enqueue + run.
//   - this engine: one-task jobs (WorkFlowEngine toUpperCase, 8 at once);
//   - the same beside 1,000 jobs waiting on timers (a delay of an hour each, started before the
//     round is timed), and beside 1,000 jobs of a delay of no time, ended before it (the same
//     starts, store size and warmed-up code, nothing waiting): oneTaskJobsBesideTimersRatio is the
//     median of the first over the median of the second;
//     10-task jobs at concurrency 1 and at 8 (tasks/s); its embedded store on a fresh file;
//   - plainjob and liteque doing the same one-task work, raw node:sqlite insert + claim +
//     complete (queues-peers.ts), each on a fresh file in the same temporary folder, all on
//     WAL with synchronous=NORMAL (the engine's store also keeps secure_delete on);
//   - the store layer's own claim + complete (queues-store.ts: the engine's task queue on
//     its embedded store), timed as raw SQLite's is, for the store's target (>= 0.8x raw);
//   - bytes per one-task job: the engine's file once closed, over the jobs it holds.
// CPU ms are this process's (user + system) over the round, per job or task.
import os from 'node:os';
import { benchEngine } from './engine';
import { engineRound } from './engine-round';
import { cpuTimes } from './machine';
import { storeLayerRound } from './queues-store';
import { equalWorkSystems, NEIGHBOUR, underLoadSystems, type System } from './engine-equal';
import { BATCH, litequeRound, plainjobRound, rawSqliteRound } from './queues-peers';
import { benchPeers } from './peers';

interface Options {
  rounds: number;
  seconds: number;
  /** No 100,000-job queues. */
  quick: boolean;
  /** Only the systems of the issue's equal-work figures (EQUAL_ONLY). */
  equalOnly: boolean;
}

function readOptions(argv: string[]): Options {
  const value = (flag: string, fallback: number) => {
    const at = argv.indexOf(flag);
    if (at === -1) return fallback;
    const n = Number(argv[at + 1]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} takes a positive number, got ${String(argv[at + 1])}`);
    return n;
  };
  return { rounds: Math.round(value('--rounds', 5)), seconds: value('--seconds', 5), quick: argv.includes('--quick'), equalOnly: argv.includes('--equal-only') };
}

/** Jobs waiting on timers beside the one-task jobs of `engine one-task jobs beside timers`. */
const TIMERS = 1000;

interface Round {
  system: string;
  round: number;
  /** Jobs (or tasks, for the 10-task runs) per second, enqueue + run. */
  perSecond: number;
  items: number;
  seconds: number;
  cpuMsPerItem: number;
  bytesPerItem?: number;
  loadAverage: number;
  /** The share of all cores' time the hypervisor stole during the round, in %. */
  stealPercent?: number;
  /** Raw SQLite and the store layer: claim + complete per second without the inserts' time. */
  claimCompleteOnlyPerSecond?: number;
}

/** `peer`: a queue installed on first use (peers.ts), skipped where it cannot be. */
const SYSTEMS: System[] = [
  { name: 'engine one-task jobs', unit: 'jobs/s', run: (s) => engineRound(s, 1, 8) },
  { name: `engine one-task jobs beside ${TIMERS} timers`, unit: 'jobs/s', run: (s) => engineRound(s, 1, 8, { jobs: TIMERS, waiting: true }) },
  { name: `engine one-task jobs beside ${TIMERS} ended delays`, unit: 'jobs/s', run: (s) => engineRound(s, 1, 8, { jobs: TIMERS, waiting: false }) },
  { name: 'plainjob', unit: 'jobs/s', peer: true, run: plainjobRound },
  { name: 'liteque', unit: 'jobs/s', peer: true, run: litequeRound },
  { name: 'raw node:sqlite insert+claim+complete', unit: 'items/s', run: rawSqliteRound },
  { name: 'store layer insert+claim+complete', unit: 'items/s', run: storeLayerRound },
  { name: 'engine 10-task jobs, concurrency 8', unit: 'tasks/s', run: (s) => engineRound(s, 10, 8) },
  { name: 'engine 10-task jobs, concurrency 1', unit: 'tasks/s', run: (s) => engineRound(s, 10, 1) },
];

/** The systems of SYSTEMS `--equal-only` keeps (beside every equal-work system). */
const EQUAL_ONLY: ReadonlySet<string> = new Set(['engine one-task jobs', 'plainjob', 'engine 10-task jobs, concurrency 8']);

const median = (values: number[]) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

export interface QueueFigures {
  measuredAt: string;
  oneTaskJobsPerSecond: number;
  /** One-task jobs/s with 1,000 jobs waiting on timers (an hour's delay each) in the same store, in the same rounds. */
  oneTaskJobsBesideTimersPerSecond: number;
  /** The same beside 1,000 jobs of a delay of no time, ended before the round (the same starts and store size, nothing waiting): the ratio's "alone". */
  oneTaskJobsBesideEndedPerSecond: number;
  /** oneTaskJobsBesideTimersPerSecond / oneTaskJobsBesideEndedPerSecond (target >= 0.9: waiting holds no worker slot and costs the claim little). */
  oneTaskJobsBesideTimersRatio: number;
  plainjobJobsPerSecond: number;
  liteQueueJobsPerSecond: number;
  /** Insert + claim + complete per second (enqueue + run, as every other figure here). */
  rawClaimCompletePerSecond: number;
  /** Claim + complete alone, the inserts' time left out: the stricter ceiling. */
  rawClaimCompleteOnlyPerSecond: number;
  /** The store layer's own claim + complete alone (the engine's task queue on the embedded store), in the same rounds. */
  storeClaimCompleteOnlyPerSecond: number;
  /** 10-task jobs at concurrency 8. */
  tasksPerSecond: number;
  tasksPerSecondConcurrency1: number;
  /** CPU ms per task of the 10-task jobs at concurrency 8. */
  cpuMsPerTask: number;
  cpuMsPerOneTaskJob: number;
  plainjobCpuMsPerJob: number;
  liteQueueCpuMsPerJob: number;
  rawCpuMsPerItem: number;
  /** The engine's file per one-task job, once closed. */
  bytesPerJob: number;
  plainjobBytesPerJob: number;
  rawBytesPerItem: number;
  targets: Record<string, { value: number; target: string; met: boolean }>;
  /** Raw node:sqlite doing the engine's own write pattern (engine-raw.ts): 10-task jobs' tasks/s, one-task jobs/s. */
  rawSamePatternTasksPerSecond: number;
  rawSamePatternOneTaskJobsPerSecond: number;
  rawSamePatternBytesPerOneTaskJob: number;
  /** tasksPerSecond / rawSamePatternTasksPerSecond. */
  tasksOverRawSamePattern: number;
  /** One-task jobs queued at once then run, by count: this engine, plainjob, and their ratio (the median of the rounds'). */
  oneTaskJobsQueued: Record<string, { engineJobsPerSecond: number; plainjobJobsPerSecond: number; ratio: number; ratioRounds: number[]; engineBytesPerJob: number }>;
  /** oneTaskJobsPerSecond / plainjobJobsPerSecond (the steady stream). */
  oneTaskJobsRatioToPlainjob: number;
  /** The same, both beside a CPU-bound neighbour process: the median of the rounds' ratios. */
  oneTaskJobsRatioUnderLoad: number;
  oneTaskJobsRatioUnderLoadRounds: number[];
  rounds: Round[];
  roundCount: number;
  secondsPerRound: number;
  method: string;
  /** Why plainjob and liteque did not run (their figures are then NaN). */
  peersSkipped?: string;
}

/** The equal-work figures (engine-equal.ts) from the rounds: the ratios are taken within a round, their median reported. */
function equalFigures(rounds: Round[], quick: boolean, tasksPerSecond: number, oneTaskJobsPerSecond: number, plainjobJobsPerSecond: number) {
  const of = (name: string, pick: (r: Round) => number | undefined) => median(rounds.filter((r) => r.system === name).map((r) => pick(r) ?? Number.NaN));
  const ratioRounds = (a: string, b: string) =>
    rounds
      .filter((r) => r.system === a)
      .map((r) => r.perSecond / (rounds.find((o) => o.system === b && o.round === r.round)?.perSecond ?? Number.NaN))
      .filter((n) => Number.isFinite(n))
      .map((n) => round(n, 3))
      .sort((x, y) => x - y);
  const oneTaskJobsQueued: QueueFigures['oneTaskJobsQueued'] = {};
  const ratios: Record<string, number> = {};
  for (const n of quick ? [1000] : [1000, 100_000]) {
    const engine = `engine ${n} one-task jobs queued at once`;
    const plain = `plainjob ${n} jobs queued at once`;
    const each = ratioRounds(engine, plain);
    oneTaskJobsQueued[String(n)] = { engineJobsPerSecond: of(engine, (r) => r.perSecond), plainjobJobsPerSecond: of(plain, (r) => r.perSecond), ratio: median(each), ratioRounds: each, engineBytesPerJob: round(of(engine, (r) => r.bytesPerItem)) };
    ratios[`oneTaskJobsQueued${n}OverPlainjob`] = median(each);
  }
  const underLoadRounds = ratioRounds(`engine one-task jobs ${NEIGHBOUR}`, `plainjob ${NEIGHBOUR}`);
  ratios.oneTaskJobsRatioUnderLoad = median(underLoadRounds);
  const rawSamePatternTasksPerSecond = of('raw same pattern, 10-task jobs', (r) => r.perSecond);
  return {
    ratios,
    figures: {
      rawSamePatternTasksPerSecond,
      rawSamePatternOneTaskJobsPerSecond: of('raw same pattern, one-task jobs', (r) => r.perSecond),
      rawSamePatternBytesPerOneTaskJob: round(of('raw same pattern, one-task jobs', (r) => r.bytesPerItem)),
      tasksOverRawSamePattern: round(tasksPerSecond / rawSamePatternTasksPerSecond, 3),
      oneTaskJobsQueued,
      oneTaskJobsRatioToPlainjob: round(oneTaskJobsPerSecond / plainjobJobsPerSecond, 3),
      oneTaskJobsRatioUnderLoad: median(underLoadRounds),
      oneTaskJobsRatioUnderLoadRounds: underLoadRounds,
    },
  };
}

export async function benchQueues(argv: string[] = process.argv.slice(2)): Promise<QueueFigures> {
  const options = readOptions(argv);
  const peers = await benchPeers();
  const peersSkipped = 'unavailable' in peers ? peers.unavailable : undefined;
  if (peersSkipped) console.log(`plainjob, liteque: skipped (${peersSkipped})`);
  const kept = (system: System) => !(system.peer && peersSkipped) && (!options.equalOnly || EQUAL_ONLY.has(system.name) || !SYSTEMS.includes(system));
  const systems = [...SYSTEMS, ...equalWorkSystems(options.quick)].filter(kept);
  const rounds: Round[] = [];
  const measure = async (system: System, r: number) => {
    const cpu = process.cpuUsage();
    const before = cpuTimes();
    const work = await system.run(options.seconds);
    const used = process.cpuUsage(cpu);
    const after = cpuTimes();
    const items = work.tasks ?? work.items;
    const row: Round = {
      system: system.name,
      round: r + 1,
      perSecond: round(items / (work.elapsedMs / 1000)),
      items,
      seconds: round(work.elapsedMs / 1000, 1),
      cpuMsPerItem: round((used.user + used.system) / 1000 / items, 3),
      ...(Number.isFinite(work.bytesPerItem) ? { bytesPerItem: round(work.bytesPerItem) } : {}),
      loadAverage: round(os.loadavg()[0] ?? 0, 2),
      ...(work.claimCompleteMs ? { claimCompleteOnlyPerSecond: round(items / (work.claimCompleteMs / 1000)) } : {}),
      ...(before && after && after.total > before.total ? { stealPercent: round(((after.steal - before.steal) / (after.total - before.total)) * 100, 2) } : {}),
    };
    rounds.push(row);
    console.log(
      `round ${row.round} ${row.system}: ${row.perSecond} ${system.unit} (${row.items} in ${row.seconds} s), ${row.cpuMsPerItem} CPU ms each${row.bytesPerItem === undefined ? '' : `, ${row.bytesPerItem} B each on disk`}${row.claimCompleteOnlyPerSecond === undefined ? '' : `, claim + complete alone ${row.claimCompleteOnlyPerSecond}/s`}; load ${row.loadAverage}, steal ${row.stealPercent ?? '?'} %`,
    );
  };
  // Not counted: the engine's JavaScript is compiled on its first thousands of jobs, which would fall on the first rounds alone.
  await engineRound(Math.min(2, options.seconds), 1, 8);
  await engineRound(Math.min(2, options.seconds), 10, 8);
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < systems.length; k++) await measure(systems[(r + k) % systems.length]!, r);
  }
  // Under contention: the engine and plainjob, each beside a busy neighbour, in rounds of their own (order turned).
  const loaded = underLoadSystems.filter(kept);
  for (let r = 0; r < Math.min(options.rounds, 3); r++) {
    for (let k = 0; k < loaded.length; k++) await measure(loaded[(r + k) % loaded.length]!, r);
  }
  const of = (name: string, pick: (r: Round) => number | undefined) => median(rounds.filter((r) => r.system === name).map((r) => pick(r) ?? Number.NaN));
  const [one, besideTimers, besideEnded, plain, lite, raw, storeLayer, ten8, ten1] = SYSTEMS.map((s) => s.name) as [string, string, string, string, string, string, string, string, string];
  const oneTaskJobsPerSecond = of(one, (r) => r.perSecond);
  const oneTaskJobsBesideTimersPerSecond = of(besideTimers, (r) => r.perSecond);
  const oneTaskJobsBesideEndedPerSecond = of(besideEnded, (r) => r.perSecond);
  const oneTaskJobsBesideTimersRatio = round(oneTaskJobsBesideTimersPerSecond / oneTaskJobsBesideEndedPerSecond, 2);
  const plainjobJobsPerSecond = of(plain, (r) => r.perSecond);
  const rawClaimCompletePerSecond = of(raw, (r) => r.perSecond);
  const tasksPerSecond = of(ten8, (r) => r.perSecond);
  const cpuMsPerTask = of(ten8, (r) => r.cpuMsPerItem);
  const bytesPerJob = round(of(one, (r) => r.bytesPerItem));
  const equal = equalFigures(rounds, options.quick, tasksPerSecond, oneTaskJobsPerSecond, plainjobJobsPerSecond);
  const target = (value: number, goal: number, text: string, atMost = false) => ({ value: round(value, 3), target: text, met: atMost ? value <= goal : value >= goal });
  return {
    measuredAt: new Date().toISOString(),
    oneTaskJobsPerSecond,
    oneTaskJobsBesideTimersPerSecond,
    oneTaskJobsBesideEndedPerSecond,
    oneTaskJobsBesideTimersRatio,
    plainjobJobsPerSecond,
    liteQueueJobsPerSecond: of(lite, (r) => r.perSecond),
    rawClaimCompletePerSecond,
    rawClaimCompleteOnlyPerSecond: of(raw, (r) => r.claimCompleteOnlyPerSecond),
    storeClaimCompleteOnlyPerSecond: of(storeLayer, (r) => r.claimCompleteOnlyPerSecond),
    tasksPerSecond,
    tasksPerSecondConcurrency1: of(ten1, (r) => r.perSecond),
    cpuMsPerTask,
    cpuMsPerOneTaskJob: of(one, (r) => r.cpuMsPerItem),
    plainjobCpuMsPerJob: of(plain, (r) => r.cpuMsPerItem),
    liteQueueCpuMsPerJob: of(lite, (r) => r.cpuMsPerItem),
    rawCpuMsPerItem: of(raw, (r) => r.cpuMsPerItem),
    bytesPerJob,
    plainjobBytesPerJob: round(of(plain, (r) => r.bytesPerItem)),
    rawBytesPerItem: round(of(raw, (r) => r.bytesPerItem)),
    ...equal.figures,
    targets: {
      oneTaskJobsOverPlainjob: target(oneTaskJobsPerSecond / plainjobJobsPerSecond, 0.8, '>= 0.8 (issue 45)'),
      ...Object.fromEntries(Object.entries(equal.ratios).map(([name, value]) => [name, target(value, 0.8, '>= 0.8 (issue 45)')])),
      tasksOverRawSamePattern: target(tasksPerSecond / equal.figures.rawSamePatternTasksPerSecond, 0.35, '>= 0.35 (issue 45)'),
      cpuMsPerOneTaskJob: target(of(one, (r) => r.cpuMsPerItem), 0.15, '<= 0.15 (issue 45)', true),
      oneTaskJobsBesideTimersRatio: target(oneTaskJobsBesideTimersRatio, 0.9, '>= 0.9'),
      tasksOverRawClaimComplete: target(tasksPerSecond / rawClaimCompletePerSecond, 0.5, '>= 0.5'),
      tasksOverRawClaimCompleteOnly: target(tasksPerSecond / of(raw, (r) => r.claimCompleteOnlyPerSecond), 0.5, '>= 0.5 (claim + complete alone, the stricter reading)'),
      cpuMsPerTask: target(cpuMsPerTask, 0.3, '<= 0.3', true),
      bytesPerJob: target(bytesPerJob, 1000, '<= 1000 (issue 45)', true),
      storeOverRawClaimComplete: target(of(storeLayer, (r) => r.claimCompleteOnlyPerSecond) / of(raw, (r) => r.claimCompleteOnlyPerSecond), 0.8, '>= 0.8'),
    },
    rounds,
    roundCount: options.rounds,
    secondsPerRound: options.seconds,
    method: `${options.rounds} rounds, each system once per round (order turned each round), at least ${options.seconds} s each: batches of ${BATCH} tasks (${BATCH} one-task jobs, ${BATCH / 10} ten-task jobs) enqueued while the worker runs, at most one batch ahead, then the last awaited (enqueue + run); the median of all rounds, nothing dropped; every file in ${os.tmpdir()}`,
    ...(peersSkipped ? { peersSkipped } : {}),
  };
}

/**
 * `npm run bench -- engine`: these rounds, then the engine bench's own figures (engine.ts),
 * kept whole under `engineBench` (its `tasksPerSecond` is 1 worker on 100 prestarted jobs;
 * the top-level one is this file's 10-task jobs at concurrency 8). `--queues-only` leaves
 * engine.ts out; `--rounds N --seconds S` set these rounds; `--quick` leaves the 100,000-job
 * queues out; `--equal-only` runs only the systems of issue 45's equal-work figures.
 */
export async function benchEngineWithQueues(options: { json?: boolean } = {}) {
  const argv = process.argv.slice(2);
  const queues = await benchQueues(argv);
  let engineBench: Awaited<ReturnType<typeof benchEngine>> | undefined;
  let engineBenchFailed: string | undefined;
  if (!argv.includes('--queues-only')) {
    // The figures above are kept when engine.ts's part fails: its failure is reported beside them.
    try {
      engineBench = await benchEngine(options);
    } catch (error) {
      engineBenchFailed = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`engine.ts's part failed: ${engineBenchFailed}`);
    }
  }
  if (options.json) return { ...queues, ...(engineBench ? { engineBench } : {}), ...(engineBenchFailed ? { engineBenchFailed } : {}) };
  const t = queues.targets;
  return [
    `one-task jobs beside ${TIMERS} jobs waiting on timers: ${queues.oneTaskJobsBesideTimersPerSecond}/s, ${queues.oneTaskJobsBesideTimersRatio}× those beside ${TIMERS} ended ones, nothing waiting (${queues.oneTaskJobsBesideEndedPerSecond}/s; target >= 0.9)`,
    `one-task jobs (enqueue + run), the median of ${queues.roundCount} rounds: this engine ${queues.oneTaskJobsPerSecond}/s, plainjob ${queues.plainjobJobsPerSecond}/s, liteque ${queues.liteQueueJobsPerSecond}/s; raw node:sqlite insert+claim+complete ${queues.rawClaimCompletePerSecond}/s`,
    `10-task jobs: ${queues.tasksPerSecond} tasks/s at concurrency 8 (${queues.tasksOverRawSamePattern}× raw node:sqlite doing the engine's own write pattern, ${queues.rawSamePatternTasksPerSecond} tasks/s), ${queues.tasksPerSecondConcurrency1} at 1; cpuMsPerTask ${queues.cpuMsPerTask}, cpuMsPerOneTaskJob ${queues.cpuMsPerOneTaskJob} (plainjob ${queues.plainjobCpuMsPerJob}); ${queues.bytesPerJob} bytes per one-task job on disk (plainjob ${queues.plainjobBytesPerJob}, raw same pattern ${queues.rawSamePatternBytesPerOneTaskJob})`,
    ...Object.entries(queues.oneTaskJobsQueued).map(([n, q]) => `${n} one-task jobs queued at once, then run: this engine ${q.engineJobsPerSecond}/s, plainjob ${q.plainjobJobsPerSecond}/s: ${q.ratio}× (rounds ${q.ratioRounds.join(', ')}×)`),
    `one-task jobs beside a CPU-bound neighbour process: ${queues.oneTaskJobsRatioUnderLoad}× plainjob (rounds ${queues.oneTaskJobsRatioUnderLoadRounds.join(', ')}×); without it ${queues.oneTaskJobsRatioToPlainjob}×`,
    `targets: one-task jobs / plainjob ${t.oneTaskJobsOverPlainjob?.value} (${t.oneTaskJobsOverPlainjob?.target}), tasks / raw ${t.tasksOverRawClaimComplete?.value} (${t.tasksOverRawClaimComplete?.target}), CPU ms per task ${t.cpuMsPerTask?.value} (${t.cpuMsPerTask?.target}), bytes per job ${t.bytesPerJob?.value} (${t.bytesPerJob?.target}), store layer / raw claim + complete ${t.storeOverRawClaimComplete?.value} (${t.storeOverRawClaimComplete?.target}: ${queues.storeClaimCompleteOnlyPerSecond}/s against ${queues.rawClaimCompleteOnlyPerSecond}/s)`,
    ...(Array.isArray(engineBench) ? engineBench : []),
    ...(engineBenchFailed ? [`engine.ts's part failed: ${engineBenchFailed}`] : []),
  ];
}
