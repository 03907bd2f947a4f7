// The console's one structured logger (pino), created by the host and configured from the active
// profile's loggerProps: `log_level` for the file (and the live tail), `console_level` for the
// terminal, `log_filename` / `log_max_file_size` / `log_max_files` for the file, which is kept
// under the data directory (`<data-dir>/logs/`) and rotated by size. Every entry is redacted by
// the secrets classifier before it is written anywhere.
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { redactSecrets } from '../secrets/classify';
import { levelName, levelNumber, serviceLevel, type LevelName } from './levels';
import { LogRing } from './ring';
import { RotatingFile } from './rotating-file';

export type { Logger } from 'pino';

/** loggerProps of properties.json, as far as the console uses it; other fields are kept and ignored. */
export interface LoggerProps {
  log_level?: string;
  console_level?: string;
  log_filename?: string;
  log_max_file_size?: number;
  log_max_files?: number;
  [key: string]: unknown;
}

export interface LogSettings {
  fileLevel: LevelName | 'silent';
  consoleLevel: LevelName | 'silent';
  file: string;
  maxFileBytes: number;
  maxFiles: number;
  /** What in loggerProps could not be used, and what was used instead. */
  warnings: string[];
}

export const LOG_DEFAULTS = { log_level: 'info', console_level: 'warn', log_filename: 'console.log', log_max_file_size: 10 * 1024 * 1024, log_max_files: 10 };

/** The settings loggerProps asks for; a value that cannot be used falls back to the default, with a warning. */
export function logSettings(dataDir: string, props: unknown): LogSettings {
  const given = (typeof props === 'object' && props !== null ? props : {}) as LoggerProps;
  const warnings: string[] = [];
  const level = (key: 'log_level' | 'console_level') => {
    if (given[key] === undefined) return serviceLevel(LOG_DEFAULTS[key])!;
    const found = serviceLevel(given[key]);
    if (found) return found;
    warnings.push(`loggerProps.${key}: "${String(given[key])}" is not a level (spam, trace, debug, info, warn, error); using ${LOG_DEFAULTS[key]}`);
    return serviceLevel(LOG_DEFAULTS[key])!;
  };
  const count = (key: 'log_max_file_size' | 'log_max_files', min: number) => {
    const value = given[key];
    if (value === undefined) return LOG_DEFAULTS[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min) return value;
    warnings.push(`loggerProps.${key}: ${JSON.stringify(value)} is not a whole number of at least ${min}; using ${LOG_DEFAULTS[key]}`);
    return LOG_DEFAULTS[key];
  };
  // Only the file's name is taken: the server's log_directory is not this machine's; the console logs under its data directory.
  const name = typeof given.log_filename === 'string' && path.basename(given.log_filename.trim()) ? path.basename(given.log_filename.trim()) : LOG_DEFAULTS.log_filename;
  return {
    fileLevel: level('log_level'),
    consoleLevel: level('console_level'),
    file: path.join(dataDir, 'logs', name),
    maxFileBytes: count('log_max_file_size', 1024),
    maxFiles: count('log_max_files', 1),
    warnings,
  };
}

export interface LogService {
  readonly logger: Logger;
  readonly ring: LogRing;
  /** The settings in use. */
  settings(): LogSettings;
  /** The levels in use as health reports them per application and adapter: `{ console, file, syslog }`. */
  levels(): { console: string; file: string; syslog: Record<string, unknown> };
  /** Applies a profile's loggerProps (at start and when the active profile changes). */
  configure(loggerProps: unknown): LogSettings;
  close(): void;
}

export interface LogServiceOptions {
  dataDir: string;
  /** Writes entries at console_level and above to stderr (the headless and desktop entry points do). */
  console?: boolean;
  ringCapacity?: number;
}

const pad = (text: string, width: number) => text.padEnd(width);
const LEVEL_FIELD = /^\{"level":(\d+)/;
/** Words of the secrets classifier's key names and text forms (URL userinfo, query parameters, PEM keys); a line without any holds no secret. */
const MAY_CARRY_SECRET = /pass|pwd|secret|token|key|auth|credential|:\/\/|=|BEGIN/i;

function consoleLine(record: Record<string, unknown>): string {
  const { level, time, msg, pid: _pid, hostname: _hostname, ...fields } = record;
  const ids = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
  return `${new Date(Number(time)).toISOString()} ${pad(levelName(Number(level)).toUpperCase(), 5)} ${String(msg ?? '')}${ids}\n`;
}

export function createLogService(options: LogServiceOptions): LogService {
  const ring = new LogRing(options.ringCapacity);
  let current = logSettings(options.dataDir, undefined);
  let syslog: Record<string, unknown> = {};
  let file: RotatingFile | undefined;
  let fileFailure: string | undefined;

  // One destination fans each line out to the live tail, the file and the terminal, each with its level.
  const destination = {
    write(line: string) {
      // pino writes the level first: an entry no sink wants costs no parsing.
      const level = Number(LEVEL_FIELD.exec(line)?.[1] ?? Infinity);
      const toFile = level >= levelNumber(current.fileLevel);
      const toConsole = options.console === true && level >= levelNumber(current.consoleLevel);
      if (!toFile && !toConsole) return;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      // Only a line that could carry a secret is walked by the classifier.
      const record = MAY_CARRY_SECRET.test(line) ? redactSecrets(parsed) : parsed;
      if (toFile) {
        ring.push(record);
        writeFile(record === parsed ? line : `${JSON.stringify(record)}\n`);
      }
      if (toConsole) process.stderr.write(consoleLine(record));
    },
  };

  const writeFile = (line: string) => {
    if (!file) return;
    try {
      file.write(line);
      fileFailure = undefined;
    } catch (error) {
      // The tail keeps working; the failure is said once on the terminal and in the tail, not per line.
      const message = `cannot write the log file ${file.file}: ${(error as Error).message}`;
      if (fileFailure !== message) {
        fileFailure = message;
        process.stderr.write(`${message}\n`);
        ring.push({ level: 50, time: Date.now(), msg: message, component: 'logging' });
      }
    }
  };

  // The logger passes everything; each sink filters by its own level, so a new level applies at once.
  const logger = pino({ level: 'trace', base: undefined, timestamp: pino.stdTimeFunctions.epochTime }, destination);

  const service: LogService = {
    logger,
    ring,
    settings: () => current,
    levels: () => ({ console: current.consoleLevel, file: current.fileLevel, syslog }),
    configure(loggerProps) {
      const next = logSettings(options.dataDir, loggerProps);
      const givenSyslog = (loggerProps as LoggerProps | undefined)?.syslog;
      // syslog is reported as configured; the console itself does not send to syslog.
      syslog = typeof givenSyslog === 'object' && givenSyslog !== null ? (givenSyslog as Record<string, unknown>) : {};
      if (!file || file.file !== next.file || file.maxBytes !== next.maxFileBytes || file.maxFiles !== next.maxFiles) {
        file?.close();
        file = new RotatingFile(next.file, next.maxFileBytes, next.maxFiles);
      }
      current = next;
      for (const warning of next.warnings) logger.warn({ component: 'logging' }, warning);
      return next;
    },
    close() {
      file?.close();
      file = undefined;
    },
  };
  return service;
}
