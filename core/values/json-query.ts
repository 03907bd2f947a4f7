// The one query language of the service: json-query 2.2.2, as its WorkFlowEngine uses it.
// The engine's `query` task, evaluation's `query`/`rightQuery` and the JST method
// `WorkFlowEngine.query` all read a query through `queryValue`, so the same query string
// finds the same value wherever it is written (`result.[0].value`,
// `artifacts.[*type=workflow].name`, `people[country=NZ].name`, `:get(key:with:colons)`).
import jsonQuery from 'json-query';

/** A query that cannot be read; each caller turns it into its own argument error. */
export class QuerySyntaxError extends Error {}

/** Helpers a query may call (`:get(name)` reads a key holding characters the syntax uses, such as `:`). */
const HELPERS = {
  get: (input: unknown, key: unknown) => (input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[String(key)] : undefined),
};

/** The parts of a plain path: `a.b[0].c`, `a["key with spaces"]`. */
export function parsePlainPath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /\s*(?:\.?([^.[\]"]+)|\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\])/y;
  let at = 0;
  const text = path.trim();
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m[0].length === 0) throw new QuerySyntaxError(`query "${path}" is not a path like a.b[0].c (stopped at character ${at})`);
    if (m[1] !== undefined) parts.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else if (m[2] !== undefined) parts.push(Number(m[2]));
    else parts.push(JSON.parse(`"${m[3]}"`) as string);
    at = re.lastIndex;
  }
  return parts;
}

/** The value at a plain path in `root`, or undefined when the path leads nowhere. An empty path is the root. */
export function plainPathValue(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const part of parsePlainPath(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}

/**
 * What json-query answers for `query` on `root` (null when it finds nothing, as json-query does);
 * an empty query is the root. json-query has no quoted keys (`a["host name"]`): such a query
 * that json-query finds nothing for is read as a plain path.
 */
export function queryValue(root: unknown, query: string): unknown {
  if (query.trim() === '') return root;
  let found: unknown;
  try {
    found = jsonQuery(query, { data: root, locals: HELPERS }).value;
  } catch (error) {
    throw new QuerySyntaxError(`query ${JSON.stringify(query)} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if ((found === undefined || found === null) && query.includes('["')) return plainPathValue(root, query);
  return found;
}
