// The store's identity and high-water inside the file (core/store/embedded/identity.ts), on the
// console's own tables in a file: given once, raised with the writes (at most every 5 s inside
// commits), lowered by the console's own deletes only, so whatever the console does its store is
// never taken for shrunken, and any delete made outside it after a raise is.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { countsOf, ensureIdentity, HighWater, RAISE_EVERY_MS, readIdentity, shrunken } from '../../core/store/embedded/identity';
import { sqlite, type DatabaseSync } from '../../core/store/embedded/sqlite';

const dir = mkdtempSync(path.join(os.tmpdir(), 'store-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A database file with the console's `_counts` and a `c:jobs` table counted by its triggers, as the store makes them. */
function consoleDb(file = path.join(dir, `db-${files++}.sqlite`)): DatabaseSync {
  const db = new (sqlite().DatabaseSync)(file);
  // No fsync: the test is about what the tables say, not what a power loss keeps.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF');
  db.exec(`CREATE TABLE _counts (collection TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
  db.exec(`CREATE TABLE "c:jobs" (_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)`);
  db.exec(`CREATE TRIGGER "n+:c:jobs" AFTER INSERT ON "c:jobs" BEGIN UPDATE _counts SET n = n + 1 WHERE collection = 'jobs'; END`);
  db.exec(`CREATE TRIGGER "n-:c:jobs" AFTER DELETE ON "c:jobs" BEGIN UPDATE _counts SET n = n - 1 WHERE collection = 'jobs'; END`);
  db.exec(`INSERT INTO _counts VALUES ('jobs', 0)`);
  return db;
}

let next = 0;
const insert = (db: DatabaseSync) => db.prepare(`INSERT INTO "c:jobs" (_id, doc) VALUES (?, '{}')`).run(`j${next++}`);
const deleteOne = (db: DatabaseSync) => db.exec(`DELETE FROM "c:jobs" WHERE rowid = (SELECT min(rowid) FROM "c:jobs")`);

describe('the identity of a file', () => {
  it('is given once: a second ensure keeps the id and creation', () => {
    const db = consoleDb();
    const first = ensureIdentity(db, '2026-01-01T00:00:00.000Z');
    expect(first.created).toBe(true);
    expect(first.identity).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), createdAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1, highWater: { jobs: 0 } });
    const again = ensureIdentity(db);
    expect(again.created).toBe(false);
    expect(again.identity.id).toBe(first.identity.id);
    expect(again.identity.createdAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('is raised inside commits at most every 5 s, and at once when asked (open, close)', () => {
    const db = consoleDb();
    const hw = new HighWater();
    hw.identity = ensureIdentity(db).identity;
    const generation = () => readIdentity(db)!.generation;
    const start = generation();
    hw.due(db, 1_000_000);
    insert(db);
    hw.due(db, 1_000_000 + RAISE_EVERY_MS - 1);
    expect(readIdentity(db)!.highWater.jobs).toBe(0);
    expect(generation()).toBe(start + 1);
    hw.due(db, 1_000_000 + RAISE_EVERY_MS);
    expect(readIdentity(db)!.highWater.jobs).toBe(1);
    expect(generation()).toBe(start + 2);
    insert(db);
    hw.raise(db);
    expect(readIdentity(db)!.highWater.jobs).toBe(2);
  });
});

type Step = { kind: 'insert' } | { kind: 'delete' } | { kind: 'raise' };
const step: fc.Arbitrary<Step> = fc.oneof(fc.constant({ kind: 'insert' as const }), fc.constant({ kind: 'delete' as const }), fc.constant({ kind: 'raise' as const }));

/** A console's store after `steps` (inserts, raises of the high-water, its own deletes). */
function consoleRan(steps: { kind: string }[]) {
  const db = consoleDb();
  const hw = new HighWater();
  hw.identity = ensureIdentity(db).identity;
  for (const s of steps) {
    if (s.kind === 'insert') insert(db);
    else if (s.kind === 'raise') hw.raise(db);
    else {
      hw.watchDeletes(db, 'jobs');
      deleteOne(db);
    }
  }
  return { db, hw };
}

describe('the high-water against the counts', () => {
  it('whatever the console inserts, deletes and raises, the file is never shrunken', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const { db, hw } = consoleRan(steps);
        hw.raise(db);
        expect(shrunken(readIdentity(db)!, countsOf(db))).toEqual([]);
        db.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a delete made outside the console after a raise is found, whatever came before', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (steps, outside) => {
        const { db, hw } = consoleRan(steps);
        for (let i = 0; i < outside; i++) insert(db);
        hw.raise(db);
        // Another connection on the file (a sqlite3 shell): the console's TEMP trigger is not on it.
        const held = countsOf(db).jobs!;
        const other = new (sqlite().DatabaseSync)(db.location()!);
        other.exec('PRAGMA synchronous = OFF');
        for (let i = 0; i < outside; i++) deleteOne(other);
        other.close();
        expect(shrunken(readIdentity(db)!, countsOf(db))).toEqual([`jobs: ${held - outside} of ${held}`]);
        db.close();
      }),
      { numRuns: 40 },
    );
  });
});
