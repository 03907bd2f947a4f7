// Fires the active profile's schedule triggers: every few seconds the runner looks for the runs due
// (run.ts fireDueSchedules) and starts them. Each job started, run skipped and run that could not
// start is logged with its trigger's id; a store that cannot be read is said once, and again when it
// answers. The timer holds no process open (unref) and stops with the console.
import type { Logger } from 'pino';
import { errorMessage } from '../errors';
import type { ScheduledRun } from './run';

export interface ScheduleTickerDeps {
  fireDue(now: number): Promise<ScheduledRun[]>;
  /** Why the active profile has no store to read now, or undefined. */
  unavailable(): string | undefined;
  log: Logger;
  /** How often to look (2 s: a run starts within that of its time). */
  everyMs?: number;
}

export interface ScheduleTicker {
  /** One look now (what the timer does), for the tests and for a caller that cannot wait. */
  tick(): Promise<void>;
  stop(): void;
}

export function startScheduleTicker(deps: ScheduleTickerDeps): ScheduleTicker {
  let busy = false;
  let failing = false;
  // A trigger whose schedule cannot be read is said once (it is found again at every look), not every 2 s.
  const said = new Set<string>();
  const say = (run: ScheduledRun) => {
    if (run.error !== undefined && run.due === undefined) {
      const key = `${run.triggerId}\u0000${run.error}`;
      if (said.has(key)) return;
      said.add(key);
    }
    const fields = { component: 'automations', triggerId: run.triggerId, ...(run.jobId ? { jobId: run.jobId } : {}), ...(run.due !== undefined ? { due: run.due } : {}) };
    if (run.error !== undefined) deps.log.warn(fields, `schedule trigger "${run.trigger}" did not start its automation: ${run.error}`);
    else if (run.skipped !== undefined) deps.log.info({ ...fields, due: run.skipped }, `schedule trigger "${run.trigger}" missed its run of ${new Date(run.skipped).toISOString()} while no console ran: skipped (processMissedRuns none)`);
    else deps.log.info(fields, `schedule trigger "${run.trigger}" started job ${run.jobId}`);
  };
  const tick = async () => {
    if (busy || deps.unavailable() !== undefined) return;
    busy = true;
    try {
      for (const run of await deps.fireDue(Date.now())) say(run);
      if (failing) deps.log.info({ component: 'automations' }, 'schedule triggers are read again');
      failing = false;
    } catch (error) {
      if (!failing) deps.log.warn({ component: 'automations', err: error }, `schedule triggers cannot be read, so none fires until they can: ${errorMessage(error)}`);
      failing = true;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.everyMs ?? 2000);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
