// RTO of drills beside the task worker's lease, DRILL_BENCH_RUNS drills each (5 unless set),
// DRILL_BENCH_JOBS jobs each (100 unless set). The figure is RTO / lease; drain is beside it.
// Lab drills: kill -9 of the active site and a graceful stop. Sites drills (two consoles driven
// by URL and token only): a stop over the API, and "gone" (the active killed at the failure point,
// never called again; restarted behind the same URL for failback). DRILL_BENCH_KINDS=lab,sites,own
// (own: the sites drill's "gone" with load "workflows": the fixture "Update Change Request -
// Example" on a simulated Servicenow instead of the ledger workflow; not run unless named).
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runLabDrill, WORKER_LEASE_MS } from '../core/drills/run';
import { runSitesDrill } from '../core/drills/sites';
import { startLab, startLabSite } from '../core/drills/lab';
import type { DrillReport } from '../core/drills/types';
import type { WorkflowSource } from '../core/drills/own-workflows';
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
    'drain max ms': Math.max(...reports.map((r) => r.drainMs ?? NaN)),
    'side effects repeated': reports.reduce((n, r) => n + r.sideEffectsRepeated, 0),
    'task records completed twice': reports.reduce((n, r) => n + r.taskRecordsCompletedTwice, 0),
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
  console.log(`${runs} drills per failure, ${jobs} jobs each (3 ledger tasks, or the own workflow's transformation and adapter call); database: ${embedded ? 'one embedded SQLite file' : 'jongodb (MongoDB wire)'}; lease ${WORKER_LEASE_MS} ms`);
  const rows = [];
  try {
    if (kinds.includes('lab')) {
      for (const failure of ['kill', 'stop'] as const) {
        const reports: DrillReport[] = [];
        for (let i = 0; i < runs; i++) reports.push(check(await runLabDrill({ jobs, failure, failback: false, mongoUrl: mongo?.url }), `lab ${failure} #${i + 1}`));
        rows.push(row(failure === 'kill' ? 'lab: kill -9' : 'lab: graceful stop', reports));
      }
    }
    const variants = [
      ...(kinds.includes('sites') ? (['stop', 'gone'] as const).map((failure) => ({ failure, name: failure === 'stop' ? 'sites: stop over the API' : 'sites: gone (killed, not called)' })) : []),
      ...(kinds.includes('own') ? [{ failure: 'gone' as const, name: `sites: gone, "${OWN_WORKFLOW}" on simulated instances`, own: true }] : []),
    ];
    if (variants.length) rows.push(...(await benchSites(variants, { runs, jobs }, mongo?.url)));
  } finally {
    await mongo?.stop();
  }
  return rows;
}

const FIXTURE = path.join(ROOT, 'test/fixtures/iap/prebuilts/Instance-Check-Example/bundles');
const OWN_WORKFLOW = 'Update Change Request - Example';
const readAll = (kind: string): Record<string, unknown>[] => readdirSync(path.join(FIXTURE, kind)).map((f) => JSON.parse(readFileSync(path.join(FIXTURE, kind, f), 'utf8')));

/** The options of a drill of the project's fixture workflow (load: workflows), read from its files as this console would answer them. */
function ownWorkflowOptions() {
  const source: WorkflowSource = {
    workflow: async (name) => readAll('workflows').find((w) => w.name === name),
    transformation: async (id) => readAll('transformations').find((t) => t._id === id),
  };
  // The change request its transformation reads (its incoming schema's examples).
  return { source, workflows: [OWN_WORKFLOW], variables: { [OWN_WORKFLOW]: { changeRequest: { response: [{ id: 'chg-1', current_state: '1' }] }, comments: 'bench', state: 'Closed' } } };
}

async function benchSites(variants: { failure: 'stop' | 'gone'; name: string; own?: boolean }[], { runs, jobs }: { runs: number; jobs: number }, mongoUrl: string | undefined) {
  const lab = await startLab({ dir: await mkdtemp(path.join(os.tmpdir(), 'dr-bench-sites-')), ledgerUrl: '', mongoUrl });
  // The active site behind one URL even when its console is restarted (failback after "gone").
  const proxy = await recordingProxy(() => lab.active.site.ref.url);
  const rows = [];
  try {
    for (const app of ['OperationsManager', 'AutomationCatalog']) await lab.standby.site.call('PUT', `/applications/${app}/stop`);
    const sites = () => ({ active: { url: proxy.url, token: lab.active.site.ref.token }, standby: lab.standby.site.ref });
    for (const { failure, name, own } of variants) {
      const reports: DrillReport[] = [];
      for (let i = 0; i < runs; i++) {
        let killed: Promise<void> | undefined;
        let restarted: Promise<void> | undefined;
        const report = await runSitesDrill({ ...sites(), jobs, failure, failback: true, ...(own ? ownWorkflowOptions() : {}) }, (r) => {
          if (failure !== 'gone') return;
          if (!killed && r.steps.some((s) => s.name.startsWith('Failure'))) killed = lab.active.kill('SIGKILL');
          if (killed && !restarted && r.steps.some((s) => s.name.startsWith('Failback'))) restarted = killed.then(async () => void (lab.active = await startLabSite(lab.active)));
        });
        await restarted;
        reports.push(check(report, `${name} #${i + 1}`));
      }
      rows.push(row(name, reports));
    }
  } finally {
    await lab.close();
    await proxy.close();
  }
  return rows;
}
