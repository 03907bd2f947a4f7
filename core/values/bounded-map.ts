// Caches kept in a Map, oldest first (insertion order): the oldest entries are dropped before one
// is added past the bound, so a cache never grows with what it has seen.

/**
 * Drops the oldest entries of `map` when it holds `limit` entries already: an eighth of them at
 * once. A Map keeps the slots of deleted entries until it grows again, and finding the oldest
 * entry walks past them: dropping one entry per addition walked past about as many slots as the
 * map holds each time (1.5 us per job started, for the engine's 2,000 recent jobs).
 */
export function makeRoom<K, V>(map: Map<K, V>, limit: number): void {
  if (map.size < limit) return;
  let drop = Math.max(1, Math.ceil(limit / 8)) + map.size - limit;
  for (const key of map.keys()) {
    if (drop-- <= 0) break;
    map.delete(key);
  }
}
