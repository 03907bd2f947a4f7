// The profile read once: properties.json parsed into the settings the console runs with, every
// default decided here and nowhere else. The host opens the runtime from it and compares the
// old and new configs when the active profile is saved, to reconfigure what changed.
import path from 'node:path';
import type { LoggerLevels } from '../contract/health';
import type { ProfileProperties } from '../contract/profiles';
import { serviceLevel, type LevelName } from '../logging/levels';
import { profileDir } from './directory';

/** The embedded store: `file` (absolute) in the profile's `folder` (`<dataDir>/profiles/<id>/db`), where a previous format is converted. */
export interface EmbeddedStoreConfig {
  kind: 'embedded';
  folder: string;
  file: string;
  /** `embeddedProps.backups`: every how many minutes a backup is taken, how many kept (absent: the store's default). */
  backups?: { everyMinutes?: number; keep?: number };
}

/** MongoDB as `mongoProps` gives it; the password and URL may be sealed (opened for the driver only). */
export interface MongoStoreConfig {
  kind: 'mongo';
  url: string;
  /** Absent: the URL's database, else the service's default (core/store/mongodb/settings.ts reads the URL). */
  db?: string;
  credentials: { user?: string; passwd?: string; dbAuth: boolean };
  tls: { enabled: boolean; acceptInvalidCerts: boolean; sslCA?: string };
}

/** No profile is active (console.json cannot be read): no store is opened, every call names why. */
export interface NoStoreConfig {
  kind: 'none';
  reason: string;
}

export type StoreConfig = EmbeddedStoreConfig | MongoStoreConfig | NoStoreConfig;

/** What loggerProps asks for, each value the console cannot use replaced by its default. */
export interface LogSettings {
  fileLevel: LevelName | 'silent';
  consoleLevel: LevelName | 'silent';
  file: string;
  maxFileBytes: number;
  maxFiles: number;
  /** loggerProps.syslog as configured (reported by health; the console itself does not send to syslog). */
  syslog: Record<string, unknown>;
  /** What in loggerProps could not be used, and what was used instead. */
  warnings: string[];
}

export interface RuntimeConfig {
  /** The profile read; undefined when no profile is active. */
  profileId: string | undefined;
  /** Absent: the host names the server by its server id. */
  serverName?: string;
  store: StoreConfig;
  /** `pathProps.sdk_dir` resolved against the data directory; undefined when unset. */
  sdkDir?: string;
  /** `pathProps.encrypted`: adapter service configs are sealed at rest as the profile's secrets are. */
  sealSecrets: boolean;
  /** Whether the task worker starts with the profile (the service's default: true). */
  processTasksOnStart: boolean;
  /** Whether the profile's properties.json sets processTasksOnStart at all (the worker status's `localValue`). */
  processTasksOnStartSet: boolean;
  /** Whether jobs may call simulated adapter instances (`simulationProps.allowJobs`, see simulationAllowed). */
  allowSimulated?: boolean;
  logging: LogSettings;
}

export const DEFAULT_EMBEDDED_FILE = 'console.sqlite';
export const LOG_DEFAULTS = { log_level: 'info', console_level: 'warn', log_filename: 'console.log', log_max_file_size: 10 * 1024 * 1024, log_max_files: 10 } as const;
const DEFAULT_LEVELS: Record<'log_level' | 'console_level', LevelName> = { log_level: 'info', console_level: 'warn' };
/** The levels health reports per application and adapter where no log service gives them (unit use): the defaults above. */
export const DEFAULT_LOGGER_LEVELS: LoggerLevels = { console: LOG_DEFAULTS.console_level, file: LOG_DEFAULTS.log_level, syslog: {} };

/** processTasksOnStart as the service reads it: only `false` keeps the task worker off (absent: true). */
export const worksTasksOnStart = (processTasksOnStart: unknown): boolean => processTasksOnStart !== false;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonBlank = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

export const embeddedDir = (dataDir: string, profileId: string) => path.join(profileDir(dataDir, profileId), 'db');

/** The runtime settings of a profile that follows the model (core/contract/profiles.ts). Pure: reads no file. */
export function runtimeConfig(profile: ProfileProperties, dataDir: string): RuntimeConfig {
  const sdkDir = nonBlank(profile.pathProps?.sdk_dir);
  return {
    profileId: profile.id,
    serverName: profile.serverName,
    store: storeConfig(profile, dataDir),
    sdkDir: sdkDir === undefined ? undefined : path.resolve(dataDir, sdkDir),
    sealSecrets: profile.pathProps?.encrypted === true,
    processTasksOnStart: worksTasksOnStart(profile.processTasksOnStart),
    processTasksOnStartSet: typeof profile.processTasksOnStart === 'boolean',
    allowSimulated: simulationAllowed(profile),
    logging: logSettings(dataDir, profile.loggerProps),
  };
}

