// A lab drill: two headless consoles started on this machine on one database, then the steps
// every drill shares (core/drills/flow.ts), the active site failing by kill -9 or a stop.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { startLab, startLabSite, type Lab } from './lab';
import { startLedger, type Ledger } from './ledger';
import { runDrillSteps } from './flow';
import { createDrillRun } from './runner';
import { applications } from './site-ops';
import type { DrillReport, LabDrillOptions } from './types';

export { WORKER_LEASE_MS } from './runner';

export async function runLabDrill(options: LabDrillOptions, onChange: (report: DrillReport) => void = () => undefined): Promise<DrillReport> {
  const run = createDrillRun('lab', options, onChange);
  const { report, step } = run;
  let ledger: Ledger | undefined;
  let lab: Lab | undefined;
  // A folder the drill made (the sites' data directories, their profiles, the database file) goes with it.
  let madeDir: string | undefined;
  try {
    const ledgerStarted = await step('Start the ledger of side effects', async (s) => {
      const started = await startLedger();
      s.detail = started.url;
      return started;
    });
    ledger = ledgerStarted;
    madeDir = options.dir ? undefined : await mkdtemp(path.join(os.tmpdir(), 'dr-lab-'));
    const dir = options.dir ?? madeDir ?? '';
    lab = await step('Start the lab: two consoles on one database', async (s) => {
      const started = await startLab({ dir, ledgerUrl: ledgerStarted.url, mongoUrl: options.mongoUrl, standbyProcessTasksOnStart: options.standbyProcessTasksOnStart });
      lab = started;
      // The standby as the Manual Failover procedure prepares it: its applications stopped (unless
      // the drill rehearses a misconfigured standby).
      const standbyApps = options.standbyProcessTasksOnStart ? 'standby left as configured' : `standby: ${await applications(started.standby.site, 'stop')}`;
      s.detail = `in ${dir}: active ${started.active.site.ref.url} (pid ${started.active.process.pid}), standby ${started.standby.site.ref.url} (pid ${started.standby.process.pid}); ${started.database}; ${standbyApps}`;
      return started;
    });
    const theLab = lab;
    report.database = theLab.database;
    const { active } = theLab;
    await runDrillSteps({ run, ledger, options, source: options.source }, { active: active.site, standby: lab.standby.site }, {
      name: options.failure === 'kill' ? 'Failure: kill -9 of the active site' : 'Failure: stop the task worker and applications of the active site',
      after: options.failure === 'kill' ? 'killed' : 'task worker and applications stopped',
      // A killed site's tasks are taken from it as soon as its heartbeat stops; a stopped worker handed its tasks back itself.
      declaresGone: options.failure === 'kill',
      async fail() {
        if (options.failure === 'kill') {
          await active.kill('SIGKILL');
          return `pid ${active.process.pid} killed`;
        }
        await active.site.call('POST', '/workflow_engine/taskWorker/deactivate');
        return `task worker of ${active.site.name} stopped; ${await applications(active.site, 'stop')}`;
      },
      async revive() {
        if (active.alive()) return { site: active.site };
        theLab.active = await startLabSite(active);
        return { site: theLab.active.site, note: `active restarted at ${theLab.active.site.ref.url} (pid ${theLab.active.process.pid})` };
      },
    });
    run.judge();
  } catch (error) {
    run.failed(error);
    if (lab) report.leftAs = `${report.leftAs ? `${report.leftAs}. ` : ''}The lab is stopped after the failure: active ${lab.active.alive() ? 'was running' : 'was down'}, standby ${lab.standby.alive() ? 'was running' : 'was down'}`;
  } finally {
    report.endedAt = Date.now();
    await lab?.close().catch((error: Error) => (report.error = `${report.error ?? ''} (stopping the lab: ${error.message})`.trim()));
    // Said in the report, as a lab that does not stop is: the caller sees it.
    await ledger?.close().catch((error: Error) => (report.error = `${report.error ?? ''} (stopping the ledger of side effects: ${error.message})`.trim()));
    if (madeDir) await rm(madeDir, { recursive: true, force: true }).catch((error: Error) => (report.error = `${report.error ?? ''} (removing the lab's folder ${madeDir}: ${error.message})`.trim()));
    run.changed();
  }
  return report;
}
