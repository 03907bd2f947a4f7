// Queries into a value. The query task and evaluation's `query`/`rightQuery` use
// the json-query syntax, as the service does (`a.b[0].c`, `people[country=NZ].name`,
// `loop[*returnStatus=FAILED]`, `:get(key:with:colons)`); setObjectKey and
// extractField take a plain path (`a.b[0].c`, `a["key with spaces"]`).
import { parsePlainPath, plainPathValue, queryValue, QuerySyntaxError } from '../../values/json-query';
import { TaskArgumentError } from './args';

export function parsePath(path: string): (string | number)[] {
  return asTaskError(() => parsePlainPath(path));
}

/** What a query reads, a query that cannot be read being the task's argument error. */
function asTaskError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw new TaskArgumentError(error.message);
    throw error;
  }
}

/** The result of a json-query `query` on `root` (core/values/json-query.ts, the one JST's WorkFlowEngine.query uses too); an empty query is the root. */
export function runQuery(root: unknown, query: string): unknown {
  return asTaskError(() => queryValue(root, query));
}

/** The value at `path` in `root`, or undefined when the path leads nowhere. An empty path is the root. */
export function queryPath(root: unknown, path: string): unknown {
  return asTaskError(() => plainPathValue(root, path));
}
