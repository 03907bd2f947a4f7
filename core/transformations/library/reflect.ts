// Calling JavaScript's own built-ins by name on values a document gives, without asserting
// their types: the built-in applies its own coercions, as the service's JST runtime does.

/** Whether a value is an iterator (what entries, keys, values and matchAll give). */
function isIterator(value: unknown): value is IterableIterator<unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof Reflect.get(value, 'next') === 'function' &&
    typeof Reflect.get(value, Symbol.iterator) === 'function'
  );
}

/** The array of what an iterator yields, the value a document can hold; anything else as it is. */
export const iteratorToArray = (value: unknown): unknown => (isIterator(value) ? [...value] : value);

/** `owner[name]` called on `self` with `args`; a name that is no function there is a TypeError, as in JavaScript. */
export function callByName(owner: object, name: string, self: unknown, args: unknown[]): unknown {
  const method: unknown = Reflect.get(owner, name);
  if (typeof method !== 'function') throw new TypeError(`${name} is not a function`);
  return Reflect.apply(method, self, args);
}

/** Whether `value` has a numeric `length` (an array-like JavaScript's Array.from reads). */
export const isArrayLike = (value: unknown): value is ArrayLike<unknown> =>
  value !== null && typeof value === 'object' && typeof Reflect.get(value, 'length') === 'number';
