// The time tasks of the WorkFlowEngine application. A time is the service's
// object `{ time, formatString }`, `formatString` in moment.js tokens (default
// `YYYY-MM-DDTHH:mm:ss.SSSSSSZZ`); these tokens are understood: YYYY YY MM M DD D
// HH H hh h mm m ss s SSSSSS SSS SS S ZZ Z A a X x and [literal text].
import { describe, isAbsent, optionalString, TaskArgumentError } from './args';
import { isObject } from './equal';
import type { BuiltInTask, TaskOutcome } from './types';

export const DEFAULT_FORMAT = 'YYYY-MM-DDTHH:mm:ss.SSSSSSZZ';
const TOKENS = /\[[^\]]*\]|YYYY|YY|SSSSSS|SSS|SS|S|MM|M|DD|D|HH|H|hh|h|mm|m|ss|s|ZZ|Z|A|a|X|x/g;
const MS = { milliseconds: 1, seconds: 1e3, minutes: 6e4, hours: 36e5, days: 864e5, weeks: 6048e5 } as const;

const pad = (n: number, width = 2) => String(Math.abs(Math.trunc(n))).padStart(width, '0');

/** Minutes east of UTC from `+05:30`, `-1100`, `UTC`/`Z`/empty (0). */
export function offsetMinutes(zone: unknown, name = 'timezone'): number {
  if (isAbsent(zone) || zone === '' || zone === 'UTC' || zone === 'Z') return 0;
  const match = typeof zone === 'string' ? /^([+-−])(\d{2}):?(\d{2})$/.exec(zone.trim()) : null;
  if (!match) throw new TaskArgumentError(`${name} must be an offset like -05:00 or +01:00 (or UTC), got ${describe(zone)}`);
  return (match[1] === '+' ? 1 : -1) * (Number(match[2]) * 60 + Number(match[3]));
}

