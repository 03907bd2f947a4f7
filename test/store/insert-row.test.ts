// The columns an insert binds from JavaScript (core/store/embedded/insert-row.ts) hold what
// json_extract reads from the stored text, as the columns of a document read by SQLite do: checked
// on generated documents holding what JSON does not keep (undefined, NaN, -0, infinities, class
// instances, functions, a toJSON of its own, surrogates, marked strings, dates, arrays on the path).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { EmbeddedStore } from '../../core/store/embedded/store';
import { sqlite } from '../../core/store/embedded/sqlite';
import { withTempStore } from './support/temp-store';

let store: EmbeddedStore;
withTempStore('insert-row-', (opened) => ({ store } = opened));

class Point {
  constructor(readonly x: number) {}
}
const scalar = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double(),
  fc.constantFrom(2 ** 53, -0, Number.NaN, Number.POSITIVE_INFINITY, undefined, null, true, false),
  fc.string(),
  fc.constantFrom('\uFDD0D2020', '\uD800', 'a\uDC00b', '😀', '[x'),
  fc.date({ noInvalidDate: true }),
  fc.constantFrom<unknown>(new Point(1), () => 1, { toJSON: () => 'j' }, new Map([['k', 1]])),
);
const inner = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.dictionary(fc.constantFrom('k', 'j'), scalar, { maxKeys: 2, noNullPrototype: true }));
const value = fc.oneof(inner, fc.dictionary(fc.constantFrom('k', 'j', '0'), inner, { maxKeys: 2, noNullPrototype: true }), fc.array(inner, { maxLength: 2 }));
const doc = fc.dictionary(fc.constantFrom('a', 'm', 'status'), value, { maxKeys: 3 });
const FIELDS = ['a', 'status', 'm.k', 'm.0', 'm.k.j'];

it('binds each indexed column to what json_extract reads from the stored text', async () => {
  const c = store.collection('rows');
  for (const field of FIELDS) await c.createIndex({ key: { [field]: 1 }, name: `${field}_1` });
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 4 }), async (docs) => {
      await c.insertMany(docs.map((d) => ({ ...d, _id: `d${n++}` })));
      for (const d of docs.slice(0, 1)) await c.insertOne({ ...d, _id: `d${n++}` });
    }),
    { numRuns: 150 },
  );
  const db = new (sqlite().DatabaseSync)(store.file, { readOnly: true });
  try {
    const checks = FIELDS.map((f) => `SUM(NOT ("k:${f}" IS json_extract(doc, '$."${f.split('.').join('"."')}"') AND typeof("k:${f}") = typeof(json_extract(doc, '$."${f.split('.').join('"."')}"')))) AS "${f}"`);
    const row = db.prepare(`SELECT COUNT(*) AS rows, ${checks.join(', ')} FROM "c:rows"`).get();
    expect(row).toEqual({ rows: n, ...Object.fromEntries(FIELDS.map((f) => [f, 0])) });
  } finally {
    db.close();
  }
});
