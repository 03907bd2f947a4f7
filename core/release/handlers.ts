// Handlers of the release operations.
import { checkPolicy, deprecationTable, findApiRow, lifecycleAt, MIN_DEPRECATION_CYCLES, normalizeApiPath, parseRelease, RUNNING_RELEASE } from './index';
import { ConsoleError, errorMessage } from '../errors';

export function releaseTableAnswer() {
  return {
    running: RUNNING_RELEASE,
    policy: `An API is announced as deprecated at least ${MIN_DEPRECATION_CYCLES} release cycles before it is removed (two feature releases a year: year.1 and year.2).`,
    rows: deprecationTable.map((row) => ({ ...row, lifecycle: lifecycleAt(row, RUNNING_RELEASE) })),
    findings: checkPolicy(deprecationTable),
  };
}

/** Where `method path` stands at `release` (the running release when absent). */
export function apiLifecycleAnswer(method: string, path: string, release = RUNNING_RELEASE) {
  let label: string;
  try {
    label = parseRelease(release).text;
  } catch (error) {
    const message = errorMessage(error);
    throw new ConsoleError('bad_input', `query.release: ${message}`, { issues: [{ path: 'query.release', message }] });
  }
  const verb = method.trim().toUpperCase();
  const shownPath = normalizeApiPath(path);
  const row = findApiRow(verb, path);
  if (!row) {
    return {
      method: verb,
      path: shownPath,
      release: label,
      state: 'active' as const,
      replacements: [],
      message: `${verb} ${shownPath} is not in the release's deprecation table: it is neither deprecated nor removed at ${label}`,
    };
  }
  const life = lifecycleAt(row, label);
  const replacements = life.replacements.map((r) => r.text).join(' or ') || 'none (drop the call)';
  const note = row.removalNote ? ` (${row.removalNote})` : '';
  const message =
    life.state === 'removed'
      ? `${row.item} is removed at ${label} (removed in ${life.removal}); use ${replacements}`
      : life.state === 'deprecated'
        ? `${row.item} is deprecated at ${label} (since ${life.deprecated}) and is removed in ${life.removal}${note}; use ${replacements}`
        : `${row.item} is active at ${label}${life.deprecated ? `; it is deprecated from ${life.deprecated}` : ''} and removed in ${life.removal}${note}`;
  return {
    method: verb,
    path: shownPath,
    release: label,
    item: row.item,
    ...life,
    ...(row.removalNote ? { removalNote: row.removalNote } : {}),
    message,
  };
}

export function releaseHandlers() {
  return {
    'release.table': async () => releaseTableAnswer(),
    'release.lifecycle': async ({ query }: { query: { method: string; path: string; release?: string } }) =>
      apiLifecycleAnswer(query.method, query.path, query.release),
  };
}
