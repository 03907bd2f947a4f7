// Declared indexes against the indexes a collection has: which are as declared,
// which are missing, which exist under another name (or with another unique flag or partial filter)
// and must be re-created, and which nobody declares (an operator's own: reported,
// never dropped).
import type { IndexDescription } from '../contract/indexes';
import type { IndexSpec } from '../store/port';
import type { DeclaredIndex } from './declared';

export interface Comparison {
  current: IndexDescription[];
  missing: IndexDescription[];
  /** Declared indexes whose key exists under another name or unique flag; `found` is the existing one. */
  misnamed: IndexDescription[];
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

export function compareIndexes(declared: DeclaredIndex[], listed: IndexSpec[]): Comparison {
  const existing = listed.filter((spec) => !isIdIndex(spec));
  const matched = new Set<IndexSpec>();
  const result: Comparison = { current: [], missing: [], misnamed: [], external: [] };
  for (const wanted of declared) {
    const candidates = existing.filter((spec) => !matched.has(spec) && sameKey(spec.key, wanted.key));
    const exact = candidates.find((spec) => spec.name === wanted.name && (spec.unique === true) === wanted.unique && samePartial(spec.partialFilterExpression, wanted.partialFilterExpression));
    if (exact) {
      matched.add(exact);
      result.current.push(describe(wanted));
      continue;
    }
    const other = candidates[0];
    if (other) {
      matched.add(other);
      result.misnamed.push({ ...describe(wanted), found: { name: other.name, unique: other.unique === true, ...(other.partialFilterExpression ? { partialFilterExpression: other.partialFilterExpression } : {}) } });
      continue;
    }
    result.missing.push(describe(wanted));
  }
  result.external = existing.filter((spec) => !matched.has(spec)).map(describe);
  return result;
}