/** Jobs may use simulated adapters unless the profile says not, or (unset) it works tasks at startup against MongoDB. */
export function simulationAllowed(profile: ProfileProperties): boolean {
  const given = profile.simulationProps?.allowJobs;
  if (typeof given === 'boolean') return given;
  return !(worksTasksOnStart(profile.processTasksOnStart) && nonBlank(profile.mongoProps?.url) !== undefined);
}

/** The runtime of a console with no active profile: no store, no task worker, no adapters folder, the default log. */
export function noProfileConfig(dataDir: string, reason: string): RuntimeConfig {
  return { profileId: undefined, store: { kind: 'none', reason }, sealSecrets: false, processTasksOnStart: false, processTasksOnStartSet: false, logging: logSettings(dataDir, undefined) };
}

/** MongoDB when `mongoProps.url` is set; otherwise the embedded store, in `embeddedProps.file` (absolute, or relative to the profile's db folder). */
export function storeConfig(profile: ProfileProperties, dataDir: string): StoreConfig {
  const mongo = profile.mongoProps;
  const url = nonBlank(mongo?.url);
  if (mongo === undefined || url === undefined) {
    const folder = embeddedDir(dataDir, profile.id);
    const backups = profile.embeddedProps?.backups;
    return { kind: 'embedded', folder, file: path.resolve(folder, nonBlank(profile.embeddedProps?.file) ?? DEFAULT_EMBEDDED_FILE), ...(backups ? { backups } : {}) };
  }
  const { credentials = {}, ssl = {} } = mongo;
  return {
    kind: 'mongo',
    url,
    db: nonBlank(mongo.db),
    credentials: { user: nonBlank(credentials.user), passwd: credentials.passwd || undefined, dbAuth: credentials.dbAuth === true },
    tls: { enabled: ssl.enabled === true, acceptInvalidCerts: ssl.acceptInvalidCerts === true, sslCA: nonBlank(ssl.sslCA) },
  };
}

/** The settings loggerProps asks for; a value that cannot be used falls back to the default, with a warning. */
export function logSettings(dataDir: string, props: unknown): LogSettings {
  const given = isRecord(props) ? props : {};
  const warnings: string[] = [];
  const level = (key: 'log_level' | 'console_level') => {
    if (given[key] === undefined) return DEFAULT_LEVELS[key];
    const found = serviceLevel(given[key]);
    if (found) return found;
    warnings.push(`loggerProps.${key}: "${String(given[key])}" is not a level (spam, trace, debug, info, warn, error); using ${LOG_DEFAULTS[key]}`);
    return DEFAULT_LEVELS[key];
  };
  const count = (key: 'log_max_file_size' | 'log_max_files', min: number) => {
    const value = given[key];
    if (value === undefined) return LOG_DEFAULTS[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min) return value;
    warnings.push(`loggerProps.${key}: ${JSON.stringify(value)} is not a whole number of at least ${min}; using ${LOG_DEFAULTS[key]}`);
    return LOG_DEFAULTS[key];
  };
  // Only the file's name is taken: the server's log_directory is not this machine's; the console logs under its data directory.
  const name = typeof given.log_filename === 'string' ? path.basename(given.log_filename.trim()) : '';
  return {
    fileLevel: level('log_level'),
    consoleLevel: level('console_level'),
    file: path.join(dataDir, 'logs', name || LOG_DEFAULTS.log_filename),
    maxFileBytes: count('log_max_file_size', 1024),
    maxFiles: count('log_max_files', 1),
    syslog: isRecord(given.syslog) ? given.syslog : {},
    warnings,
  };
}

/** What differs between two configs of the running profile, by the part of the console each shapes. */
export function configChanges(before: RuntimeConfig, after: RuntimeConfig): { runtime: boolean; logging: boolean } {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  // The store, the adapters folder and how adapter secrets are kept are opened with the runtime.
  const runtime = before.profileId !== after.profileId || !same(before.store, after.store) || before.sdkDir !== after.sdkDir || before.sealSecrets !== after.sealSecrets || before.allowSimulated !== after.allowSimulated;
  return { runtime, logging: !same(before.logging, after.logging) };
}
