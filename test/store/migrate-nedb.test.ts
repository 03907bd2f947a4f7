// A profile whose store is still in the previous embedded format (a collection
// file per collection, appended to on each write) is converted into the SQLite file
// once, at open: every document as its last line left it, dates as dates, the
// index specifications with their constraints, progress reported, the old files
// kept as a backup, and nothing converted when a file is damaged.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embeddedDir, openStore } from '../../core/store/open';
import type { MigrationProgress } from '../../core/store/embedded/migrate-nedb';
import { startTestHost } from '../support/host';
import { NedbCollectionFile, writeNedbFolder } from './nedb-fixture';

let dataDir: string;
let db: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'migrate-'));
  db = embeddedDir(dataDir, 'primary');
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const JOBS = 1200;

/** A folder as the previous release left it after a day of work. */
async function previousReleaseFolder() {
  const jobs = new NedbCollectionFile().index('name').index('status');
  for (let i = 0; i < JOBS; i++) {
    jobs.insert({ _id: `job-${i}`, name: `wf-${i % 10}`, status: 'running', metrics: { start_time: 1_600_000_000_000 + i, user: 'admin' }, variables: { 'device.name': `r${i}` } });
  }
  // Later lines of an _id replace earlier ones; removals drop the document.
  for (let i = 0; i < JOBS; i += 3) jobs.update({ _id: `job-${i}`, name: `wf-${i % 10}`, status: 'complete', metrics: { start_time: 1_600_000_000_000 + i, end_time: 1_600_000_100_000 + i } });
  for (let i = 1; i < JOBS; i += 100) jobs.remove(`job-${i}`);
  const workflows = new NedbCollectionFile().index('name', true);
  workflows.insert({ _id: 'w1', name: 'deploy', created: new Date('2022-02-01T10:00:00.000Z'), tasks: { a1: { name: 'query' } } });
  const empty = new NedbCollectionFile();
  await writeNedbFolder(db, { jobs, workflows, wfe_workers: empty }, {
    workflows: [{ key: { name: 1 }, name: 'name_1', unique: true }],
    jobs: [{ key: { status: 1, 'metrics.start_time': -1 }, name: 'status_1_metrics.start_time_-1' }],
  });
  return { removed: Math.ceil((JOBS - 1) / 100), jobsText: jobs.text() };
}

describe('conversion of the previous embedded format', () => {
  it('converts every collection once at open, with progress, a count check and a backup', async () => {
    const { removed, jobsText } = await previousReleaseFolder();
    const progress: MigrationProgress[] = [];
    const store = await openStore(dataDir, { id: 'primary' }, { onProgress: (p) => progress.push(p) });

    const jobs = store.collection('jobs');
    expect(await jobs.count()).toBe(JOBS - removed);
    expect(await jobs.findOne({ _id: 'job-1' })).toBeNull();
    expect(await jobs.findOne({ _id: 'job-3' })).toEqual({
      _id: 'job-3',
      name: 'wf-3',
      status: 'complete',
      metrics: { start_time: 1_600_000_000_003, end_time: 1_600_000_100_003 },
    });
    expect((await jobs.findOne({ _id: 'job-4' }))?.variables).toEqual({ 'device.name': 'r4' });
    const completeKept = Array.from({ length: JOBS }, (_, i) => i).filter((i) => i % 3 === 0 && i % 100 !== 1).length;
    expect(await jobs.count({ status: 'complete' })).toBe(completeKept);
    const workflow = await store.collection('workflows').findOne({ name: 'deploy' });
    expect(workflow?.created).toEqual(new Date('2022-02-01T10:00:00.000Z'));
    expect(await store.listCollections()).toEqual(['jobs', 'wfe_workers', 'workflows']);
    expect((await store.collection('workflows').listIndexes()).map((i) => i.name)).toEqual(['_id_', 'name_1']);
    await expect(store.collection('workflows').insertOne({ name: 'deploy' })).rejects.toThrow(/duplicate key in collection workflows/);

    expect(progress.map((p) => p.phase)).toEqual(['reading', 'reading', 'reading', 'writing', 'writing', 'writing', 'done']);
    expect(progress.at(-1)?.message).toBe(`converted 3 collections, ${JOBS - removed + 1} documents, into ${path.join(db, 'console.sqlite')}`);

    // The old files are kept, unchanged, beside the database.
    const entries = await readdir(db);
    expect(entries.filter((f) => f.endsWith('.db'))).toEqual([]);
    const backup = entries.find((f) => f.startsWith('nedb-backup-'));
    expect(backup).toBeDefined();
    expect((await readdir(path.join(db, backup!))).sort()).toEqual(['indexes.json', 'jobs.db', 'wfe_workers.db', 'workflows.db']);
    expect(await readFile(path.join(db, backup!, 'jobs.db'), 'utf8')).toBe(jobsText);
    await store.close();

    // Opened again: nothing to convert.
    const again: MigrationProgress[] = [];
    const reopened = await openStore(dataDir, { id: 'primary' }, { onProgress: (p) => again.push(p) });
    expect(again).toEqual([]);
    expect(await reopened.collection('jobs').count()).toBe(JOBS - removed);
    await reopened.close();
  });

  it('converts nothing from a folder with a damaged line, naming the file and line, and keeps the files', async () => {
    const jobs = new NedbCollectionFile().insert({ _id: 'a', name: 'x' }).raw('{"_id":"b","name":').insert({ _id: 'c' });
    const tasks = new NedbCollectionFile().insert({ _id: 't1', status: 'queued' });
    await writeNedbFolder(db, { jobs, tasks });
    // The profile still opens (the console starts); its store names the cause at every call.
    const unopened = await openStore(dataDir, { id: 'primary' }, { onProgress: () => undefined });
    const error = await unopened.ping().catch((e: unknown) => e);
    expect((error as Error).message).toContain(`damaged store file ${path.join(db, 'jobs.db')}, line 2: not valid JSON`);
    expect((error as Error).message).toContain('Nothing was converted');
    expect((await readdir(db)).filter((f) => f.endsWith('.db')).sort()).toEqual(['jobs.db', 'tasks.db']);

    // Once the line is removed, the next open converts the folder.
    await writeNedbFolder(db, { jobs: new NedbCollectionFile().insert({ _id: 'a', name: 'x' }).insert({ _id: 'c' }), tasks });
    const store = await openStore(dataDir, { id: 'primary' }, { onProgress: () => undefined });
    expect(await store.collection('jobs').count()).toBe(2);
    expect(await store.collection('tasks').count()).toBe(1);
    await store.close();
  });

  it('a console started on a data directory of the previous release serves its jobs', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'migrate-host-'));
    try {
      await writeNedbFolder(embeddedDir(dir, 'default'), {
        jobs: new NedbCollectionFile().insert({ _id: 'old-job', name: 'deploy', status: 'complete', metrics: { start_time: 1_650_000_000_000, end_time: 1_650_000_001_000 } }),
      });
      const host = await startTestHost({ dataDir: dir });
      try {
        const body = await (await host.api('/operations-manager/jobs')).json();
        expect(body.metadata.total).toBe(1);
        expect(body.data[0]).toMatchObject({ _id: 'old-job', name: 'deploy', status: 'complete', ancestors: ['old-job'], type: 'automation' });
        expect(existsSync(path.join(embeddedDir(dir, 'default'), 'jobs.db'))).toBe(false);
      } finally {
        await host.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
