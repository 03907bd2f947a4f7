// JSON pointers (RFC 6901), read: `""` is the whole value, `/a/0/b` a path into it. The JST
// documents' wiring (core/transformations/pointer.ts, which also writes them) and the references
// of task variables (`$var.<task>.<variable>#/a/b`) read values through them.

export function parsePointer(ptr: string): string[] {
  if (ptr === '' || ptr === undefined || ptr === null) return [];
  if (!ptr.startsWith('/')) throw new Error(`"${ptr}" is not a JSON pointer (it must be empty or start with "/")`);
  return ptr
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object';
}

/** The value at `tokens` in `root`, or undefined when the path leads nowhere. */
export function getAt(root: unknown, tokens: string[]): unknown {
  let current = root;
  for (const token of tokens) {
    if (!isContainer(current)) return undefined;
    if (Array.isArray(current)) {
      if (token === '-') return undefined;
      current = current[Number(token)];
    } else {
      current = Object.prototype.hasOwnProperty.call(current, token) ? current[token] : undefined;
    }
  }
  return current;
}
