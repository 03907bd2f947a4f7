// The service's search over aggregate metrics, as it answers GET /workflow_engine/jobs/metrics and
// /tasks/metrics: the results whose field contains (case-sensitive) or equals a value, those with a
// period (`metrics.startDate`) since a date, sorted by a field then paged, with the number matched.
// A field is read as MongoDB reads a dotted path; a sort puts absent values first, then numbers,
// then strings, as MongoDB orders them, and ties in `_id` order so pages never overlap.

type Row = { _id: string; metrics: { startDate: string }[] };

export interface MetricsSearch {
  order: 1 | -1;
  sort: string;
  skip: number;
  /** Absent or 0: every result. */
  limit?: number;
  /** Milliseconds since the epoch: only the results with a period that started then or later. */
  greaterThanEquals?: number;
  /** A field and the value it must contain (`contains`) or equal (`equals`). */
  match?: { field: string; contains: string } | { field: string; equals: string };
}

export interface MetricsPage<T> {
  results: T[];
  skip: number;
  limit?: number;
  total: number;
}

/** The value at a dotted path, own fields only (`__proto__` and the like read as absent). */
function valueAt(doc: unknown, path: string): unknown {
  let value = doc;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const rank = (value: unknown) => (value === undefined || value === null ? 0 : typeof value === 'number' ? 1 : typeof value === 'string' ? 2 : 3);

function compare(a: unknown, b: unknown): number {
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [JSON.stringify(a) ?? '', JSON.stringify(b) ?? ''];
  return x < y ? -1 : x > y ? 1 : 0;
}

function matches(row: Row, match: NonNullable<MetricsSearch['match']>): boolean {
  const value = valueAt(row, match.field);
  if (typeof value !== 'string') return false;
  return 'contains' in match ? value.includes(match.contains) : value === match.equals;
}

export function searchMetrics<T extends Row>(rows: T[], search: MetricsSearch): MetricsPage<T> {
  const { match, greaterThanEquals: since } = search;
  let found = match ? rows.filter((row) => matches(row, match)) : rows;
  if (since !== undefined) found = found.filter((row) => row.metrics.some((period) => Date.parse(period.startDate) >= since));
  const sorted = [...found].sort((a, b) => compare(valueAt(a, search.sort), valueAt(b, search.sort)) * search.order || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const end = search.limit ? search.skip + search.limit : undefined;
  return { results: sorted.slice(search.skip, end), skip: search.skip, ...(search.limit !== undefined ? { limit: search.limit } : {}), total: found.length };
}
