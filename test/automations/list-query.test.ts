// The service's list query (equals / contains / starts-with on a field, sort, order, skip, limit)
// over automations and triggers: properties that hold for any documents and any query.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listPage } from '../../core/automations/documents';

const doc = fc.record({ _id: fc.string({ minLength: 1, maxLength: 24 }), name: fc.string({ maxLength: 8 }), actionId: fc.constantFrom('a1', 'a2', 'a3') });
const query = fc.record({
  skip: fc.nat(12),
  limit: fc.nat(12),
  order: fc.constantFrom(1 as const, -1 as const),
  equals: fc.option(fc.constantFrom('a1', 'a2'), { nil: undefined }),
  contains: fc.option(fc.string({ maxLength: 2 }), { nil: undefined }),
});

describe('the list query', () => {
  it('counts every match in total, answers at most limit of them (0: all), and pages never overlap', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 30 }), query, (docs, q) => {
        const full = { ...q, equalsField: 'actionId', containsField: 'name', sort: 'name' };
        const matches = docs.filter((d) => (q.equals === undefined || d.actionId === q.equals) && (q.contains === undefined || d.name.toLowerCase().includes(q.contains.toLowerCase())));
        const { data, metadata } = listPage(docs, full);
        expect(metadata).toEqual({ skip: q.skip, limit: q.limit, total: matches.length });
        expect(data.length).toBe(q.limit === 0 ? Math.max(0, matches.length - q.skip) : Math.max(0, Math.min(q.limit, matches.length - q.skip)));
        for (const d of data) expect(matches).toContain(d);
        // The next page starts where this one ends.
        if (q.limit > 0) {
          const next = listPage(docs, { ...full, skip: q.skip + q.limit });
          for (const d of next.data) expect(data).not.toContain(d);
        }
      }),
    );
  });

  it('sorts by the field named, in the order asked', () => {
    const docs = [{ name: 'b' }, { name: 'c' }, { name: 'a' }];
    expect(listPage(docs, { skip: 0, limit: 25, sort: 'name', order: -1 }).data.map((d) => d.name)).toEqual(['c', 'b', 'a']);
    expect(listPage(docs, { skip: 0, limit: 25, 'starts-with': 'b' }).data).toEqual([{ name: 'b' }]);
    // The bracket forms the service's clients send.
    expect(listPage(docs, { skip: 0, limit: 25, 'equals[name]': 'c' }).data).toEqual([{ name: 'c' }]);
    expect(listPage(docs, { skip: 0, limit: 25, 'contains[name]': 'A' }).data).toEqual([{ name: 'a' }]);
  });
});
