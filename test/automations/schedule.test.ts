// Schedule triggers' arithmetic (core/automations/schedule.ts): the next run at or after a time is the
// first run plus a whole number of repeats, the smallest one not before it; a run found late is missed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dueRun, MIN_REPEAT_MS, ON_TIME_MS, runAtOrAfter, scheduleOf } from '../../core/automations/schedule';
import type { ScheduledRun } from '../../core/automations/run';
import { startScheduleTicker } from '../../core/automations/ticker';

describe('schedule triggers', () => {
  it('the next run at or after a time: the first run plus the fewest repeats that reach it', () => {
    fc.assert(
      fc.property(fc.nat(2e12), fc.integer({ min: MIN_REPEAT_MS, max: 7 * 864e5 }), fc.nat(2e12), (firstRunAt, repeatInterval, at) => {
        const next = runAtOrAfter({ firstRunAt, repeatInterval, processMissedRuns: 'none' }, at);
        expect(next).not.toBeNull();
        expect(next!).toBeGreaterThanOrEqual(at);
        expect((next! - firstRunAt) % repeatInterval).toBe(0);
        // The smallest such run: one repeat earlier is before `at`, or before the first run.
        expect(next! - repeatInterval < at || next! === firstRunAt).toBe(true);
      }),
    );
  });

  it('a schedule that runs once has no run after its first', () => {
    const once = { firstRunAt: 1_000_000, repeatInterval: 0, processMissedRuns: 'none' as const };
    expect(runAtOrAfter(once, 999_999)).toBe(1_000_000);
    expect(runAtOrAfter(once, 1_000_001)).toBeNull();
  });

  it('a run found on time fires; one found later than a minute fires only with processMissedRuns last', () => {
    const daily = { firstRunAt: 0, repeatInterval: 864e5, processMissedRuns: 'none' as const };
    expect(dueRun(daily, 864e5, 864e5 + 1000)).toEqual({ fire: true, next: 2 * 864e5 });
    expect(dueRun(daily, 864e5, 864e5 + ON_TIME_MS + 1)).toEqual({ fire: false, next: 2 * 864e5 });
    expect(dueRun({ ...daily, processMissedRuns: 'last' }, 864e5, 5 * 864e5 + 10)).toEqual({ fire: true, next: 6 * 864e5 });
  });

  it('names the field that does not fit', () => {
    const bad = (trigger: Record<string, unknown>) => {
      try {
        scheduleOf(trigger);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(bad({})).toContain('body.firstRunAt: must be the first run as milliseconds');
    expect(bad({ firstRunAt: '2026-01-01' })).toContain('body.firstRunAt');
    expect(bad({ firstRunAt: 1, repeatInterval: 1000 })).toContain('body.repeatInterval: must be the milliseconds between runs, at least 60000');
    expect(bad({ firstRunAt: 1, processMissedRuns: 'all' })).toContain('body.processMissedRuns: must be none or last');
    expect(scheduleOf({ firstRunAt: 5 })).toEqual({ firstRunAt: 5, repeatInterval: 0, processMissedRuns: 'none' });
  });
});

describe('the schedule ticker', () => {
  it('says a schedule it cannot read once, a store it cannot read once until it answers again, and each job it starts', async () => {
    const lines: { level: string; msg: string }[] = [];
    const log = Object.fromEntries(['info', 'warn', 'error', 'debug'].map((level) => [level, (_fields: unknown, msg: string) => void lines.push({ level, msg })])) as never;
    let answers: () => Promise<ScheduledRun[]> = async () => [{ triggerId: 't1', trigger: 'Broken', error: 'trigger t1.firstRunAt: must be …' }];
    const ticker = startScheduleTicker({ fireDue: () => answers(), unavailable: () => undefined, log, everyMs: 3_600_000 });
    try {
      await ticker.tick();
      await ticker.tick();
      answers = async () => Promise.reject(new Error('store closed'));
      await ticker.tick();
      await ticker.tick();
      answers = async () => [{ triggerId: 't2', trigger: 'Nightly', due: 1, jobId: 'j1' }];
      await ticker.tick();
    } finally {
      ticker.stop();
    }
    expect(lines.map((l) => `${l.level}: ${l.msg}`)).toEqual([
      'warn: schedule trigger "Broken" did not start its automation: trigger t1.firstRunAt: must be …',
      'warn: schedule triggers cannot be read, so none fires until they can: store closed',
      'info: schedule trigger "Nightly" started job j1',
      'info: schedule triggers are read again',
    ]);
  });
});
