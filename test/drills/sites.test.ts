// Drills between two sites given by URL and token: two headless consoles the test starts on one
// database, driven only through the sites operation (POST /drills/sites) of a third console.
// A critical workflow that needs a missing adapter fails readiness naming it; a stop drill with
// persisted processTasksOnStart and failback; a "gone" drill in which the active site is killed
// at the failure point and never called again.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLab, startLabSite, type Lab } from '../../core/drills/lab';
import { WORKER_LEASE_MS } from '../../core/drills/runner';
import type { DrillReport } from '../../core/drills/types';
import { startTestHost, type TestHost } from '../support/host';
import { recordingProxy, sharedDatabase, sitesDrillOver } from './support';

const database = await sharedDatabase();
if ('unavailable' in database) console.warn(`[sites drill] skipped: ${database.unavailable}`);

describe.skipIf('unavailable' in database)('drills between two sites given by URL and token', () => {
  const mongo = 'mongo' in database ? database.mongo : undefined;
  let host: TestHost;
  let lab: Lab;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  const site = (which: 'active' | 'standby') => ({ url: which === 'active' ? proxy.url : lab.standby.site.ref.url, token: lab[which].site.ref.token });

  const drill = (body: Record<string, unknown>, onReport?: (r: DrillReport) => void) => sitesDrillOver(host, body, onReport);

  beforeAll(async () => {
    host = await startTestHost();
    lab = await startLab({ dir: await mkdtemp(path.join(os.tmpdir(), 'dr-sites-')), ledgerUrl: '', mongoUrl: mongo?.url });
    // Every call the drill makes to the active site goes through this proxy, which notes its time.
    proxy = await recordingProxy(() => lab.active.site.ref.url);
    // The operator prepared the standby as the Manual Failover procedure asks.
    for (const app of ['OperationsManager', 'AutomationCatalog']) await lab.standby.site.call('PUT', `/applications/${app}/stop`);
  }, 180_000);
  afterAll(async () => {
    await lab?.close();
    await proxy?.close();
    await host?.dispose();
    await mongo?.stop();
  });

  it('refuses a site with no token, and the same console twice, naming the field', async () => {
    const noToken = await host.api('/drills/sites', { method: 'POST', json: { active: { url: 'http://127.0.0.1:1' }, standby: { local: true } } });
    expect(noToken.status).toBe(400);
    expect(JSON.stringify(await noToken.json())).toContain('body.active.token');
    const same = await host.api('/drills/sites', { method: 'POST', json: { active: { local: true }, standby: { local: true } } });
    expect(same.status).toBe(400);
    expect(((await same.json()) as { message: string }).message).toContain('body.standby');
    const badFailure = await host.api('/drills/sites', { method: 'POST', json: { active: { local: true }, standby: site('standby'), failure: 'kill' } });
    expect(JSON.stringify(await badFailure.json())).toContain('gone');
  });

  it('fails readiness when a critical workflow needs an adapter the standby lacks, or is missing, naming each with the fix', async () => {
    await lab.active.site.call('POST', '/workflows?overwrite=true', {
      name: 'Open incident',
      type: 'automation',
      tasks: {
        workflow_start: { name: 'workflow_start', groups: [] },
        a1: { name: 'createIncident', app: 'Servicenow', type: 'automatic', location: 'Adapter', groups: [], variables: { incoming: {}, outgoing: {} } },
        workflow_end: { name: 'workflow_end', groups: [] },
      },
      transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
      groups: [],
    });
    const report = await drill({ active: site('active'), standby: site('standby'), jobs: 5, workflows: ['Open incident', 'No such workflow'] });
    expect(report.status).toBe('failed');
    const incident = report.readiness.find((i) => i.id === 'workflow:Open incident')!;
    expect(incident.state).toBe('fail');
    expect(incident.detail).toContain('adapter Servicenow');
    expect(incident.fix).toContain('create an adapter instance "Servicenow" on standby');
    const missing = report.readiness.find((i) => i.id === 'workflow:No such workflow')!;
    expect(missing).toMatchObject({ state: 'fail', detail: 'standby has no workflow "No such workflow"' });
    expect(report.readiness.find((i) => i.id === 'workflow:DR drill ledger')?.state).toBe('pass');
    expect(report.steps.map((s) => s.name)).not.toContain('Failure: stop the task worker and applications of the active site');
    expect(report.leftAs).toContain('active');
  }, 120_000);

  it('stop: fails over with processTasksOnStart persisted on the standby, and fails back to the starting state', async () => {
    const report = await drill({ active: site('active'), standby: site('standby'), jobs: 30, failure: 'stop', failback: true, persistProcessTasksOnStart: true });
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ kind: 'sites', status: 'done', passed: true, jobsCompleted: 30, tasksLost: 0, taskRecordsCompletedTwice: 0 });
    expect(report.rtoMs!).toBeGreaterThan(0);
    expect(report.rtoMs!).toBeLessThan(WORKER_LEASE_MS);
    expect(report.sideEffects).toBe(90 + report.sideEffectsRepeated);
    expect(report.steps.find((s) => s.name.startsWith('Failover'))!.detail).toContain('processTasksOnStart false → true in profile "standby"');
    expect(report.sites[1]!.changes).toEqual(['processTasksOnStart false → true in profile "standby" (failover)', 'processTasksOnStart true → false in profile "standby" (failback)']);
    expect(report.steps.find((s) => s.name.startsWith('Failback'))!.detail).toContain('active worker running, standby worker stopped');
    // The sites are as they were: the standby's profile says false again, its worker stopped.
    const standby = await lab.standby.site.call<{ profile: { processTasksOnStart: boolean } }>('GET', '/profiles/standby');
    expect(standby.profile.processTasksOnStart).toBe(false);
    expect(report.sites.map((s) => s.url)).toEqual([proxy.url, lab.standby.site.ref.url]);
    expect(JSON.stringify(report)).not.toContain(lab.active.site.ref.token);
  }, 300_000);

  it('gone: the active site is killed at the failure point and never called again; the standby takes over; failback waits for it to come back', async () => {
    let failureAt: number | undefined;
    let killed: Promise<void> | undefined;
    let restored: Promise<void> | undefined;
    const report = await drill({ active: site('active'), standby: site('standby'), jobs: 30, failure: 'gone', failback: true }, (r) => {
      const step = r.steps.find((s) => s.name.startsWith('Failure: the active site is gone'));
      if (step && !killed) {
        failureAt = step.startedAt;
        // The operator cut the site off: here its process dies with its tasks in flight.
        killed = lab.active.kill('SIGKILL');
      }
      // Once the drill waits for it, the operator restores the site (same data directory, URL and token).
      if (killed && !restored && r.steps.some((s) => s.name.startsWith('Failback'))) restored = killed.then(async () => void (lab.active = await startLabSite(lab.active)));
    });
    await restored;
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ status: 'done', passed: true, jobsCompleted: 30, tasksLost: 0, taskRecordsCompletedTwice: 0, failure: 'gone' });
    expect(report.rtoMs!).toBeLessThan(WORKER_LEASE_MS);
    expect(report.steps.find((s) => s.name.startsWith('Verify'))!.detail).toContain('active wrote no heartbeat after the failure: it is cut off');
    const failback = report.steps.find((s) => s.name.startsWith('Failback'))!;
    // No call reached the active site from the failure point until failback asked whether it was back.
    expect(proxy.calls.filter((c) => c.at >= failureAt! && c.at < failback.startedAt)).toEqual([]);
    expect(proxy.calls.length).toBeGreaterThan(30);
    expect(failback.detail).toContain('active worker running, standby worker stopped; active answers again');
  }, 400_000);
});
