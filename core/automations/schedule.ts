// Schedule triggers, as the service keeps them: `firstRunAt` (epoch ms), `repeatInterval` (ms between
// runs; none or 0 runs once), `processMissedRuns` (`none` skips the runs missed while no console ran,
// `last` runs the most recent of them once), and `nextRunAt`, the run they wait for (answered on read,
// as the service's clients confirm a schedule by it). Pure functions: the runner (run.ts) fires due
// triggers, each run claimed by a compare-and-set on `nextRunAt`, so two consoles on one store fire it once.
import { ConsoleError } from '../errors';
import type { Obj } from './documents';

/** The shortest repeat the console takes: a schedule is for runs minutes apart, not a loop. */
export const MIN_REPEAT_MS = 60_000;
/** A run found due within this long after its time is on time; later, it was missed (no console ran). */
export const ON_TIME_MS = 60_000;
export const MISSED_RUNS = ['none', 'last'] as const;

export interface Schedule {
  firstRunAt: number;
  /** 0: once. */
  repeatInterval: number;
  processMissedRuns: (typeof MISSED_RUNS)[number];
}

const badField = (path: string, message: string) => new ConsoleError('bad_input', `${path}: ${message}`, { issues: [{ path, message }] });

/** A schedule trigger's fields, checked; a 400 names the field that does not fit (`where`: `body`). */
export function scheduleOf(trigger: Obj, where = 'body'): Schedule {
  const { firstRunAt, repeatInterval, processMissedRuns } = trigger;
  if (typeof firstRunAt !== 'number' || !Number.isFinite(firstRunAt) || firstRunAt < 0) {
    throw badField(`${where}.firstRunAt`, 'must be the first run as milliseconds since 1970-01-01 UTC (a number)');
  }
  const repeat = repeatInterval === undefined || repeatInterval === null ? 0 : repeatInterval;
  if (typeof repeat !== 'number' || !Number.isInteger(repeat) || (repeat !== 0 && repeat < MIN_REPEAT_MS)) {
    throw badField(`${where}.repeatInterval`, `must be the milliseconds between runs, at least ${MIN_REPEAT_MS} (a minute), or 0 to run once`);
  }
  const missed = processMissedRuns ?? 'none';
  if (typeof missed !== 'string' || !(MISSED_RUNS as readonly string[]).includes(missed)) {
    throw badField(`${where}.processMissedRuns`, `must be ${MISSED_RUNS.join(' or ')}`);
  }
  return { firstRunAt, repeatInterval: repeat, processMissedRuns: missed as Schedule['processMissedRuns'] };
}

/** The first run of the schedule at or after `at`, or null when it runs once and that run is before `at`. */
export function runAtOrAfter(schedule: Schedule, at: number): number | null {
  if (schedule.firstRunAt >= at) return schedule.firstRunAt;
  if (schedule.repeatInterval === 0) return null;
  const steps = Math.ceil((at - schedule.firstRunAt) / schedule.repeatInterval);
  return schedule.firstRunAt + steps * schedule.repeatInterval;
}

/** What to do with a run due at `due` found at `now`: fire it or not, and the run to wait for next (null: none). */
export function dueRun(schedule: Schedule, due: number, now: number): { fire: boolean; next: number | null } {
  const next = runAtOrAfter(schedule, now + 1);
  const onTime = now - due <= ON_TIME_MS;
  return { fire: onTime || schedule.processMissedRuns === 'last', next };
}
