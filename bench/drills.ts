// RTO of lab drills beside the task worker's lease: kill -9 of the active site and a graceful
// stop (its worker and applications stopped), DRILL_BENCH_RUNS drills each (5 unless set),
// DRILL_BENCH_JOBS jobs each (100 unless set). The figure is RTO / lease; drain is beside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLabDrill, WORKER_LEASE_MS } from '../core/drills/run';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function benchDrills() {
  const runs = Number(process.env.DRILL_BENCH_RUNS ?? 5);
  const jobs = Number(process.env.DRILL_BENCH_JOBS ?? 100);
  const embedded = readFileSync(path.join(ROOT, 'core/store/open.ts'), 'utf8').includes('embeddedProps');
  // Without a store that shares one embedded file, both sites share a MongoDB-wire test server.
  const mongo = embedded ? undefined : await (await import('../test/store/jongodb')).startJongodb();
  console.log(`${runs} drills per failure, ${jobs} jobs of 3 tasks each; database: ${embedded ? 'one embedded SQLite file' : 'jongodb (MongoDB wire)'}; lease ${WORKER_LEASE_MS} ms`);
  const rows = [];
  try {
    for (const failure of ['kill', 'stop'] as const) {
      const rto: number[] = [];
      const drain: number[] = [];
      let repeated = 0;
      for (let i = 0; i < runs; i++) {
        const report = await runLabDrill({ jobs, failure, failback: false, mongoUrl: mongo?.url });
        if (report.status !== 'done' || report.rtoMs === null) throw new Error(`drill ${failure} #${i + 1} failed: ${report.error}`);
        rto.push(report.rtoMs);
        drain.push(report.drainMs ?? NaN);
        repeated += report.sideEffectsRepeated;
      }
      const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
      rows.push({
        failure: failure === 'kill' ? 'kill -9' : 'graceful stop',
        drills: runs,
        'RTO median ms': median(rto),
        'RTO max ms': Math.max(...rto),
        'lease ms': WORKER_LEASE_MS,
        'RTO / lease': +(median(rto) / WORKER_LEASE_MS).toFixed(3),
        'drain median ms': median(drain),
        'side effects repeated': repeated,
      });
    }
  } finally {
    await mongo?.stop();
  }
  return rows;
}
