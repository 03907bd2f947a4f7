// The embedded store builds an index's columns ascending whatever its key's directions (index-specs.ts's
// createIndexSql): SQLite reads it backwards for a descending sort, and an index of rising values (start
// times) no longer takes each new entry at its first page, which split half empty. Finds answer as before;
// an index an earlier version built descending is left as it is.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import type { EmbeddedCollection } from '../../core/store/embedded/collection';
import { withTempStore } from './support/temp-store';
import { withRawFile, type RawDatabase } from './support/raw-file';

let dir: string;
let store: EmbeddedStore;
const file = () => path.join(dir, 'console.sqlite');
withTempStore('index-direction-', (opened) => ({ dir, store } = opened), { each: true });

const raw = <T>(fn: (db: RawDatabase) => T): T => withRawFile(file(), fn);

const indexSql = (name: string) => raw((db) => String(db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name)?.sql));

async function jobs(n: number) {
  const c = store.collection<{ _id: string; status: string; start: number }>('jobs');
  await c.createIndex({ key: { start: -1 }, name: 'start_-1' });
  await c.createIndex({ key: { status: 1, start: -1 }, name: 'status_1_start_-1' });
  // Started one after another, each completed at once: as the engine writes them.
  for (let i = 0; i < n; i++) {
    await c.insertOne({ _id: `j${String(i).padStart(4, '0')}`, status: 'running', start: 1000 + i });
    await c.updateOne({ _id: `j${String(i).padStart(4, '0')}` }, { $set: { status: i % 3 ? 'complete' : 'failed' } });
  }
  return c;
}

describe('an index of a descending key', () => {
  it('answers newest first from the index, as a find in the key mixed directions is answered', async () => {
    const c = await jobs(60);
    const ids = (docs: { _id: string }[]) => docs.map((d) => d._id);
    const all = await c.find({});
    const newest = [...all].sort((a, b) => b.start - a.start);
    expect(ids(await c.find({}, { sort: { start: -1 }, limit: 5 }))).toEqual(ids(newest.slice(0, 5)));
    expect(ids(await c.find({ status: 'failed' }, { sort: { start: -1 } }))).toEqual(ids(newest.filter((d) => d.status === 'failed')));
    const mixed = [...all].sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : b.start - a.start));
    expect(ids(await c.find({}, { sort: { status: 1, start: -1 } }))).toEqual(ids(mixed));
    // Read from the index, no sort of SQLite's own.
    const embedded = store.collection('jobs') as EmbeddedCollection;
    const plan = (await embedded.explain({ status: 'complete' }, { sort: { start: -1 } })).join(' | ');
    expect(plan).toMatch(/USING INDEX i:jobs:status_1_start_-1/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    expect((await embedded.explain({}, { sort: { start: -1 } })).join(' | ')).not.toMatch(/TEMP B-TREE/);
    expect(indexSql('i:jobs:start_-1')).not.toContain('DESC');
  });

  it('fills its pages: rising values no longer split its first page half empty', async () => {
    await jobs(1500);
    await store.close();
    const { used, size } = raw((db) => db.prepare(`SELECT sum(pgsize - unused) AS used, sum(pgsize) AS size FROM dbstat WHERE name = 'i:jobs:start_-1' AND pagetype = 'leaf'`).get()) as { used: number; size: number };
    // Built descending its leaves were ~45 % used.
    expect(used / size).toBeGreaterThan(0.8);
    store = await openEmbeddedStore(dir);
  });

  it('is left as an earlier version built it (descending), and answers the same', async () => {
    const c = await jobs(30);
    const before = await c.find({ status: 'complete' }, { sort: { start: -1 } });
    await store.close();
    const descending = indexSql('i:jobs:status_1_start_-1').replace('"k:start"', '"k:start" DESC');
    raw((db) => db.exec(`DROP INDEX "i:jobs:status_1_start_-1"; ${descending}`));
    store = await openEmbeddedStore(dir);
    const again = store.collection<{ _id: string; status: string; start: number }>('jobs');
    expect(await again.find({ status: 'complete' }, { sort: { start: -1 } })).toEqual(before);
    await store.close();
    expect(indexSql('i:jobs:status_1_start_-1')).toBe(descending);
    store = await openEmbeddedStore(dir);
  });
});
