// A drill between two sites given by URL and token (the local console may be one of them):
// each called only over its API, the active site failing by a stop of its task worker and
// applications, or "gone": the operator has cut it off, and the drill calls it no more.
import { startLedger, type Ledger } from './ledger';
import { runDrillSteps } from './flow';
import { createDrillRun, waitUntil } from './runner';
import { applications } from './site-ops';
import { Site } from './site';
import type { DrillReport, SitesDrillOptions } from './types';

export const FAILBACK_WAIT_MS = 300_000;

export async function runSitesDrill(options: SitesDrillOptions, onChange: (report: DrillReport) => void = () => undefined): Promise<DrillReport> {
  const run = createDrillRun('sites', options, onChange);
  const { report, step } = run;
  const active = new Site({ name: 'active', ...options.active });
  const standby = new Site({ name: 'standby', ...options.standby });
  let ledger: Ledger | undefined;
  try {
    ledger = await step('Start the ledger of side effects', async (s) => {
      const started = await startLedger(100, options.ledgerHost);
      s.detail = `${started.url} (both sites must reach it)`;
      return started;
    });
    await step('Both sites answer', async (s) => {
      const status = (site: Site) => site.call<{ serverId: string; serverName: string; store: string }>('GET', '/health/status');
      const [a, b] = await Promise.all([status(active), status(standby)]);
      if (a.serverId === b.serverId) throw new Error(`${active.ref.url} and ${standby.ref.url} are the same console (server ${a.serverId}): give two sites`);
      report.database = `${a.store} (active), ${b.store} (standby)`;
      s.detail = `active ${a.serverName} at ${active.ref.url}; standby ${b.serverName} at ${standby.ref.url}`;
    });
    const gone = options.failure === 'gone';
    await runDrillSteps({ run, ledger, options, source: options.source }, { active, standby }, {
      name: gone ? 'Failure: the active site is gone (no call to it from here on)' : 'Failure: stop the task worker and applications of the active site',
      after: gone ? 'gone: cut off by the operator, not called since the failure' : 'task worker and applications stopped',
      // The operator declared it gone: its tasks are taken from it once its heartbeat stops.
      declaresGone: gone,
      async fail() {
        if (gone) return `${active.name} (${active.ref.url}) is taken as cut off by the operator: the drill calls it no more`;
        await active.call('POST', '/workflow_engine/taskWorker/deactivate');
        return `task worker of ${active.name} stopped; ${await applications(active, 'stop')}`;
      },
      async revive() {
        if (!gone) return { site: active };
        // A gone site comes back when the operator restores it: failback waits for it to answer.
        const bound = options.failbackWaitMs ?? FAILBACK_WAIT_MS;
        await waitUntil(`${active.name} (${active.ref.url}) to answer again within ${bound / 1000} s: restore it, then run failback`, bound, async () => {
          try {
            await active.call('GET', '/health/status', undefined, 2_000);
            return true;
          } catch {
            return false; // still gone: asked again until the bound
          }
        }, 1_000);
        return { site: active, note: `${active.name} answers again` };
      },
    });
    run.judge();
  } catch (error) {
    run.failed(error);
    report.leftAs ??= 'neither site was changed: the drill stopped before it called them for any change';
  } finally {
    report.endedAt = Date.now();
    // Said in the report, as a lab that does not stop is: the caller sees it.
    await ledger?.close().catch((error: Error) => (report.error = `${report.error ?? ''} (stopping the ledger of side effects: ${error.message})`.trim()));
    run.changed();
  }
  return report;
}
