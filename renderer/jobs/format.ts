// Showing values and times on the job pages. Over HTTP an undefined value is an
// absent key; the job's `undefinedPaths` says where they were, and `restoreUndefined`
// puts them back so `undefined` is shown apart from `null`.

import type { Job } from '../../core/contract/jobs';

export const UNDEFINED = Symbol('undefined');

function segments(path: string): string[] {
  return path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);
}

/** A copy of `data` with each listed path set to the UNDEFINED sentinel. */
export function restoreUndefined<T>(data: T, paths: string[]): T {
  const copy = structuredClone(data) as unknown;
  for (const path of paths) {
    const parts = segments(path);
    let node = copy as Record<string, unknown> | unknown[] | undefined;
    for (let i = 0; i < parts.length - 1 && node; i++) node = (node as Record<string, unknown>)[parts[i]!] as typeof node;
    if (node && typeof node === 'object') (node as Record<string, unknown>)[parts[parts.length - 1]!] = UNDEFINED;
  }
  return copy as T;
}

/** JSON-like text of a value where undefined reads `undefined` and null `null`. */
export function formatValue(value: unknown, indent = ''): string {
  if (value === UNDEFINED || value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + formatValue(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatValue(v, inner)}`).join(',\n')}\n${indent}}`;
}

export function formatTime(ms: number | undefined): string {
  if (!ms) return '—';
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "waiting until HH:MM:SS" for a task or job waiting on a timer; the date too when it is not today. */
export function waitingUntilText(ms: number, now = Date.now()): string {
  const full = formatTime(ms);
  return `waiting until ${full.slice(0, 10) === formatTime(now).slice(0, 10) ? full.slice(11) : full}`;
}

export function formatDuration(start?: number, end?: number): string {
  if (!start || !end) return '';
  const ms = end - start;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function ago(ms: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}

/** Who started the job: a user agent recorded by an older console reads as a browser, never in full. */
export function initiatorOf(user: string | undefined): string {
  if (!user) return 'unknown';
  return /^Mozilla\/|AppleWebKit|\(\d{1,3}(\.\d{1,3}){3}\)$/.test(user) ? 'a browser (before operators were recorded)' : user;
}

/**
 * ViewData's body with each `<!name!>` replaced by `variables.name` (its text; an object or array as
 * JSON), as the service's viewData page says; a name variables lacks is left as it is written.
 */
export function substituteViewData(body: string, variables: unknown): string {
  if (!variables || typeof variables !== 'object' || Array.isArray(variables)) return body;
  const values = variables as Record<string, unknown>;
  return body.replace(/<!([^!<>]+)!>/g, (whole, name: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name];
    return typeof value === 'string' ? value : value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

type JobErrorEntry = NonNullable<Job['error']>[number];

/** An adapter's error object's displayString (`{ icode, IAPerror: { displayString } }`), when the message is one. */
function displayString(message: unknown): string | undefined {
  if (!message || typeof message !== 'object' || !('IAPerror' in message)) return undefined;
  const iap: unknown = message.IAPerror;
  return iap && typeof iap === 'object' && 'displayString' in iap && typeof iap.displayString === 'string' ? iap.displayString : undefined;
}

/** A job error's message as one line: a text as it is, an adapter's error object by the task and its displayString, any other answer as JSON. */
export function errorMessage(entry: JobErrorEntry): string {
  if (typeof entry.message === 'string') return entry.message;
  const shown = displayString(entry.message);
  return shown !== undefined ? `task ${entry.task}: ${shown}` : (JSON.stringify(entry.message) ?? String(entry.message));
}

/** A job's errors as one line (the Jobs list): the messages in order. */
export function jobErrorLine(errors: Job['error']): string | undefined {
  return errors?.length ? errors.map(errorMessage).join('; ') : undefined;
}
