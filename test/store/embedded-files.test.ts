// The embedded store's files: what survives a restart, where index specs are
// kept, and how a damaged file is reported.
import { mkdtemp, readFile, readdir, rm, writeFile, appendFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore } from '../../core/store/embedded/store';
import { openStore, embeddedDir } from '../../core/store/open';
import { StoreError } from '../../core/store/errors';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'store-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embedded store files', () => {
  it('keeps one file per collection under <dataDir>/profiles/<id>/db and documents across a restart', async () => {
    const store = await openStore(dir, { id: 'primary', mongoProps: { db: 'automation' } });
    expect(store.kind).toBe('embedded');
    expect(store.location).toBe(`embedded store in ${path.join(dir, 'profiles', 'primary', 'db')}`);
    await store.collection('jobs').insertOne({ _id: 'j1', status: 'running' });
    await store.collection('tasks').insertOne({ _id: 't1', status: 'queued' });
    await store.close();

    expect((await readdir(embeddedDir(dir, 'primary'))).sort()).toEqual(['jobs.db', 'tasks.db']);
    const again = await openStore(dir, { id: 'primary' });
    expect(await again.collection('jobs').findOne({ _id: 'j1' })).toEqual({ _id: 'j1', status: 'running' });
    expect(await again.listCollections()).toEqual(['jobs', 'tasks']);
    await again.close();
  });

  it('keeps index names and options in indexes.json and enforces them after a restart', async () => {
    const db = path.join(dir, 'db');
    const store = await openEmbeddedStore(db);
    const workflows = store.collection('workflows');
    await workflows.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
    await workflows.createIndex({ key: { 'metrics.start_time': -1, status: 1 }, name: 'by_start' });
    await workflows.insertOne({ name: 'deploy' });
    await store.close();

    const saved = JSON.parse(await readFile(path.join(db, 'indexes.json'), 'utf8'));
    expect(saved.collections.workflows).toEqual([
      { key: { name: 1 }, name: 'name_1', unique: true },
      { key: { 'metrics.start_time': -1, status: 1 }, name: 'by_start' },
    ]);

    const again = await openEmbeddedStore(db);
    expect((await again.collection('workflows').listIndexes()).map((i) => i.name)).toEqual(['_id_', 'name_1', 'by_start']);
    await expect(again.collection('workflows').insertOne({ name: 'deploy' })).rejects.toThrow(/duplicate key in collection workflows/);
    await again.close();
  });

  it('reports a damaged file with its name and line instead of loading part of it', async () => {
    const db = path.join(dir, 'db');
    const store = await openEmbeddedStore(db);
    await store.collection('jobs').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    await store.close();
    const file = path.join(db, 'jobs.db');
    await appendFile(file, '{"_id":"c","status":\n{"_id":"d"}\n');

    const again = await openEmbeddedStore(db);
    const error = await again.collection('jobs').find({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('damaged');
    expect((error as Error).message).toContain(`damaged store file ${file}, line 3`);
    // The health check sees it too.
    await expect(again.ping()).rejects.toThrow(`damaged store file ${file}, line 3`);
    // Other collections keep working.
    await again.collection('tasks').insertOne({ ok: true });
    expect(await again.collection('tasks').count()).toBe(1);
    await again.close();
  });

  it('opens with a damaged indexes.json and says so at each use, naming the file', async () => {
    const db = path.join(dir, 'db');
    const store = await openEmbeddedStore(db);
    await store.collection('jobs').insertOne({ _id: 'a' });
    await store.close();
    await writeFile(path.join(db, 'indexes.json'), '{"collections": {"jobs": [');
    const again = await openEmbeddedStore(db);
    await expect(again.ping()).rejects.toThrow(`damaged index file ${path.join(db, 'indexes.json')}`);
    await expect(again.collection('jobs').count()).rejects.toThrow(/damaged index file/);
    await again.close();
  });

  it('refuses a line that is a document without _id', async () => {
    const db = path.join(dir, 'db');
    const store = await openEmbeddedStore(db);
    await writeFile(path.join(db, 'tasks.db'), '{"_id":"a","x":1}\n{"x":2}\n');
    await expect(store.collection('tasks').count()).rejects.toThrow(/tasks\.db, line 2: a document without _id/);
    await store.close();
  });

  it('shares one copy of a folder between the stores one process opens on it', async () => {
    const db = path.join(dir, 'db');
    const a = await openEmbeddedStore(db);
    const b = await openEmbeddedStore(db);
    await a.collection('tasks').insertOne({ _id: 't1' });
    expect(await b.collection('tasks').findOne({ _id: 't1' })).toEqual({ _id: 't1' });
    await a.close();
    // Still open through b.
    expect(await b.collection('tasks').count()).toBe(1);
    await b.close();
    await expect(Promise.resolve().then(() => b.collection('tasks'))).rejects.toThrow(/closed/);
  });
});
