// Write failures are visible: a write the file cannot take (here a full database: SQLite's own
// "database or disk is full") answers 503 naming the cause, turns the store's safety red, is
// logged once per cause and minute, and clears by itself once a write succeeds again; the task
// worker claims nothing while the store takes no writes, and resumes by itself.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../core/store/embedded/database';
import { EmbeddedCollection } from '../../core/store/embedded/collection';
import { Engine } from '../../core/engine/index';
import type { StoreSafety } from '../../core/store/port';
import { createAttentionService } from '../../core/attention/service';
import { linearStrings, tempEmbeddedStore, waitFor } from '../engine/queue/support';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

async function fullDatabase() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'console-full-'));
  const logged: string[] = [];
  const database = new SqliteDatabase(path.join(dir, 'console.sqlite'), 1000, { error: (m) => logged.push(`error ${m}`), info: (m) => logged.push(`info ${m}`) });
  cleanup.push(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });
  const jobs = new EmbeddedCollection('jobs', database);
  await jobs.insertOne({ text: 'first' });
  // The file may grow no further: SQLite answers as on a full disk.
  const pages = Number(database.statement('PRAGMA page_count').get()?.page_count);
  database.db.exec(`PRAGMA max_page_count = ${pages}`);
  return { database, jobs, logged };
}

describe('a write the file cannot take', () => {
  it('answers 503 naming the file and the cause, turns the store red, and is logged once for many failures', async () => {
    const { database, jobs, logged } = await fullDatabase();
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 20; i++) {
      const failure = await jobs.insertOne({ big }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ statusCode: 503, message: expect.stringContaining(`the embedded store ${database.file} cannot be written: the disk is full`) });
    }
    expect(database.health.safety()).toMatchObject({ state: 'write-failing', writable: false, reason: expect.stringContaining('the disk is full') });
    expect(logged.filter((line) => line.startsWith('error'))).toHaveLength(1);
    expect(await jobs.count({})).toBe(1);
  });

  it('turns writable again by itself once writes succeed (the probe write)', async () => {
    const { database, jobs, logged } = await fullDatabase();
    await expect(jobs.insertOne({ big: 'x'.repeat(64 * 1024) })).rejects.toThrow(/disk is full/);
    database.db.exec('PRAGMA max_page_count = 1073741823');
    await waitFor('the store to take writes again', async () => database.health.safety().writable);
    expect(logged.at(-1)).toMatch(/^info \[store\] writes to .* succeed again/);
    await jobs.insertOne({ big: 'x'.repeat(64 * 1024) });
    expect(await jobs.count({})).toBe(2);
  });
});

describe('the task worker and a store that takes no writes', () => {
  it('claims nothing while the store refuses writes, and resumes by itself when it takes them again', async () => {
    const temp = await tempEmbeddedStore();
    cleanup.push(() => temp.dispose());
    let safety: StoreSafety = { state: 'write-failing', writable: false, reason: 'writes fail: the disk is full' };
    const store = Object.assign(Object.create(temp.store), { safety: () => safety });
    const engine = new Engine({ store, serverId: 'one', serverName: 'one', processTasksOnStart: false, worker: { idleMs: 10 } });
    cleanup.push(() => engine.close());
    await temp.store.collection('workflows').insertOne(linearStrings('two', 2));
    const { _id } = await engine.runner.start('two', { variables: { text: 'abc' } });
    await (await engine.open()).startWorker();
    // Several claim rounds pass (the worker's idle wait is 10 ms): the job's first task stays queued.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await temp.store.collection('tasks').count({ jobId: _id, status: 'queued' })).toBe(1);
    expect(await temp.store.collection('jobs').count({ _id, status: 'running' })).toBe(1);
    safety = { state: 'ok', writable: true };
    await waitFor('the job to complete', async () => (await temp.store.collection('jobs').count({ _id, status: 'complete' })) === 1);
  });
});

describe('the attention summary', () => {
  it('is red while the store takes no writes, naming the cause and the newest backup', async () => {
    const empty = { find: async () => [] };
    const service = createAttentionService({
      jobs: () => empty as never,
      tasks: () => empty as never,
      adapters: async () => [],
      applications: () => [],
      indexes: async () => [],
      deprecatedCalls: () => [],
      worker: () => ({ profile: 'p', processTasksOnStart: true, running: true }),
      store: async () => ({
        location: 'embedded store in /data/console.sqlite',
        safety: { state: 'write-failing', writable: false, reason: 'writes fail: the disk is full (database or disk is full)', since: 1 },
        newestBackup: { id: 'backup-20261126T010000000Z-abcdef', takenAt: 2 },
      }),
    });
    const summary = await service.summary();
    expect(summary.level).toBe('bad');
    const item = summary.items.find((i) => i.id === 'store');
    expect(item).toMatchObject({ level: 'bad', summary: 'Store writes fail' });
    expect(item?.entries[0]?.detail).toContain('the disk is full');
    expect(item?.entries[1]?.label).toBe('newest backup backup-20261126T010000000Z-abcdef');
  });
});
