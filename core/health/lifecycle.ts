// One mechanism for every API row of the release's deprecation table (section 9.1): an operation
// whose method and path are in the table is answered according to where the API stands at the
// console's release: active → as usual; deprecated → as usual plus `Deprecation`, `Sunset` and
// `Link: <replacement>; rel="successor-version"` headers; removed → 410 Gone naming the
// replacements. Every call to a deprecated or removed API is counted per caller, so the console
// can show which custom applications still use it (section 9.3).
import { contract, operationNames, type OperationName } from '../contract';
import type { DeprecatedCall } from '../contract/health';
import type { CallContext, Handler, Handlers } from '../dispatch/dispatch';
import { findApiRow, lifecycleAt, parseRelease, RUNNING_RELEASE, type LifecycleRow } from '../release';
import { ConsoleError, errorMessage } from '../errors';

/**
 * The release the console answers API lifecycles as: the running release, or CONSOLE_API_RELEASE
 * (to preview how a later release treats callers of deprecated APIs; the tests use it).
 */
export function apiRelease(): string {
  const configured = process.env.CONSOLE_API_RELEASE?.trim();
  if (!configured) return RUNNING_RELEASE;
  try {
    return parseRelease(configured).text;
  } catch (error) {
    throw new ConsoleError('internal', `CONSOLE_API_RELEASE: ${errorMessage(error)}`);
  }
}

/**
 * An HTTP-date for a release label, which the table gives without a date: the first day of the
 * release's year for year.1 and of its second half for year.2 (two feature releases a year).
 */
export function releaseDate(label: string): string {
  const release = parseRelease(label);
  const month = release.number >= 2 ? 6 : 0;
  return new Date(Date.UTC(release.year, month, 1)).toUTCString();
}

export class DeprecatedCallLog {
  private readonly calls = new Map<string, DeprecatedCall>();

  record(row: LifecycleRow, caller: string, lifecycle: ReturnType<typeof lifecycleAt>) {
    const key = `${row.id}\u0000${caller}`;
    const now = new Date().toISOString();
    const known = this.calls.get(key);
    if (known) {
      known.count += 1;
      known.lastAt = now;
      known.state = lifecycle.state;
      return;
    }
    this.calls.set(key, {
      method: row.method ?? 'GET',
      path: row.path ?? '',
      item: row.item,
      caller,
      count: 1,
      firstAt: now,
      lastAt: now,
      state: lifecycle.state,
      ...(lifecycle.deprecated ? { deprecated: lifecycle.deprecated } : {}),
      ...(lifecycle.removal ? { removal: lifecycle.removal } : {}),
      replacements: lifecycle.replacements,
    });
  }

  /** Most recent first. */
  list(): DeprecatedCall[] {
    return [...this.calls.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt) || a.caller.localeCompare(b.caller));
  }
}

function replacementsText(row: LifecycleRow) {
  return row.replacements.map((r) => r.text).join(' or ') || 'none: drop the call';
}

/** Answers a call of a table row's API at the console's release (see the file's header). */
export function answerLifecycle(row: LifecycleRow, ctx: CallContext, log: DeprecatedCallLog): void {
  const release = apiRelease();
  const lifecycle = lifecycleAt(row, release);
  if (lifecycle.state === 'active') return;
  log.record(row, ctx.caller, lifecycle);
  const links = row.replacements
    .filter((r) => r.path)
    .map((r) => `<${r.path}>; rel="successor-version"; title="${r.text}"`)
    .join(', ');
  if (lifecycle.state === 'removed') {
    throw new ConsoleError('gone',
      `${row.item} was removed in ${lifecycle.removal} (deprecated since ${lifecycle.deprecated ?? 'an earlier release'}); use ${replacementsText(row)}`,
      { api: `${row.method} ${row.path}`, release, deprecated: lifecycle.deprecated, removal: lifecycle.removal, replacements: row.replacements },
    );
  }
  ctx.setHeader('Deprecation', 'true');
  if (lifecycle.removal) ctx.setHeader('Sunset', releaseDate(lifecycle.removal));
  if (links) ctx.setHeader('Link', links);
  ctx.setHeader(
    'Warning',
    `299 - "${row.item} is deprecated since ${lifecycle.deprecated} and removed in ${lifecycle.removal}; use ${replacementsText(row)}"`,
  );
}

/** Wraps every handler whose operation is an API row of the table with the lifecycle answer. */
export function withApiLifecycle(handlers: Handlers, log: DeprecatedCallLog): Handlers {
  const wrapped: Handlers = { ...handlers };
  for (const name of operationNames) {
    const operation = contract[name];
    const row = findApiRow(operation.method, operation.path);
    if (row) wrapOperation(wrapped, name, row, log);
  }
  return wrapped;
}

/** Replaces the handler of `name` with one that answers the row's lifecycle first. */
function wrapOperation<N extends OperationName>(handlers: Handlers, name: N, row: LifecycleRow, log: DeprecatedCallLog): void {
  const inner: Handler<N> = handlers[name];
  const outer: Handler<N> = (input, ctx) => {
    answerLifecycle(row, ctx, log);
    return inner(input, ctx);
  };
  // Handlers[N] does not reduce to Handler<N> for a generic N: assigned by key.
  Object.assign(handlers, { [name]: outer });
}
