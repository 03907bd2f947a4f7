// RTO of drills beside the task worker's lease, DRILL_BENCH_RUNS drills each (5 unless set),
// DRILL_BENCH_JOBS jobs each (100 unless set). The figure is RTO / lease; drain is beside it.
// Lab drills: kill -9 of the active site and a graceful stop. Sites drills (two consoles driven
// by URL and token only): a stop over the API, and "gone" (the active killed at the failure point,
// never called again; restarted behind the same URL for failback). DRILL_BENCH_KINDS=lab,sites.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runLabDrill, WORKER_LEASE_MS } from '../core/drills/run';
import { runSitesDrill } from '../core/drills/sites';
import { startLab, startLabSite } from '../core/drills/lab';
import type { DrillReport } from '../core/drills/types';
import { recordingProxy } from '../test/drills/support';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

function row(name: string, reports: DrillReport[]) {
  const rto = reports.map((r) => r.rtoMs!);
  return {
    failure: name,
    drills: reports.length,
    'RTO median ms': median(rto),
    'RTO max ms': Math.max(...rto),
    'lease ms': WORKER_LEASE_MS,
    'RTO / lease': +(median(rto) / WORKER_LEASE_MS).toFixed(3),
    'drain median ms': median(reports.map((r) => r.drainMs ?? NaN)),
    'side effects repeated': reports.reduce((n, r) => n + r.sideEffectsRepeated, 0),
  };
}

function check(report: DrillReport, what: string) {
  if (report.status !== 'done' || report.rtoMs === null) throw new Error(`drill ${what} failed: ${report.error}`);
  return report;
}

export async function benchDrills() {
  const runs = Number(process.env.DRILL_BENCH_RUNS ?? 5);
  const jobs = Number(process.env.DRILL_BENCH_JOBS ?? 100);
  const kinds = (process.env.DRILL_BENCH_KINDS ?? 'lab,sites').split(',');
  const embedded = readFileSync(path.join(ROOT, 'core/store/open.ts'), 'utf8').includes('embeddedProps');
  // Without a store that shares one embedded file, both sites share a MongoDB-wire test server.
  const mongo = embedded ? undefined : await (await import('../test/store/jongodb')).startJongodb();
  console.log(`${runs} drills per failure, ${jobs} jobs of 3 tasks each; database: ${embedded ? 'one embedded SQLite file' : 'jongodb (MongoDB wire)'}; lease ${WORKER_LEASE_MS} ms`);
  const rows = [];
  try {
    if (kinds.includes('lab')) {
      for (const failure of ['kill', 'stop'] as const) {
        const reports: DrillReport[] = [];
        for (let i = 0; i < runs; i++) reports.push(check(await runLabDrill({ jobs, failure, failback: false, mongoUrl: mongo?.url }), `lab ${failure} #${i + 1}`));
        rows.push(row(failure === 'kill' ? 'lab: kill -9' : 'lab: graceful stop', reports));
      }
    }
    if (kinds.includes('sites')) rows.push(...(await benchSites(runs, jobs, mongo?.url)));
  } finally {
    await mongo?.stop();
  }
  return rows;
}

async function benchSites(runs: number, jobs: number, mongoUrl: string | undefined) {
  const lab = await startLab({ dir: await mkdtemp(path.join(os.tmpdir(), 'dr-bench-sites-')), ledgerUrl: '', mongoUrl });
  // The active site behind one URL even when its console is restarted (failback after "gone").
  const proxy = await recordingProxy(() => lab.active.site.ref.url);
  const rows = [];
  try {
    for (const app of ['OperationsManager', 'AutomationCatalog']) await lab.standby.site.call('PUT', `/applications/${app}/stop`);
    const sites = () => ({ active: { url: proxy.url, token: lab.active.site.ref.token }, standby: lab.standby.site.ref });
    for (const failure of ['stop', 'gone'] as const) {
      const reports: DrillReport[] = [];
      for (let i = 0; i < runs; i++) {
        let killed: Promise<void> | undefined;
        let restarted: Promise<void> | undefined;
        const report = await runSitesDrill({ ...sites(), jobs, failure, failback: true }, (r) => {
          if (failure !== 'gone') return;
          if (!killed && r.steps.some((s) => s.name.startsWith('Failure'))) killed = lab.active.kill('SIGKILL');
          if (killed && !restarted && r.steps.some((s) => s.name.startsWith('Failback'))) restarted = killed.then(async () => void (lab.active = await startLabSite(lab.active)));
        });
        await restarted;
        reports.push(check(report, `sites ${failure} #${i + 1}`));
      }
      rows.push(row(failure === 'stop' ? 'sites: stop over the API' : 'sites: gone (killed, not called)', reports));
    }
  } finally {
    await lab.close();
    await proxy.close();
  }
  return rows;
}
