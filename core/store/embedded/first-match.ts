// The first document matching a filter in a sort order, for claims. The datastore's
// own cursor sorts every match to take one (n log n comparisons per claim); a single
// pass keeping the smallest is linear, and copies nothing but the winner's id.
import { createRequire } from 'node:module';
import type Datastore from '@seald-io/nedb';
import type { Doc, Filter, Sort } from '../port';

type Model = {
  match(doc: unknown, query: unknown): boolean;
  getDotValue(doc: unknown, field: string): unknown;
  compareThings(a: unknown, b: unknown): number;
};
const model = createRequire(import.meta.url)('@seald-io/nedb/lib/model.js') as Model;

type Internals = { _getCandidatesAsync(query: unknown): Promise<Doc[]> };

/** The `_id` of the first match by `sort`, or undefined. Call it inside the collection's write queue. */
export async function firstMatchId(ds: Datastore, filter: Filter, sort: Sort = {}): Promise<string | undefined> {
  const candidates = await (ds as unknown as Internals)._getCandidatesAsync(filter);
  const criteria = Object.entries(sort);
  let best: Doc | undefined;
  for (const doc of candidates) {
    if (!model.match(doc, filter)) continue;
    if (!best) {
      best = doc;
      if (criteria.length === 0) break;
      continue;
    }
    for (const [field, direction] of criteria) {
      const c = direction * model.compareThings(model.getDotValue(doc, field), model.getDotValue(best, field));
      if (c < 0) best = doc;
      if (c !== 0) break;
    }
  }
  return best?._id;
}