function zoneText(minutes: number, colon: boolean) {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.abs(minutes) / 60)}${colon ? ':' : ''}${pad(Math.abs(minutes) % 60)}`;
}

export function formatTime(ms: number, format: string, zone: number): string {
  const d = new Date(ms + zone * 6e4);
  const h = d.getUTCHours();
  const values: Record<string, string> = {
    YYYY: String(d.getUTCFullYear()),
    YY: pad(d.getUTCFullYear() % 100),
    MM: pad(d.getUTCMonth() + 1),
    M: String(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    D: String(d.getUTCDate()),
    HH: pad(h),
    H: String(h),
    hh: pad(h % 12 || 12),
    h: String(h % 12 || 12),
    mm: pad(d.getUTCMinutes()),
    m: String(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
    s: String(d.getUTCSeconds()),
    SSSSSS: `${pad(d.getUTCMilliseconds(), 3)}000`,
    SSS: pad(d.getUTCMilliseconds(), 3),
    SS: pad(Math.floor(d.getUTCMilliseconds() / 10)),
    S: String(Math.floor(d.getUTCMilliseconds() / 100)),
    ZZ: zoneText(zone, false),
    Z: zoneText(zone, true),
    A: h < 12 ? 'AM' : 'PM',
    a: h < 12 ? 'am' : 'pm',
    X: String(Math.floor(ms / 1000)),
    x: String(ms),
  };
  return format.replace(TOKENS, (token) => (token.startsWith('[') ? token.slice(1, -1) : values[token]!));
}

const PATTERNS: Record<string, string> = {
  YYYY: '(\\d{4})', YY: '(\\d{2})', MM: '(\\d{2})', M: '(\\d{1,2})', DD: '(\\d{2})', D: '(\\d{1,2})', HH: '(\\d{2})', H: '(\\d{1,2})',
  hh: '(\\d{2})', h: '(\\d{1,2})', mm: '(\\d{2})', m: '(\\d{1,2})', ss: '(\\d{2})', s: '(\\d{1,2})', SSSSSS: '(\\d{6})', SSS: '(\\d{3})',
  SS: '(\\d{2})', S: '(\\d)', ZZ: '([+-]\\d{4}|Z)', Z: '([+-]\\d{2}:\\d{2}|Z)', A: '(AM|PM)', a: '(am|pm)', X: '(-?\\d+)', x: '(-?\\d+)',
};

/** Epoch ms of `text` read with `format`; throws naming both when they do not match. */
export function parseTime(text: string, format: string, what: string): number {
  return readTime(text, format, what).ms;
}

/** The instant `text` names and the zone offset (minutes) it was written in. */
function readTime(text: string, format: string, what: string): { ms: number; zone: number } {
  const tokens: string[] = [];
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let pattern = '';
  let at = 0;
  for (const match of format.matchAll(TOKENS)) {
    pattern += escape(format.slice(at, match.index));
    if (match[0].startsWith('[')) pattern += escape(match[0].slice(1, -1));
    else {
      tokens.push(match[0]);
      pattern += PATTERNS[match[0]];
    }
    at = match.index + match[0].length;
  }
  pattern += escape(format.slice(at));
  const found = new RegExp(`^${pattern}$`).exec(text.trim());
  if (!found) throw new TaskArgumentError(`${what}: time ${describe(text)} does not match formatString ${describe(format)}`);
  const f: { year: number; month: number; day: number; hour: number; minute: number; second: number; ms: number; zone: number; pm?: boolean; epoch?: number } = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, ms: 0, zone: 0, pm: undefined, epoch: undefined };
  tokens.forEach((token, i) => {
    const v = found[i + 1]!;
    const n = Number(v);
    if (token === 'YYYY') f.year = n;
    else if (token === 'YY') f.year = 2000 + n;
    else if (token === 'MM' || token === 'M') f.month = n;
    else if (token === 'DD' || token === 'D') f.day = n;
    else if (/^[Hh]{1,2}$/.test(token)) f.hour = n;
    else if (token === 'mm' || token === 'm') f.minute = n;
    else if (token === 'ss' || token === 's') f.second = n;
    else if (token.startsWith('S')) f.ms = Math.floor(Number(`0.${v}`) * 1000);
    else if (token === 'ZZ' || token === 'Z') f.zone = v === 'Z' ? 0 : offsetMinutes(v, what);
    else if (token === 'A' || token === 'a') f.pm = v.toLowerCase() === 'pm';
    else if (token === 'X') f.epoch = n * 1000;
    else if (token === 'x') f.epoch = n;
  });
  if (f.epoch !== undefined) return { ms: f.epoch, zone: f.zone };
  if (f.pm !== undefined) f.hour = (f.hour % 12) + (f.pm ? 12 : 0);
  return { ms: Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.ms) - f.zone * 6e4, zone: f.zone };
}

/** `{ time, formatString }` read, with its format and zone, to write a result back the same way. */
function timeObject(incoming: Record<string, unknown>, name: string): { ms: number; zone: number; format: string } {
  const value = incoming[name];
  if (!isObject(value) || typeof value.time !== 'string') throw new TaskArgumentError(`${name} must be { time, formatString }, got ${describe(value)}`);
  const format = typeof value.formatString === 'string' && value.formatString ? value.formatString : DEFAULT_FORMAT;
  return { ...readTime(value.time, format, name), format };
}

/** A time value: `{ time, formatString }`, epoch ms, or an ISO 8601 string. */
function timeOf(incoming: Record<string, unknown>, name: string): number {
  const value = incoming[name];
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new TaskArgumentError(`${name} ${describe(value)} is not a time`);
    return ms;
  }
  if (isObject(value) && typeof value.time === 'string') return parseTime(value.time, typeof value.formatString === 'string' && value.formatString ? value.formatString : DEFAULT_FORMAT, name);
  throw new TaskArgumentError(`${name} must be { time, formatString }, got ${describe(value)}`);
}

/** `{ days: 7, months: 1 }` or a number of milliseconds, as moment.js adds it. */
function addDuration(ms: number, duration: unknown, name: string): number {
  if (isAbsent(duration) || duration === '') return ms;
  if (typeof duration === 'number' || (typeof duration === 'string' && /^-?\d+(\.\d+)?$/.test(duration))) return ms + Number(duration);
  if (!isObject(duration)) throw new TaskArgumentError(`${name} must be an object like { "days": 7 } or a number of milliseconds, got ${describe(duration)}`);
  const date = new Date(ms);
  for (const [unit, amount] of Object.entries(duration)) {
    const n = Number(amount);
    if (Number.isNaN(n)) throw new TaskArgumentError(`${name}.${unit} must be a number, got ${describe(amount)}`);
    const key = unit.replace(/s$/, '');
    if (key === 'year') date.setUTCFullYear(date.getUTCFullYear() + n);
    else if (key === 'month') date.setUTCMonth(date.getUTCMonth() + n);
    else if (`${key}s` in MS) date.setTime(date.getTime() + n * MS[`${key}s` as keyof typeof MS]);
    else throw new TaskArgumentError(`${name}: unknown unit "${unit}" (years, months, weeks, days, hours, minutes, seconds, milliseconds)`);
  }
  return date.getTime();
}

export const timeTasks: BuiltInTask[] = [
  {
    method: 'addDuration',
    summary: 'inputTime ({ time, formatString }) moved by offsetDuration ({ "days": 7, "months": 1 } or milliseconds), in the same format',
    incoming: ['inputTime', 'offsetDuration'],
    outgoing: ['newtime'],
    run(incoming): TaskOutcome {
      const input = timeObject(incoming, 'inputTime');
      const at = addDuration(input.ms, incoming.offsetDuration, 'offsetDuration');
      return { state: 'success', outgoing: { newtime: { time: formatTime(at, input.format, input.zone), formatString: input.format } } };
    },
  },
  {
    method: 'convertTimeToEpoch',
    summary: 'inputTime ({ time, formatString }) as seconds or milliseconds since 1970-01-01 UTC (EpochFormat: Seconds or Milliseconds)',
    incoming: ['inputTime', 'EpochFormat'],
    outgoing: ['epochTime'],
    run(incoming): TaskOutcome {
      const unit = incoming.EpochFormat;
      if (unit !== 'Seconds' && unit !== 'Milliseconds') throw new TaskArgumentError(`EpochFormat must be "Seconds" or "Milliseconds", got ${describe(unit)}`);
      const { ms } = timeObject(incoming, 'inputTime');
      return { state: 'success', outgoing: { epochTime: unit === 'Seconds' ? Math.floor(ms / 1000) : ms } };
    },
  },
  {
    method: 'convertTimezone',
    summary: 'inputTime with its clock moved by the whole-hour offset NewTimezone (e.g. +01:00: 03:00 becomes 04:00), in the same format',
    incoming: ['inputTime', 'NewTimezone'],
    outgoing: ['convertedTime'],
    run(incoming): TaskOutcome {
      const input = timeObject(incoming, 'inputTime');
      const shift = offsetMinutes(incoming.NewTimezone, 'NewTimezone');
      return { state: 'success', outgoing: { convertedTime: { time: formatTime(input.ms + shift * 6e4, input.format, input.zone), formatString: input.format } } };
    },
  },
  {
    method: 'getTime',
    summary: 'The current time at the timezone offset, moved by offsetDuration, as { time, formatString } in format',
    incoming: ['timezone', 'offsetDuration', 'format'],
    outgoing: ['time'],
    run(incoming): TaskOutcome {
      // `Timezone`: the spelling of getTime's page; the service's exports write `timezone`.
      const zone = 'timezone' in incoming || !('Timezone' in incoming) ? offsetMinutes(incoming.timezone) : offsetMinutes(incoming.Timezone, 'Timezone');
      const format = optionalString(incoming, 'format') || DEFAULT_FORMAT;
      const at = addDuration(Date.now(), incoming.offsetDuration, 'offsetDuration');
      return { state: 'success', outgoing: { time: { time: formatTime(at, format, zone), formatString: format } } };
    },
  },
  {
    method: 'calculateTimeDiff',
    summary: 'firstTime minus secondTime ({ time, formatString } each) in milliseconds, seconds, minutes, hours, days, months and years',
    incoming: ['firstTime', 'secondTime'],
    outgoing: ['timeDiff'],
    run(incoming): TaskOutcome {
      const ms = timeOf(incoming, 'firstTime') - timeOf(incoming, 'secondTime');
      const days = ms / MS.days;
      // Months and years as moment.js's durations count them (146097 days in 400 years).
      const months = (days * 4800) / 146097;
      return {
        state: 'success',
        outgoing: { timeDiff: { milliseconds: ms, seconds: ms / MS.seconds, minutes: ms / MS.minutes, hours: ms / MS.hours, days, months, years: months / 12 } },
      };
    },
  },
];
