// The process figures of a health item (an application or adapter) in the fields the service
// answers for each: `memoryUsage`, `cpuUsage`, `pid` and `prevUptime`, numbers on every item. The
// service's own clients require them: its MCP server validates each item of GET /health/applications
// and /health/adapters with pydantic models (itential-mcp models/health.py: ApplicationInfo and
// AdapterInfo) in which all four are required numbers, so a null fails the whole get_health call.
// The service's reference documents no values for an item whose process does not run; the ones
// here are what is true of a process that does not run, or that has not answered yet.
import type { HealthItem } from '../contract/health';

/** A process that does not run holds no memory. */
export const NO_MEMORY: HealthItem['memoryUsage'] = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
/** A process that does not run has used no CPU time. */
export const NO_CPU: HealthItem['cpuUsage'] = { user: 0, system: 0 };
/**
 * There is no process: 0, which names no process an application or adapter can run as (the
 * operating system gives processes ids from 1; `kill(0)` addresses the caller's own group).
 */
export const NO_PID = 0;

/** What the console last read of one process run's uptime, for `prevUptime`. */
export interface UptimeReadings {
  /** Which run of the process (its start time): a restarted process starts over. */
  run: number;
  /** The uptime read before the last one (0, the run's start, when there is none). */
  previous: number;
  /** The uptime read last. */
  last: number;
}

/**
 * Records the uptime read now of the process run `run` (undefined: no process runs; its uptime is
 * 0) and answers the readings with it. `prevUptime` is `previous`: the uptime this run had at the
 * console's reading before this one (any read of the item: a health list, an adapter action's
 * answer, the status every caller polls), 0 (its start, when it had used no CPU) at the first. The
 * service documents the pair for CPU use between two readings: (CPU now − CPU then) / (uptime −
 * prevUptime). A reading equal to the last one (the same instant read twice) keeps the previous
 * one, so `prevUptime` stays below `uptime` once the process has run.
 */
export function readUptime(readings: UptimeReadings | undefined, run: number | undefined, uptime: number): UptimeReadings {
  if (run === undefined) return { run: -1, previous: 0, last: 0 };
  if (!readings || readings.run !== run || uptime < readings.last) return { run, previous: 0, last: uptime };
  if (uptime === readings.last) return readings;
  return { run, previous: readings.last, last: uptime };
}
