// Limits on what one call may carry, the same for both transports. A document nested deeper
// than any real export (the service's largest projects nest about 25 levels) would exhaust
// the stack of every recursive reader after it (validation, the store, JSON output), so it is
// refused at the door with a 400 naming where it goes too deep.

/** Deepest nesting of objects and arrays accepted in a body or query. */
export const MAX_DEPTH = 256;
/** Largest HTTP body accepted, in bytes (a 2022.1 project export is well under 1 MB). */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The path of the first value nested deeper than `max`, or undefined; iterative, so any depth is safe. */
export function tooDeep(value: unknown, max = MAX_DEPTH): string[] | undefined {
  const stack: { node: unknown; path: string[] }[] = [{ node: value, path: [] }];
  while (stack.length) {
    const { node, path } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (path.length >= max) return path;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'object' && child !== null) stack.push({ node: child, path: [...path, key] });
    }
  }
  return undefined;
}

/** `a.b.c...x.y` for a long path: its start and end. */
export function shortPath(path: string[]): string {
  return path.length <= 6 ? path.join('.') : `${path.slice(0, 3).join('.')}...${path.slice(-2).join('.')}`;
}
