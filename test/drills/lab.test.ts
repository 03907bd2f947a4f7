// A lab drill end to end: two headless consoles on one database, 200 jobs of a three-task
// workflow whose tasks call a ledger, kill -9 of the active site mid-load, failover on the
// standby, verification, and failback.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLabDrill, WORKER_LEASE_MS } from '../../core/drills/run';
import { reportHtml } from '../../core/drills/report';
import type { DrillReport } from '../../core/drills/types';
import { sharedDatabase } from './support';

const database = await sharedDatabase();
if ('unavailable' in database) console.warn(`[lab drill] skipped: ${database.unavailable}`);
else console.info(`[lab drill] the sites share ${database.why}`);

describe.skipIf('unavailable' in database)('a lab drill with kill -9 of the active site', () => {
  const mongo = 'mongo' in database ? database.mongo : undefined;
  let report: DrillReport;
  const seen: string[] = [];
  beforeAll(async () => {
    report = await runLabDrill({ jobs: 200, failure: 'kill', failback: true, mongoUrl: mongo?.url }, (r) => {
      const step = r.steps.at(-1);
      if (step && !seen.includes(step.name)) seen.push(step.name);
    });
  }, 400_000);
  afterAll(async () => {
    await mongo?.stop();
  });

  it('ends every job with no task lost and no task record completed twice', () => {
    expect(report.error).toBeUndefined();
    expect(report.status).toBe('done');
    expect(report.jobs).toBe(200);
    expect(report.jobsCompleted).toBe(200);
    expect(report.tasksLost).toBe(0);
    expect(report.taskRecordsCompletedTwice).toBe(0);
    // Every task's side effect happened at least once; the repeats are the tasks in flight at the kill.
    expect(report.sideEffects).toBe(600 + report.sideEffectsRepeated);
  });

  it('measures the RTO, below the lease, and the drain time', () => {
    expect(report.rtoMs).not.toBeNull();
    expect(report.rtoMs!).toBeGreaterThan(0);
    expect(report.rtoMs!).toBeLessThan(WORKER_LEASE_MS);
    expect(report.drainMs!).toBeGreaterThanOrEqual(report.rtoMs!);
    expect(report.passed).toBe(true);
  });

  it('passed every readiness item it could check and logged each step with its time', () => {
    expect(report.readiness.filter((i) => i.state === 'fail')).toEqual([]);
    expect(report.readiness.map((i) => i.id)).toEqual(expect.arrayContaining(['answers', 'same-database', 'standby-worker', 'one-worker', 'clocks']));
    expect(report.steps.map((s) => s.name)).toEqual(seen);
    expect(seen).toEqual(expect.arrayContaining(['Failure: kill -9 of the active site', 'Verify: every job ends, no task lost or completed twice']));
    for (const step of report.steps) {
      expect(step.ok, `${step.name}: ${step.error}`).toBe(true);
      expect(step.endedAt!).toBeGreaterThanOrEqual(step.startedAt);
    }
  });

  it('failback returns both sites to their starting state', () => {
    const failback = report.steps.find((s) => s.name.startsWith('Failback'))!;
    expect(failback.ok).toBe(true);
    expect(failback.detail).toMatch(/^active worker running, standby worker stopped; active restarted at (http:\S+) \(pid \d+\)$/);
  });

  it('stops the restarted active site when the drill ends', async () => {
    const url = /active restarted at (http:\S+)/.exec(report.steps.find((s) => s.name.startsWith('Failback'))!.detail!)![1]!;
    await expect(fetch(`${url}/health/status`)).rejects.toThrow();
  });

  it('removes the folder it made for the lab (the sites\' data, their profiles, the database file)', () => {
    const started = report.steps.find((s) => s.name.startsWith('Start the lab'))!;
    const folder = /^in (\S+): /.exec(started.detail!)![1]!;
    expect(folder).toContain('dr-lab-');
    expect(existsSync(folder)).toBe(false);
  });

  it('keeps both sites\' properties in the report, and the HTML export is self-contained', () => {
    expect(report.sites.map((s) => [s.name, s.properties.processTasksOnStart])).toEqual([
      ['active', true],
      ['standby', false],
    ]);
    const html = reportHtml(report);
    expect(html).toContain('Tasks lost');
    expect(html).not.toMatch(/<script|<link|src=/);
  });
});
