// Following the log: the entries seen so far for one set of filters, extended by each poll
// with what came after the last one seen, and bounded so a long session stays light.
import type { LogEntry, LogsQuery } from '../../core/contract/logs';

export const KEPT = 2000;

export type LogFilters = Pick<LogsQuery, 'level' | 'text' | 'adapter' | 'job' | 'task' | 'component' | 'from' | 'to'>;

/** A `datetime-local` field's value (local time, no zone) as the ISO instant the log route takes; undefined when empty or unreadable. */
export function instantFromLocal(value: string): string | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The components the entries name, sorted, with the one chosen kept even when none shows it. */
export function componentsOf(entries: readonly LogEntry[], chosen: string): string[] {
  const names = new Set(entries.map((e) => e.fields.component).filter((c): c is string => typeof c === 'string'));
  if (chosen) names.add(chosen);
  return [...names].sort();
}

/** Filters from the page's address: `#/logs/job/<id>` or `#/logs/adapter/<name>`. */
export function filtersFromHash(hash: string): LogFilters {
  const [, kind, value] = hash.replace(/^#\/?/, '').split('/');
  if (!value) return {};
  const decoded = decodeURIComponent(value);
  return kind === 'job' ? { job: decoded } : kind === 'adapter' ? { adapter: decoded } : {};
}

export function appendEntries(seen: LogEntry[], more: LogEntry[]): LogEntry[] {
  if (more.length === 0) return seen;
  const last = seen.at(-1)?.seq ?? 0;
  const joined = [...seen, ...more.filter((entry) => entry.seq > last)];
  return joined.length > KEPT ? joined.slice(-KEPT) : joined;
}

/** The entries as JSON lines, the log file's own form. */
export function asJsonLines(entries: LogEntry[]): string {
  return entries.map((e) => JSON.stringify({ time: e.time, level: e.level, msg: e.msg, ...e.fields })).join('\n') + (entries.length ? '\n' : '');
}
