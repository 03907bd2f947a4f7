// What the manager keeps of one adapter instance (its config and package, the process,
// state, connection, crashes and log), and the health item the service reports of it.
import type { AdapterEvent, AdapterProcess, ChildHealth } from './child';
import type { AdapterPackage } from './package';
import type { ServiceConfig } from './service-config';
import type { AdapterCrash, HealthItem, LoggerLevels } from '../contract/health';
import { NO_CPU, NO_MEMORY, NO_PID, readUptime, type UptimeReadings } from '../health/process-readings';
import { DEFAULT_LOGGER_LEVELS } from '../profiles/runtime-config';
import type { SimulatedCalls } from './simulated/instance';

export type ConnectionState = 'ONLINE' | 'OFFLINE' | 'DEGRADED';
export type Connection = { state: ConnectionState; detail?: string };

export interface Entry {
  config: ServiceConfig;
  pkg?: AdapterPackage;
  /** Why the instance cannot run (no package for its type, a broken package). */
  problem?: string;
  wanted: boolean;
  process?: AdapterProcess;
  state: 'RUNNING' | 'STOPPED' | 'DEAD';
  detail?: string;
  connection: Connection;
  lastHealthCheck?: { at: string; ok: boolean; detail?: string };
  restartCount: number;
  crashesInRow: number;
  lastCrash: AdapterCrash | null;
  restartTimer?: NodeJS.Timeout;
  nextRestartAt?: number;
  lastHealth?: ChildHealth;
  logs: { at: string; level: string; message: string }[];
  launching?: Promise<void>;
  /** A simulated instance's answers (no process): set for a service config with a `simulation` section. */
  simulated?: SimulatedCalls;
  /** The uptimes read of its process, for prevUptime. */
  uptimes?: UptimeReadings;
}

export const STOPPED: Connection = { state: 'OFFLINE', detail: 'the adapter is stopped' };

export const isStub = (config: ServiceConfig) => config.properties.stub === true;

/** A new instance, stopped (DEAD with `why` when it cannot run). */
export function newEntry(config: ServiceConfig, pkg: AdapterPackage | undefined, why: string | undefined): Entry {
  return {
    config,
    pkg,
    problem: why,
    wanted: false,
    state: why ? 'DEAD' : 'STOPPED',
    detail: why,
    connection: { ...STOPPED },
    restartCount: 0,
    crashesInRow: 0,
    lastCrash: null,
    logs: [],
  };
}

/** The connection an adapter's event reports. */
export function connectionOf(event: AdapterEvent): Connection {
  if (event === 'FIXED') return { state: 'ONLINE', detail: 'recovered (FIXED)' };
  if (event === 'DEGRADED') return { state: 'DEGRADED', detail: 'the adapter reports DEGRADED' };
  return { state: event };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const level = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);

/**
 * The levels an adapter logs at, as health reports them (`{ console, file, syslog }`): its service
 * config's loggerProps where they set `console_level`, `log_level` or `syslog`, else the console's
 * (`levels`; the defaults of loggerProps where none are given).
 */
export function adapterLogger(loggerProps: Record<string, unknown> | undefined, levels: LoggerLevels = DEFAULT_LOGGER_LEVELS): LoggerLevels {
  if (!loggerProps) return levels;
  const { syslog } = loggerProps;
  return {
    console: level(loggerProps.console_level) ?? levels.console,
    file: level(loggerProps.log_level) ?? levels.file,
    syslog: typeof syslog === 'string' || isRecord(syslog) ? syslog : levels.syslog,
  };
}

/**
 * The service's health item of an instance: `running` is its process when asked, `health` what that
 * answered. Records the uptime read in `entry.uptimes` (for prevUptime).
 */
export function healthItem(
  entry: Entry,
  seen: { running?: AdapterProcess; health?: ChildHealth; connection: Connection; now: number; logger: LoggerLevels },
): HealthItem {
  const { config, pkg } = entry;
  const { running: child, health, connection, now } = seen;
  const uptime = child ? (health?.uptime ?? (now - child.startedAt) / 1000) : 0;
  entry.uptimes = readUptime(entry.uptimes, child?.startedAt, uptime);
  // Measured: what the process answered. Not measured (no process: stopped, dead, simulated; or one
  // that has not answered yet): 0s, not nulls, as the service's clients require numbers (see
  // core/health/process-readings.ts); the pid of a process that runs is known without asking it.
  const measured = child ? health : undefined;
  return {
    id: config.id,
    package_id: pkg?.name ?? '',
    version: pkg?.version ?? 'unknown',
    type: 'Adapter',
    description: pkg?.description || pkg?.title || String(config.type ?? ''),
    routePrefix: config.id,
    state: entry.state,
    ...(entry.detail ? { detail: entry.detail } : {}),
    connection,
    stub: isStub(config),
    ...(entry.simulated ? { simulated: true } : {}),
    uptime,
    prevUptime: entry.uptimes.previous,
    memoryUsage: measured ? { ...measured.memoryUsage } : { ...NO_MEMORY },
    cpuUsage: measured ? { ...measured.cpuUsage } : { ...NO_CPU },
    pid: measured?.pid ?? child?.pid ?? NO_PID,
    logger: seen.logger,
    timestamp: now,
    restartCount: entry.restartCount,
    lastCrash: entry.lastCrash,
    ...(entry.lastHealthCheck ? { lastHealthCheck: entry.lastHealthCheck } : {}),
    ...(entry.nextRestartAt ? { nextRestartAt: new Date(entry.nextRestartAt).toISOString() } : {}),
    methods: pkg?.methods.map((m) => m.name) ?? [],
    ...(pkg ? { source: pkg.source } : {}),
  };
}
