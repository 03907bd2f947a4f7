// Generated documents and filters for the differential tests of the embedded store's MongoDB
// semantics (mongo-semantics*.test.ts), and the known differences of the oracles from MongoDB.
import fc from 'fast-check';
import type { Doc, Filter } from '../../../core/store/port';

const scalar = fc.oneof(
  fc.integer({ min: -2, max: 3 }),
  fc.constantFrom(1.5, -0.5),
  fc.constantFrom('a', 'b', 'c', '[a'),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(new Date(1000), new Date(2000)),
);
const item = fc.oneof(scalar, fc.record({ k: scalar }, { requiredKeys: [], noNullPrototype: true }), fc.record({ k: scalar, j: scalar }, { noNullPrototype: true }));
const value = fc.oneof(scalar, fc.array(item, { maxLength: 3 }), fc.record({ k: fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })) }, { requiredKeys: [], noNullPrototype: true }));
export const document = fc.record({ tags: value, items: value, n: value, s: scalar }, { requiredKeys: [], noNullPrototype: true });

const FIELDS = ['tags', 'items', 'n', 's', 'items.k', 'tags.0', 'n.k', 'items.1.k'];
const list = fc.array(scalar, { minLength: 1, maxLength: 3 });
const condition: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  scalar.map((v) => ({ $eq: v })),
  scalar.map((v) => ({ $ne: v })),
  list.map((vs) => ({ $in: vs })),
  list.map((vs) => ({ $nin: vs })),
  list.map((vs) => ({ $all: vs })),
  fc.integer({ min: 0, max: 3 }).map((n) => ({ $size: n })),
  fc.boolean().map((b) => ({ $exists: b })),
  fc.constantFrom('$lt', '$lte', '$gt', '$gte').chain((op) => fc.oneof(fc.integer({ min: -2, max: 3 }), fc.constantFrom('a', 'b'), fc.constantFrom(new Date(1500))).map((v) => ({ [op]: v }))),
  fc.record({ $gt: fc.integer({ min: -2, max: 1 }), $lt: fc.integer({ min: 1, max: 3 }) }),
  fc.integer({ min: -1, max: 2 }).map((v) => ({ $elemMatch: { $gt: v } })),
  fc.constant({ $regex: '^[ab]' }),
);
/**
 * Not $elemMatch or $size on a dotted path: mingo gathers the values `items.k` reaches through an
 * array of documents into an array of its own and matches that; MongoDB (and this store) matches
 * only an array the path itself holds.
 */
const arrayOnly = (c: unknown) => c !== null && typeof c === 'object' && ('$elemMatch' in c || '$size' in c);
const term = fc.dictionary(fc.constantFrom(...FIELDS), condition, { minKeys: 1, maxKeys: 2 }).filter((f) => Object.entries(f).every(([k, c]) => !k.includes('.') || !arrayOnly(c)));
/** $elemMatch with a filter on the items' fields: asked alone, so that the oracle can be shown the document items only (onlyDocuments). */
const elemMatchFields = fc.record({ field: fc.constantFrom('tags', 'items', 'n'), k: condition.filter((c) => !arrayOnly(c) && !(c !== null && typeof c === 'object' && '$all' in c)) }).map(({ field, k }): Filter => ({ [field]: { $elemMatch: { k } } }));
export const filter: fc.Arbitrary<Filter> = fc.oneof(term, fc.array(term, { minLength: 1, maxLength: 2 }).map((fs) => ({ $or: fs })), elemMatchFields);

/**
 * The document as mingo is shown it for `{f: {$elemMatch: {k: …}}}` alone: f's items that are
 * documents only. mingo 7 reads a field of an item that is not a document as the item itself
 * (`{a: {$elemMatch: {k: 1}}}` matches `a: [1]`); MongoDB matches documents only.
 */
export function onlyDocuments(doc: Record<string, unknown>, filter: Filter): Record<string, unknown> {
  const [field, condition] = Object.entries(filter)[0]!;
  const fieldForm = condition !== null && typeof condition === 'object' && '$elemMatch' in condition && Object.keys((condition as { $elemMatch: object }).$elemMatch).some((k) => !k.startsWith('$'));
  const value = doc[field];
  if (!fieldForm || !Array.isArray(value)) return doc;
  return { ...doc, [field]: value.filter((item) => item !== null && typeof item === 'object' && !Array.isArray(item) && !(item instanceof Date)) };
}

export const ids = (found: Doc[]) => found.map((d) => String(d._id)).sort();

/**
 * The filter as mingo is asked it: `{f: {$all: [x, y]}}` as `{$and: [{f: x}, {f: y}]}`, the
 * equivalence MongoDB's documentation of $all states (it matches a field that is not an array
 * too: "Use $all with Non-Array Field"), where mingo 7 matches arrays only.
 */
export function forMingo(filter: Filter): Filter {
  const and: Filter[] = [];
  const rest: Filter = {};
  for (const [key, condition] of Object.entries(filter)) {
    if (key === '$or' || key === '$and') rest[key] = (condition as Filter[]).map(forMingo);
    else if (condition !== null && typeof condition === 'object' && '$all' in condition) {
      const { $all, ...others } = condition as { $all: unknown[] };
      and.push(...$all.map((item) => ({ [key]: item })));
      if (Object.keys(others).length) rest[key] = others;
    } else rest[key] = condition;
  }
  return and.length ? { ...rest, $and: [...((rest.$and as Filter[] | undefined) ?? []), ...and] } : rest;
}
