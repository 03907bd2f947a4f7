// Whether an index key can serve a query without scanning the collection or sorting
// in memory, by MongoDB's rule for compound indexes: the filter's equality fields
// first, then the sort fields in order (all in the index's directions or all
// reversed), then range fields. Used where the store cannot explain its plan.
import type { Filter, Sort } from '../store/port';

export interface Fit {
  serves: boolean;
  /** How the index serves the query, or why not, for people. */
  reason: string;
}

const RANGE_OPERATORS = ['$lt', '$lte', '$gt', '$gte'];

function classify(filter: Filter): { equality: Set<string>; range: Set<string> } {
  const equality = new Set<string>();
  const range = new Set<string>();
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$')) continue; // $or/$and: not used for the prefix
    const isOperatorObject =
      condition !== null && typeof condition === 'object' && !(condition instanceof Date) && Object.keys(condition).some((k) => k.startsWith('$'));
    if (!isOperatorObject) equality.add(field);
    else if ('$eq' in condition || '$in' in condition) equality.add(field);
    else if (RANGE_OPERATORS.some((op) => op in condition)) range.add(field);
  }
  return { equality, range };
}

export function indexServes(key: Record<string, 1 | -1>, query: { filter: Filter; sort?: Sort }): Fit {
  const fields = Object.entries(key);
  const { equality, range } = classify(query.filter);
  let position = 0;
  const usedEquality: string[] = [];
  for (let field = fields[position]?.[0]; field !== undefined && equality.has(field); field = fields[++position]?.[0]) usedEquality.push(field);

  const sort = Object.entries(query.sort ?? {});
  let sortServed = sort.length === 0;
  if (sort.length > 0) {
    let cursor = position;
    let ratio: number | undefined;
    sortServed = true;
    for (const [field, direction] of sort) {
      // An equality field already in the prefix may appear in the sort without breaking it.
      if (usedEquality.includes(field)) continue;
      const entry = fields[cursor];
      if (!entry || entry[0] !== field || (ratio !== undefined && entry[1] * direction !== ratio)) {
        sortServed = false;
        break;
      }
      ratio = entry[1] * direction;
      cursor += 1;
    }
    if (sortServed) position = cursor;
  }
  const next = fields[position]?.[0];
  const usedRange = next !== undefined && range.has(next) ? next : undefined;

  const parts = [
    usedEquality.length ? `equality on ${usedEquality.join(', ')}` : '',
    sort.length && sortServed ? `sort on ${sort.map(([f]) => f).join(', ')}` : '',
    usedRange ? `range on ${usedRange}` : '',
  ].filter(Boolean);
  if (sort.length > 0 && !sortServed) {
    return { serves: false, reason: `the key ${JSON.stringify(key)} cannot give the sort ${JSON.stringify(query.sort)}: it would sort in memory` };
  }
  if (parts.length === 0) {
    return { serves: false, reason: `the key ${JSON.stringify(key)} starts with none of the query's equality or sort fields` };
  }
  return { serves: true, reason: `the key prefix serves ${parts.join(', then ')}` };
}
