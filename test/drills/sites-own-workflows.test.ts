// A sites drill of the operator's own workflow (load: "workflows") instead of the ledger workflow:
// two headless consoles the test starts on one database are the sites, a third console (this
// console, POST /drills/sites) holds the project's fixture "Update Change Request - Example" (a
// JST, then Servicenow.updateChangeRequest, an adapter neither site has). The drill copies it to
// the sites, simulates Servicenow, and the active site is cut off ("gone") with tasks in flight.
import os from 'node:os';
import path from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, type Lab } from '../../core/drills/lab';
import type { DrillReport } from '../../core/drills/types';
import { startTestHost, type TestHost } from '../support/host';
import { sharedDatabase, sitesDrillOver } from './support';

const BUNDLES = path.resolve(import.meta.dirname, '../fixtures/iap/prebuilts/Instance-Check-Example/bundles');
const WORKFLOW = 'Update Change Request - Example';
// The change request the transformation reads (its incoming schema's examples).
const VARIABLES = { changeRequest: { response: [{ id: 'chg-1', current_state: '1' }] }, comments: 'drilled', state: 'Closed' };

function readAll(kind: string): Record<string, unknown>[] {
  return readdirSync(path.join(BUNDLES, kind)).map((f) => JSON.parse(readFileSync(path.join(BUNDLES, kind, f), 'utf8')));
}

const database = await sharedDatabase();
if ('unavailable' in database) console.warn(`[sites drill, own workflows] skipped: ${database.unavailable}`);

