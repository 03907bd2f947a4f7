// Where the engine's time goes (`npm run bench -- profile`): a CPU profile (V8's sampling
// profiler, what `node --cpu-prof` writes, taken here through node:inspector) of one round of
// one-task jobs and one of 10-task jobs (8 at once, enqueue + run, after a round not profiled),
// its self time summed by part of the code, and the functions with the most self time.
// SQLite's work shows as node:sqlite's native calls (run, get, all, exec), counted with the store's
// function that made them: a commit or savepoint, or a statement.
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { StatementSync } from 'node:sqlite';
import { engineRound } from './engine-round';
import { round } from './engine-support';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The parts self time is summed by: the first whose test matches a frame takes it. */
const PARTS: { part: string; test: (fn: string, file: string) => boolean }[] = [
  { part: 'commits and savepoints (SQLite, and the group commit around them)', test: (fn, file) => file.endsWith('embedded/database.ts') && /runGroup|beginGroup|writeSync|checkpoint/.test(fn) },
  { part: 'the store\'s statements (SQLite, and the code that runs them)', test: (_fn, file) => /embedded\/(collection|columns|database|changes|store)\.ts$/.test(file) },
  { part: 'mongo_update: documents parsed, updated and written in JavaScript', test: (_fn, file) => /embedded\/(update-function|update)\.ts$/.test(file) },
  { part: 'documents decoded and encoded (codec)', test: (_fn, file) => file.endsWith('embedded/codec.ts') },
  { part: 'filters compiled to SQL', test: (_fn, file) => /embedded\/(sql|match|operators)\.ts$/.test(file) },
  { part: 'the engine (jobs, queue, worker)', test: (_fn, file) => file.includes('/core/engine/') },
  { part: 'the rest of the store', test: (_fn, file) => file.includes('/core/store/') },
  { part: 'garbage collection', test: (fn) => fn === '(garbage collector)' },
  { part: 'idle (waiting for a timer or I/O)', test: (fn) => fn === '(idle)' },
  { part: 'promises, async hooks, timers (Node)', test: (_fn, file) => file.startsWith('node:') },
];

/** node:sqlite's statement calls: native frames (no script) of these names, SQLite's own work. */
const NATIVE_SQLITE = new Set(['run', 'get', 'all', 'iterate', 'exec']);

function summarise(profile: Profile) {
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const parts = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { functionName, url } = node.callFrame;
    // The profiler's own calls (Profiler.stop serialising the profile) are not the engine's time.
    if (!us || url === 'node:inspector') continue;
    total += us;
    const fn = functionName || '(anonymous)';
    const file = url.replace(/^file:\/\//, '');
    const caller = parent.get(node.id);
    // A native statement call is SQLite's work, counted with what called it (a commit, or a statement of the store).
    const [asFn, asFile] = !url && NATIVE_SQLITE.has(fn) && caller ? [caller.callFrame.functionName, caller.callFrame.url.replace(/^file:\/\//, '')] : [fn, file];
    const part = PARTS.find((p) => p.test(asFn, asFile))?.part ?? 'other (bench, loader, runtime)';
    parts.set(part, (parts.get(part) ?? 0) + us);
    const where = file ? file.split('/').slice(-2).join('/') : asFile ? `(SQLite, from ${asFn || 'anonymous'} in ${asFile.split('/').slice(-2).join('/')})` : '';
    const name = where ? `${fn} ${where}` : fn;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const share = (us: number) => round((us / (total || 1)) * 100, 1);
  return {
    sampledMs: round(total / 1000),
    parts: [...parts].sort((a, b) => b[1] - a[1]).map(([part, us]) => ({ part, percent: share(us) })),
    topFunctions: [...functions].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([name, us]) => ({ name, percent: share(us) })),
  };
}

async function profiled(steps: number, seconds: number) {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const work = await engineRound(seconds, steps, 8);
    const { profile } = await session.post('Profiler.stop');
    return { jobs: work.items, tasks: work.tasks, perSecond: round(work.tasks / (work.elapsedMs / 1000)), ...summarise(profile as Profile) };
  } finally {
    session.disconnect();
  }
}

/** The statements one round of jobs runs, per job, by their first words (node:sqlite's calls counted, not profiled). */
async function statementsPerJob(steps: number): Promise<{ perJob: number; byKind: Record<string, number> }> {
  const counts = new Map<string, number>();
  const originals = (['run', 'get', 'all', 'iterate'] as const).map((method) => [method, Reflect.get(StatementSync.prototype, method) as (...args: unknown[]) => unknown] as const);
  for (const [method, original] of originals) {
    Reflect.set(StatementSync.prototype, method, function (this: StatementSync, ...args: unknown[]) {
      const kind = this.sourceSQL.replace(/\s+/g, ' ').split(' ').slice(0, 3).join(' ').replace(/\($/, '');
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      return Reflect.apply(original, this, args);
    });
  }
  let jobs: number;
  try {
    jobs = (await engineRound(1, steps, 8)).items;
  } finally {
    for (const [method, original] of originals) Reflect.set(StatementSync.prototype, method, original);
  }
  const byKind = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([kind, n]) => [kind, round(n / jobs, 2)]));
  return { perJob: round([...counts.values()].reduce((a, b) => a + b, 0) / jobs, 1), byKind };
}

export async function benchProfile(): Promise<object> {
  const argv = process.argv.slice(2);
  const seconds = argv.includes('--seconds') ? Number(argv[argv.indexOf('--seconds') + 1]) : 5;
  await engineRound(2, 1, 8);
  await engineRound(2, 10, 8);
  const oneTask = await profiled(1, seconds);
  const tenTask = await profiled(10, seconds);
  const statements = { oneTask: await statementsPerJob(1), tenTask: await statementsPerJob(10) };
  for (const [name, p] of [['one-task jobs', oneTask], ['10-task jobs', tenTask]] as const) {
    console.log(`${name}: ${p.perSecond} tasks/s over ${p.sampledMs} ms sampled`);
    for (const part of p.parts) console.log(`  ${part.percent} %  ${part.part}`);
  }
  return { oneTask, tenTask, statements, loadAverage: round(os.loadavg()[0] ?? 0, 2), method: `V8's sampling CPU profiler (every 200 µs) over one round of ${seconds} s of each workload (8 jobs at once, enqueue + run), after a round of each not profiled; self time summed by part of the code` };
}
