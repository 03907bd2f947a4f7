// Queries into a value. The query task and evaluation's `query`/`rightQuery` use
// the json-query syntax, as the service does (`a.b[0].c`, `people[country=NZ].name`,
// `loop[*returnStatus=FAILED]`, `:get(key:with:colons)`); setObjectKey and
// extractField take a plain path (`a.b[0].c`, `a["key with spaces"]`).
import jsonQuery from 'json-query';
import { TaskArgumentError } from './args';
import { errorMessage } from '../../errors';

export function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /\s*(?:\.?([^.[\]"]+)|\[\s*(\d+)\s*\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\])/y;
  let at = 0;
  const text = path.trim();
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m || m[0].length === 0) throw new TaskArgumentError(`query "${path}" is not a path like a.b[0].c (stopped at character ${at})`);
    if (m[1] !== undefined) parts.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    else if (m[2] !== undefined) parts.push(Number(m[2]));
    else parts.push(JSON.parse(`"${m[3]}"`) as string);
    at = re.lastIndex;
  }
  return parts;
}

/** Helpers a query may call (`:get(name)` reads a key holding characters the syntax uses, such as `:`). */
const HELPERS = {
  get: (input: unknown, key: unknown) => (input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[String(key)] : undefined),
};

/** The result of a json-query `query` on `root`: undefined when it finds nothing; an empty query is the root. */
export function runQuery(root: unknown, query: string): unknown {
  if (query.trim() === '') return root;
  let found: unknown;
  try {
    found = jsonQuery(query, { data: root, locals: HELPERS }).value;
  } catch (error) {
    throw new TaskArgumentError(`query ${JSON.stringify(query)} cannot be read: ${errorMessage(error)}`);
  }
  // json-query has no quoted keys (`a["host name"]`); such a query is read as a plain path.
  if ((found === undefined || found === null) && query.includes('["')) return queryPath(root, query);
  return found;
}

/** The value at `path` in `root`, or undefined when the path leads nowhere. An empty path is the root. */
export function queryPath(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const part of parsePath(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}
