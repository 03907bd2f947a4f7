// Equality of task values: deep over arrays and plain objects; `==` compares
// leaves loosely as JavaScript does ("1" == 1), `===` strictly.

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown, loose: boolean): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i], loose));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key], loose));
  }
  // eslint-disable-next-line eqeqeq
  return loose ? a == b : Object.is(a, b) || a === b;
}
