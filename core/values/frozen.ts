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
