// Caches kept in a Map, oldest first (insertion order): one entry is dropped before one is added
// past the bound, so a cache never grows with what it has seen.

/** Drops the oldest entry of `map` when it holds `limit` entries already. */
export function makeRoom<K, V>(map: Map<K, V>, limit: number): void {
  const oldest = map.keys().next();
  if (map.size >= limit && !oldest.done) map.delete(oldest.value);
}
