// The drain at failover: a lab drill of 60 jobs, kill -9 of the active site mid-load; the standby
// declares it gone once its heartbeat stops, so the tasks it held are queued again at once (fenced)
// instead of after their lease. Counts are asserted; the drain time is printed (bench territory).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLabDrill } from '../../core/drills/run';
import type { DrillReport } from '../../core/drills/types';
import { sharedDatabase } from './support';

const database = await sharedDatabase();
if ('unavailable' in database) console.warn(`[drain drill] skipped: ${database.unavailable}`);

describe.skipIf('unavailable' in database)('the drain after kill -9 of the active site', () => {
  const mongo = 'mongo' in database ? database.mongo : undefined;
  let report: DrillReport;
  beforeAll(async () => {
    report = await runLabDrill({ jobs: 60, failure: 'kill', failback: false, mongoUrl: mongo?.url });
    console.info(`[drain drill] 60 jobs: RTO ${report.rtoMs} ms, drain ${report.drainMs} ms`);
  }, 300_000);
  afterAll(async () => {
    await mongo?.stop();
  });

  it('takes the failed site\'s tasks from it once its heartbeat stops, and loses or doubles none', () => {
    expect(report.error).toBeUndefined();
    const failover = report.steps.find((s) => s.name.startsWith('Failover'));
    expect(failover?.detail).toMatch(/active declared gone once its heartbeat stopped: \d+ of its tasks queued again at once \(fenced\)/);
    expect(report.jobsCompleted).toBe(60);
    expect(report.tasksLost).toBe(0);
    expect(report.taskRecordsCompletedTwice).toBe(0);
  });
});
