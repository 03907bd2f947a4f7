// Another console process writing the same embedded file: a write of this one waits for
// it without stopping this process (its requests and tasks go on), then is written; past
// the busy timeout it fails naming the lock, and nothing written before is lost.
// The other process here is a second connection in this one, which the test commits: a
// wait that blocked this thread (SQLite's own busy handler) would never see it commit.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';

let dir: string;
let store: EmbeddedStore;
let other: DatabaseSync;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'busy-writer-'));
  store = await openEmbeddedStore(path.join(dir, 'db'), { busyTimeoutMs: 1_000 });
  await store.collection('jobs').insertOne({ _id: 'saved', status: 'complete' });
  other = new DatabaseSync(store.file);
});
afterEach(async () => {
  if (other.isOpen) other.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** The other process takes the write lock and writes, uncommitted. */
function otherWrites() {
  other.exec('BEGIN IMMEDIATE');
  other.prepare(`INSERT INTO "c:jobs" (doc) VALUES ('{"_id":"theirs","status":"running"}')`).run();
}

/** Turns of the event loop until `settled` says done (at most `max`). */
async function turnsUntil(settled: () => boolean, max = 10_000) {
  let turns = 0;
  while (!settled() && turns < max) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  return turns;
}

describe('a write while another process holds the file', () => {
  it('waits on the event loop, then writes once the other commits', async () => {
    otherWrites();
    let written = false;
    const write = store.collection('jobs').insertOne({ _id: 'ours', status: 'running' }).then(() => (written = true));
    // This process goes on meanwhile: the event loop turns, and a read answers (WAL).
    expect(await turnsUntil(() => written, 20)).toBe(20);
    expect(written).toBe(false);
    expect((await store.collection('jobs').findOne({ _id: 'saved' }))?.status).toBe('complete');
    other.exec('COMMIT');
    await write;
    expect((await store.collection('jobs').find({}, { sort: { _id: 1 } })).map((j) => j._id)).toEqual(['ours', 'saved', 'theirs']);
  });

  it('runs a transaction once the other commits', async () => {
    otherWrites();
    let done = false;
    const transaction = store.transaction!(async (tx) => {
      await tx.collection('jobs').updateOne({ _id: 'saved' }, { $set: { status: 'archived' } });
      await tx.collection('jobs').insertOne({ _id: 'ours' });
    }).then(() => (done = true));
    expect(await turnsUntil(() => done, 20)).toBe(20);
    other.exec('COMMIT');
    await transaction;
    expect((await store.collection('jobs').findOne({ _id: 'saved' }))?.status).toBe('archived');
    expect(await store.collection('jobs').count()).toBe(3);
  });

  it('fails past the busy timeout, naming the lock, and keeps what was saved', async () => {
    otherWrites();
    const error = await store.collection('jobs').updateOne({ _id: 'saved' }, { $set: { status: 'lost?' } }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/jobs: the database file .* stayed locked by another process/);
    const failed = await store.transaction!(async (tx) => tx.collection('jobs').insertOne({ _id: 'ours' })).catch((e: Error) => e);
    expect((failed as Error).message).toMatch(/the database file .* stayed locked by another process for 1 s/);
    other.exec('ROLLBACK');
    expect(await store.collection('jobs').find({})).toEqual([{ _id: 'saved', status: 'complete' }]);
    // The lock gone, writes go through again.
    await store.collection('jobs').insertOne({ _id: 'ours' });
    expect(await store.collection('jobs').count()).toBe(2);
  });
});
