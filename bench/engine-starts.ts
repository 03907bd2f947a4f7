// One-task job starts with no worker running (`npm run bench -- starts`): 10,000 started one after
// another (each awaited, a commit each) and 10,000 started at once (group commits), in alternating
// rounds on a fresh file each; wall and CPU time per start, the median of the rounds.
import os from 'node:os';
import { rm } from 'node:fs/promises';
import { median, openBenchEngine, round } from './engine-support';

const STARTS = 10_000;
type Way = 'one after another' | 'at once';

async function startRound(way: Way) {
  const { dir, store, engine } = await openBenchEngine({ steps: 1, processTasksOnStart: false });
  try {
    const start = (i: number) => engine.runner.start('bench', { variables: { text: `job ${i}` } });
    const cpu = process.cpuUsage();
    const began = performance.now();
    if (way === 'at once') await Promise.all(Array.from({ length: STARTS }, (_v, i) => start(i)));
    else for (let i = 0; i < STARTS; i++) await start(i);
    const wallMs = performance.now() - began;
    const used = process.cpuUsage(cpu);
    await engine.close();
    const running = await store.collection('jobs').count({ status: 'running' });
    if (running !== STARTS) throw new Error(`bench: ${running} of ${STARTS} started jobs found`);
    return { way, msPerStart: round(wallMs / STARTS, 3), cpuMsPerStart: round((used.user + used.system) / 1000 / STARTS, 3), loadAverage: round(os.loadavg()[0] ?? 0, 2) };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchStarts(): Promise<object> {
  const ways: Way[] = ['one after another', 'at once'];
  await startRound('at once');
  const rounds: ({ round: number } & Awaited<ReturnType<typeof startRound>>)[] = [];
  for (let r = 0; r < 3; r++) {
    for (let k = 0; k < ways.length; k++) {
      const row = { round: r + 1, ...(await startRound(ways[(r + k) % ways.length]!)) };
      rounds.push(row);
      console.log(`round ${row.round}, ${STARTS} starts ${row.way}: ${row.msPerStart} ms and ${row.cpuMsPerStart} CPU ms per start; load ${row.loadAverage}`);
    }
  }
  return {
    ways: ways.map((way) => {
      const mine = rounds.filter((r) => r.way === way);
      return { way, msPerStart: median(mine.map((r) => r.msPerStart)), cpuMsPerStart: median(mine.map((r) => r.cpuMsPerStart)) };
    }),
    rounds,
    method: `${STARTS} one-task job starts by the engine (no worker running) on a fresh file each, one after another (each awaited) or all at once; 3 rounds after a warm-up, order turned; medians`,
  };
}
