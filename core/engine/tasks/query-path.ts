// A path into a value: `a.b[0].c`, `a.b.0.c`, `a["key with spaces"]`. Used by the
// query task and by evaluation's per-comparison query.
import { TaskArgumentError } from './args';

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

/** The value at `path` in `root`, or undefined when the path leads nowhere. An empty path is the root. */
export function queryPath(root: unknown, path: string): unknown {
  let current: unknown = root;
  for (const part of parsePath(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[part];
  }
  return current;
}