describe.skipIf('unavailable' in database)('a sites drill of a fixture workflow on simulated instances', () => {
  const mongo = 'mongo' in database ? database.mongo : undefined;
  let host: TestHost;
  let lab: Lab;
  const site = (which: 'active' | 'standby') => ({ url: lab[which].site.ref.url, token: lab[which].site.ref.token });

  const drill = (body: Record<string, unknown>, onReport?: (r: DrillReport) => void) => sitesDrillOver(host, body, onReport);

  beforeAll(async () => {
    host = await startTestHost();
    // The operator's workflow is in this console's profile, not on the sites.
    const transformations = readAll('transformations');
    expect((await host.api('/transformations/import', { method: 'POST', json: { transformations } })).status).toBe(200);
    const workflow = readAll('workflows').find((w) => w.name === WORKFLOW);
    const created = await host.api('/workflows', { method: 'POST', json: workflow });
    expect(created.status, await created.clone().text()).toBeLessThan(300);
    lab = await startLab({ dir: await mkdtemp(path.join(os.tmpdir(), 'dr-sites-own-')), ledgerUrl: '', mongoUrl: mongo?.url });
    // The operator prepared the standby as the Manual Failover procedure asks.
    for (const app of ['OperationsManager', 'AutomationCatalog']) await lab.standby.site.call('PUT', `/applications/${app}/stop`);
  }, 180_000);
  afterAll(async () => {
    await lab?.close();
    await host?.dispose();
    await mongo?.stop();
  });

  it('refuses a load of workflows this console does not have, or of none, naming body.workflows; and an unknown load naming body.load', async () => {
    const post = (json: Record<string, unknown>) => host.api('/drills/sites', { method: 'POST', json: { active: site('active'), standby: site('standby'), ...json } });
    const unknown = await post({ load: 'workflows', workflows: [WORKFLOW, 'No such workflow'] });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toBe('body.workflows: the active profile has no workflow named "No such workflow"');
    const none = await post({ load: 'workflows' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toContain('body.workflows');
    const badLoad = await post({ load: 'mine', workflows: [WORKFLOW] });
    expect(badLoad.status).toBe(400);
    expect(JSON.stringify(await badLoad.json())).toContain('body.load');
  });

  it('stops before any change where a task would reach a real adapter instance, naming the site, task and instance', async () => {
    // A real (http-request) instance named as the workflow's task calls it: Servicenow.
    const real = { id: 'Servicenow', type: 'HttpRequest', properties: { allowedBaseUrls: ['http://127.0.0.1:9/'], timeoutMs: 1_000, maxRedirects: 0, headers: {}, stub: false, healthcheck: { type: 'startup', frequency: 60_000 } }, groups: [], brokers: [] };
    await lab.active.site.call('POST', '/adapters', { properties: real });
    try {
      const report = await drill({ active: site('active'), standby: site('standby'), jobs: 4, load: 'workflows', workflows: [WORKFLOW], variables: { [WORKFLOW]: VARIABLES } });
      expect(report.status).toBe('failed');
      const check = report.steps.find((s) => s.name === 'Check: the chosen workflows call simulated adapter instances only');
      expect(check?.ok).toBe(false);
      expect(check?.error).toContain(`active: task c2b2 (Servicenow.updateChangeRequest) of "${WORKFLOW}" would call the real adapter instance "Servicenow"`);
      expect(report.steps.map((s) => s.name)).toEqual(['Start the ledger of side effects', 'Both sites answer', 'Check: the chosen workflows call simulated adapter instances only']);
      // Nothing was copied: the sites still lack the workflow.
      await expect(lab.standby.site.call('GET', `/workflows/${encodeURIComponent(WORKFLOW)}`)).rejects.toThrow(/404/);
    } finally {
      await lab.active.site.call('DELETE', '/adapters/Servicenow');
    }
  }, 120_000);

  it('runs the chosen workflow on simulated instances; the cut-off site is fenced; every job ends, none lost or completed twice', async () => {
    let killed: Promise<void> | undefined;
    const report = await drill({ active: site('active'), standby: site('standby'), jobs: 20, failure: 'gone', load: 'workflows', workflows: [WORKFLOW], variables: { [WORKFLOW]: VARIABLES } }, (r) => {
      // The operator cut the site off: its process dies with its tasks in flight.
      if (!killed && r.steps.some((s) => s.name.startsWith('Failure: the active site is gone'))) killed = lab.active.kill('SIGKILL');
    });
    await killed;
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ kind: 'sites', status: 'done', passed: true, load: 'workflows', workflows: [WORKFLOW], jobs: 20, jobsCompleted: 20, tasksLost: 0, taskRecordsCompletedTwice: 0 });

    // What was copied where: the workflow and its JST to the active site; the standby, on the same database, read them from there.
    const prepare = report.steps.find((s) => s.name.startsWith('Prepare both sites'))!;
    expect(prepare.detail).toContain(`1 workflows ("${WORKFLOW}") and 1 transformations copied where missing (2 copied to active, standby had them already)`);
    expect(prepare.detail).toMatch(/simulated: Servicenow \(simulated\) on active/);
    expect(report.sites[0]!.changes).toEqual(expect.arrayContaining([`workflow "${WORKFLOW}" copied (load: workflows)`, 'simulated instance "Servicenow" created (load: workflows)']));
    expect(report.readiness.find((i) => i.id === `workflow:${WORKFLOW}`)?.state).toBe('pass');

    expect(report.steps.map((s) => s.name)).toContain(`Load: 20 jobs of "${WORKFLOW}" (round-robin, on simulated instances)`);
    expect(report.steps.find((s) => s.name.startsWith('Failover'))!.detail).toMatch(/active declared gone once its heartbeat stopped: \d+ of its tasks queued again at once \(fenced\)/);
    // One updateChangeRequest per job; one in flight on the cut-off site may have been answered there and again on the standby.
    expect(report.simulatedCalls?.map((c) => [c.instance, c.method])).toEqual([['Servicenow', 'updateChangeRequest']]);
    const calls = report.simulatedCalls![0]!.calls;
    expect(calls).toBeGreaterThanOrEqual(20);
    expect(report.sideEffects).toBe(calls);
    expect(report.steps.find((s) => s.name.startsWith('Verify'))!.detail).toContain(`simulated calls: Servicenow.updateChangeRequest ${calls}`);
    // The exported report says what the load ran.
    const html = (await (await host.api(`/drills/${report.id}/export?format=html`)).json()) as { content: string };
    expect(html.content).toContain(`<td>Load</td><td>&#34;${WORKFLOW}&#34; on simulated instances; simulated calls: Servicenow.updateChangeRequest ${calls}</td>`);
  }, 300_000);
});
