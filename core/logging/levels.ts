// The service's log levels (loggerProps.log_level / console_level) and pino's numbers for them.
// `spam` is the service's level below trace; pino has none, so it is trace.

export const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;
export type LevelName = keyof typeof LEVELS;
export const LEVEL_NAMES = Object.keys(LEVELS) as LevelName[];

/** Level names the service accepts in properties.json, and ours for them. */
const SERVICE_LEVELS: Record<string, LevelName | 'silent'> = {
  spam: 'trace',
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  warning: 'warn',
  error: 'error',
  fatal: 'fatal',
  none: 'silent',
  off: 'silent',
  silent: 'silent',
};

/** The level a loggerProps value names, or undefined when it names none. */
export function serviceLevel(value: unknown): LevelName | 'silent' | undefined {
  return typeof value === 'string' ? SERVICE_LEVELS[value.trim().toLowerCase()] : undefined;
}

export const levelNumber = (level: LevelName | 'silent') => (level === 'silent' ? Infinity : LEVELS[level]);

export function levelName(value: number): LevelName {
  let name: LevelName = 'trace';
  for (const candidate of LEVEL_NAMES) if (value >= LEVELS[candidate]) name = candidate;
  return name;
}
