// The console's one structured logger (pino), created by the host and configured from the active
// profile's loggerProps (read into LogSettings by core/profiles/runtime-config.ts): `log_level` for
// the file (and the live tail), `console_level` for the terminal, `log_filename` /
// `log_max_file_size` / `log_max_files` for the file, which is kept under the data directory
// (`<data-dir>/logs/`) and rotated by size. Every entry is redacted by
// the secrets classifier before it is written anywhere.
import { pino, type Logger } from 'pino';
import { mayCarrySecret, redactSecrets } from '../secrets/classify';
import { logSettings, type LogSettings } from '../profiles/runtime-config';
import { levelName, levelNumber } from './levels';
import { LogRing } from './ring';
import { RotatingFile } from './rotating-file';

export type { Logger } from 'pino';
export type { LogSettings };

export interface LogService {
  readonly logger: Logger;
  readonly ring: LogRing;
  /** The settings in use. */
  settings(): LogSettings;
  /** The levels in use as health reports them per application and adapter: `{ console, file, syslog }`. */
  levels(): { console: string; file: string; syslog: Record<string, unknown> };
  /** Applies the active profile's logger settings (read from its loggerProps by core/profiles/runtime-config.ts). */
  configure(settings: LogSettings): LogSettings;
  close(): void;
}

export interface LogServiceOptions {
  dataDir: string;
  /** Writes entries at console_level and above to stderr (the headless and desktop entry points do). */
  console?: boolean;
  ringCapacity?: number;
}

const pad = (text: string, width: number) => text.padEnd(width);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const LEVEL_FIELD = /^\{"level":(\d+)/;
/** Words of the secrets classifier's key names and text forms (URL userinfo, query parameters, PEM keys); a line without any holds no secret. */
function consoleLine(record: Record<string, unknown>): string {
  const { level, time, msg, pid: _pid, hostname: _hostname, ...fields } = record;
  const ids = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
  return `${new Date(Number(time)).toISOString()} ${pad(levelName(Number(level)).toUpperCase(), 5)} ${String(msg ?? '')}${ids}\n`;
}

export function createLogService(options: LogServiceOptions): LogService {
  const ring = new LogRing(options.ringCapacity);
  let current = logSettings(options.dataDir, undefined);
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
      const parsed: unknown = JSON.parse(line);
      // pino writes one JSON object per line.
      if (!isRecord(parsed)) return;
      // Only a line that could carry a secret is walked by the classifier.
      const record = mayCarrySecret(line) ? redactSecrets(parsed) : parsed;
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
      const message = `cannot write the log file ${file.file}: ${error instanceof Error ? error.message : String(error)}`;
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
    levels: () => ({ console: current.consoleLevel, file: current.fileLevel, syslog: current.syslog }),
    configure(next) {
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
