// Dates as people read them: in local time, in the browser's own format, never as ISO text; a date
// that is missing, unreadable or the epoch (an export that carried none) is "unknown", not 1/1/1970.

/** A date a document carries: an ISO string, epoch milliseconds, a Date, or nothing. */
export type DateLike = string | number | Date | null | undefined;

/** The moment in epoch milliseconds, or undefined when the value names none (absent, unreadable, the epoch itself). */
export function instantOf(value: DateLike): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  // 0 is what an export without dates becomes once read as a date: it is not a date anyone saw.
  return Number.isFinite(ms) && ms !== 0 ? ms : undefined;
}

/** Date and time in local time ("28/11/2026, 01:54:01"); `unknown` when there is none. */
export function localDateTime(value: DateLike, unknown = 'unknown'): string {
  const ms = instantOf(value);
  return ms === undefined ? unknown : new Date(ms).toLocaleString();
}

/** Time of day in local time, with the date before it when it is not today. */
export function localTime(value: DateLike, now = Date.now(), unknown = 'unknown'): string {
  const ms = instantOf(value);
  if (ms === undefined) return unknown;
  const date = new Date(ms);
  return date.toDateString() === new Date(now).toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
}

/** ISO 8601 timestamps inside a text ("stopped at 2026-11-28T00:54:01.096Z") written in local time instead. */
export function localizeTimestamps(text: string): string {
  return text.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g, (iso) => localDateTime(iso, iso));
}
