// Declared indexes against the indexes a collection has: which are as declared,
// which are missing, which the console made under another name (or with another unique flag or
// partial filter) and must be re-created, and which it did not make: the site's own, reported,
// never dropped nor rebuilt, whatever their keys. A site's index with a declared key serves that
// declared index's queries: the declared one counts as present.
import type { IndexDescription } from '../contract/indexes';
import type { IndexSpec } from '../store/port';
import type { DeclaredIndex } from './declared';

export interface Comparison {
  current: IndexDescription[];
  missing: IndexDescription[];
  /** Declared indexes whose key the console made under another name or unique flag; `found` is the existing one. */
  misnamed: IndexDescription[];
  /** The indexes the console did not make (`serves`: the declared index whose key one of them has). */
  external: IndexDescription[];
}

const describe = (spec: { key: Record<string, 1 | -1>; name: string; unique?: boolean; partialFilterExpression?: Record<string, unknown> }): IndexDescription => ({
  key: spec.key,
  name: spec.name,
  unique: spec.unique === true,
  ...(spec.partialFilterExpression ? { partialFilterExpression: spec.partialFilterExpression } : {}),
});

/** The same partial filter (or none on both), as MongoDB lists it back. */
const samePartial = (a?: Record<string, unknown>, b?: Record<string, unknown>) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Same fields in the same order with the same directions. */
export function sameKey(a: Record<string, number>, b: Record<string, number>): boolean {
  const left = Object.entries(a);
  const right = Object.entries(b);
  return left.length === right.length && left.every(([field, dir], i) => right[i]?.[0] === field && Number(right[i]?.[1]) === Number(dir));
}

const isIdIndex = (spec: IndexSpec) => spec.name === '_id_' || sameKey(spec.key, { _id: 1 });

/**
 * `created`: the names of the indexes the console made on this collection (created.ts). An index
 * of a declared index's name and key on fields only the console writes (`consoleOnly`) is taken as
 * the console's too: an earlier version made it before the console kept the names.
 */
export function compareIndexes(declared: DeclaredIndex[], listed: IndexSpec[], created: ReadonlySet<string> = new Set()): Comparison {
  const existing = listed.filter((spec) => !isIdIndex(spec));
  const matched = new Set<IndexSpec>();
  const result: Comparison = { current: [], missing: [], misnamed: [], external: [] };
  const serving: IndexDescription[] = [];
  for (const wanted of declared) {
    const candidates = existing.filter((spec) => !matched.has(spec) && sameKey(spec.key, wanted.key));
    const exact = candidates.find((spec) => spec.name === wanted.name && (spec.unique === true) === wanted.unique && samePartial(spec.partialFilterExpression, wanted.partialFilterExpression));
    if (exact) {
      matched.add(exact);
      result.current.push(describe(wanted));
      continue;
    }
    const other = candidates[0];
    if (other && !(created.has(other.name) || (wanted.consoleOnly === true && other.name === wanted.name))) {
      // The site's own index with the declared key: kept as it is, and it serves the declared index's queries.
      matched.add(other);
      result.current.push(describe(wanted));
      serving.push({ ...describe(other), serves: wanted.name });
      continue;
    }
    if (other) {
      matched.add(other);
      result.misnamed.push({ ...describe(wanted), found: { name: other.name, unique: other.unique === true, ...(other.partialFilterExpression ? { partialFilterExpression: other.partialFilterExpression } : {}) } });
      continue;
    }
    result.missing.push(describe(wanted));
  }
  result.external = [...serving, ...existing.filter((spec) => !matched.has(spec)).map(describe)];
  return result;
}
