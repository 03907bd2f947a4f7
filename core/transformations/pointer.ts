// JSON pointers (RFC 6901) as the documents' wiring uses them: `""` is the whole
// value, `/args/0/value` a step's first argument. Writes never change the value
// they were given: each container on the path is copied, so a value wired to two
// places cannot be changed through the other.

import { getAt, isContainer, parsePointer } from '../values/json-pointer';

export { getAt, parsePointer };

/** A token setAt writes as an array index. */
export const INDEX = /^(0|[1-9]\d*)$/;

/** The names setAt refuses to write. */
export const UNWRITABLE: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A copy of `root` with `value` at `tokens`; missing containers are created (an array for an index or `-`). */
export function setAt(root: unknown, tokens: string[], value: unknown): unknown {
  const [head, ...rest] = tokens;
  if (head === undefined) return value;
  if (UNWRITABLE.has(head)) {
    throw new Error(`the pointer names "${head}", which cannot be written`);
  }
  if (Array.isArray(root)) {
    const copy = root.slice();
    const index = head === '-' ? copy.length : INDEX.test(head) ? Number(head) : NaN;
    if (Number.isNaN(index)) {
      // An array written by name: the service's JavaScript runtime would set a property; keep it an object write.
      return setAt(Object.assign({}, root), tokens, value);
    }
    if (index > copy.length + 10_000) throw new Error(`index ${index} is far past the end of an array of ${copy.length}`);
    copy[index] = setAt(copy[index], rest, value);
    return copy;
  }
  const base: Record<string, unknown> = isContainer(root) ? { ...root } : {};
  if (!isContainer(root) && (head === '-' || INDEX.test(head))) {
    const created: unknown[] = [];
    return setAt(created, tokens, value);
  }
  base[head] = setAt(base[head], rest, value);
  return base;
}
