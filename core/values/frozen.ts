// Values shared by many holders that no holder may change: frozen all through, so a change throws
// (strict mode) instead of reaching every holder, and a store may encode them once (the embedded
// store's shared values keep the text of a value frozen all through: shared-values.ts).

/** Freezes `value` and every object and array in it; answers it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
}

/**
 * Whether a value is plain data that cannot change: every object in it a frozen plain object or
 * array holding values only (no getter, no Date or other class, whose state freezing leaves
 * writable). Callers keep the answer by the value (it walks the whole value).
 */
export function isFrozenThrough(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function';
  const proto: unknown = Object.getPrototypeOf(value);
  if (depth > 64 || !Object.isFrozen(value) || (proto !== Object.prototype && proto !== Array.prototype && proto !== null)) return false;
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if (!('value' in descriptor) || !isFrozenThrough(descriptor.value, depth + 1)) return false;
  }
  return true;
}
