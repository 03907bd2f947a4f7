// The lifecycle of an item at a given release, and lookup of the API rows by method and path.
import { compareReleases, type ReleaseLabel } from './label';
import { deprecationTable, type LifecycleRow, type Replacement } from './table';

export interface Lifecycle {
  state: 'active' | 'deprecated' | 'removed';
  deprecated?: string;
  removal?: string;
  replacements: Replacement[];
}

/** Where `row` stands at `release` (a label, for example the running release 2022.1). */
export function lifecycleAt(row: LifecycleRow, release: string | ReleaseLabel): Lifecycle {
  const answer: Lifecycle = { state: 'active', replacements: row.replacements };
  if (row.deprecated !== undefined) answer.deprecated = row.deprecated;
  answer.removal = row.removal;
  if (compareReleases(release, row.removal) >= 0) answer.state = 'removed';
  else if (row.deprecated !== undefined && compareReleases(release, row.deprecated) >= 0) answer.state = 'deprecated';
  return answer;
}

/** The path part of a path or URL, without query, fragment or trailing slash. */
export function normalizeApiPath(pathOrUrl: string): string {
  let path = pathOrUrl.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length);
  path = path.replace(/[?#].*$/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  path = path.replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  return path;
}

const segments = (pathOrUrl: string) => normalizeApiPath(pathOrUrl).slice(1).split('/');

function segmentsMatch(pattern: string[], actual: string[]): boolean {
  return pattern.length === actual.length && pattern.every((seg, i) => seg.startsWith(':') || seg === actual[i]);
}

/** The table row of the API `method path` (path as routed, relative to the base URL), if any. */
export function findApiRow(method: string | undefined, path: string, table: readonly LifecycleRow[] = deprecationTable): LifecycleRow | undefined {
  const actual = segments(path);
  return table.find(
    (row) =>
      row.kind === 'api' &&
      row.path !== undefined &&
      (method === undefined || row.method === undefined || row.method.toUpperCase() === method.toUpperCase()) &&
      segmentsMatch(segments(row.path), actual),
  );
}

/**
 * The API row a URL in custom code refers to, whatever base URL or prefix comes before the
 * row's path (`http://host:3000/admin/services/health`, `${base}/admin/services/health/`).
 */
export function findApiRowInUrl(method: string | undefined, url: string, table: readonly LifecycleRow[] = deprecationTable): LifecycleRow | undefined {
  const actual = segments(url);
  return table.find((row) => {
    if (row.kind !== 'api' || row.path === undefined) return false;
    if (method !== undefined && row.method !== undefined && row.method.toUpperCase() !== method.toUpperCase()) return false;
    const pattern = segments(row.path);
    return actual.length >= pattern.length && segmentsMatch(pattern, actual.slice(actual.length - pattern.length));
  });
}
