// A store that never lies: a file the console initialised that is emptied or removed is not
// opened as a new store, a damaged file is read-only and red, a backup brings the data back.
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync, truncateSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

const dirs: string[] = [];
const hosts: TestHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.dispose();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function start(dataDir: string) {
  const host = await startTestHost({ dataDir });
  hosts.push(host);
  return host;
}

async function stop(host: TestHost) {
  hosts.splice(hosts.indexOf(host), 1);
  await host.dispose();
}

const json = async (response: Response) => ({ status: response.status, body: await response.json() });
const dbFile = (dataDir: string) => path.join(dataDir, 'profiles', 'default', 'db', 'console.sqlite');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A console with a workflow and 3 jobs, stopped; its data directory. */
async function consoleWithThreeJobs(): Promise<{ dataDir: string; backupId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-safety-'));
  dirs.push(dataDir);
  const host = await start(dataDir);
  await host.api('/task-worker/stop', { method: 'POST' });
  expect((await host.api('/workflows', { method: 'POST', json: workflow('three', {}, [['workflow_start', 'workflow_end']]) })).status).toBe(201);
  for (let i = 0; i < 3; i++) {
    expect((await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'three' } })).status).toBe(200);
  }
  const taken = await json(await host.api('/store/backups', { method: 'POST' }));
  expect(taken.status).toBe(201);
  await stop(host);
  return { dataDir, backupId: taken.body.id };
}

const jobCount = async (host: TestHost) => (await json(await host.api('/operations-manager/jobs?limit=100'))).body;

describe('a database file the console initialised', () => {
  it('emptied while the console was stopped: not opened as new, the file untouched, attention red naming the newest backup, a restore brings the 3 jobs back', async () => {
    const { dataDir, backupId } = await consoleWithThreeJobs();
    truncateSync(dbFile(dataDir), 0);
    const host = await start(dataDir);

    const status = await json(await host.api('/store/status'));
    expect(status.body.connected).toBe(false);
    expect(status.body.safety).toMatchObject({ state: 'stopped', writable: false });
    expect(status.body.safety.reason).toContain(`${dbFile(dataDir)} is empty (0 bytes), but this console initialised it`);
    expect(status.body.safety.reason).toContain('3 jobs');
    expect(status.body.backups.newest.id).toBe(backupId);
    expect(statSync(dbFile(dataDir)).size).toBe(0);

    const attention = (await json(await host.api('/console/attention'))).body;
    expect(attention.level).toBe('bad');
    const store = attention.items.find((i: { id: string }) => i.id === 'store');
    expect(store).toMatchObject({ level: 'bad', summary: 'Store stopped: its file was not opened' });
    expect(store.entries.map((e: { label: string }) => e.label)).toContain(`newest backup ${backupId}`);
    const health = (await json(await host.api('/health/status'))).body;
    expect(health.services).toContainEqual(expect.objectContaining({ service: 'embedded-store', status: 'failed' }));

    // A write is refused too, and writes nothing into the file.
    expect((await host.api('/workflows', { method: 'POST', json: workflow('new', {}, [['workflow_start', 'workflow_end']]) })).status).toBe(503);
    expect(statSync(dbFile(dataDir)).size).toBe(0);

    const restored = await json(await host.api(`/store/backups/${backupId}/restore`, { method: 'POST' }));
    expect(restored.status).toBe(200);
    expect(restored.body.replacedFile).toMatch(/console\.sqlite\.replaced-/);
    expect(statSync(restored.body.replacedFile).size).toBe(0);
    const jobs = await jobCount(host);
    expect(jobs.metadata.total).toBe(3);
    expect((await json(await host.api('/store/status'))).body.safety).toMatchObject({ state: 'ok', writable: true });
    const after = (await json(await host.api('/console/attention'))).body.items.find((i: { id: string }) => i.id === 'store');
    expect(after.level).toBe('ok');
  });

  it('removed while the console was stopped: not created afresh, the store stopped naming why', async () => {
    const { dataDir } = await consoleWithThreeJobs();
    rmSync(dbFile(dataDir));
    const host = await start(dataDir);
    const status = (await json(await host.api('/store/status'))).body;
    expect(status.safety.state).toBe('stopped');
    expect(status.safety.reason).toContain('is missing, but this console initialised it');
    expect(() => statSync(dbFile(dataDir))).toThrow(/ENOENT/);
  });

  it('8 KB of garbage in the middle: read-only and red, writes answer 503 naming the file and the check, nothing written; a restore brings it back', async () => {
    const { dataDir, backupId } = await consoleWithThreeJobs();
    const file = dbFile(dataDir);
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8192, 0x7a), 0, 8192, Math.max(4096, Math.floor(size / 2 / 4096) * 4096));
    closeSync(fd);
    const before = sha(file);
    const host = await start(dataDir);

    const status = (await json(await host.api('/store/status'))).body;
    expect(status.safety.state).toBe('read-only');
    expect(status.safety.reason).toMatch(/PRAGMA quick_check at open found \d+ problems?/);
    const write = await json(await host.api('/workflows', { method: 'POST', json: workflow('after-damage', {}, [['workflow_start', 'workflow_end']]) }));
    expect(write.status).toBe(503);
    expect(write.body.message).toContain(`the embedded store ${file} is read-only: PRAGMA quick_check at open found`);
    const attention = (await json(await host.api('/console/attention'))).body;
    expect(attention.items.find((i: { id: string }) => i.id === 'store')).toMatchObject({ level: 'bad', summary: 'Store read-only: its check at open failed' });
    await stop(host);
    expect(sha(file)).toBe(before);

    // The backup taken before the damage brings the store back; the damaged file is kept as it was.
    const again = await start(dataDir);
    const restored = await json(await again.api(`/store/backups/${backupId}/restore`, { method: 'POST' }));
    expect(restored.status).toBe(200);
    expect(sha(restored.body.replacedFile)).toBe(before);
    expect((await json(await again.api('/store/status'))).body.safety.state).toBe('ok');
    const jobs = await jobCount(again);
    expect(jobs.metadata.total).toBe(3);
  });

  it('a file that is not a SQLite database is left as it is and the store stops, whether or not the console knew it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-safety-'));
    dirs.push(dataDir);
    const file = dbFile(dataDir);
    await start(dataDir).then(stop);
    writeFileSync(file, 'not a database at all');
    const host = await start(dataDir);
    const status = (await json(await host.api('/store/status'))).body;
    expect(status.safety).toMatchObject({ state: 'stopped' });
    expect(status.safety.reason).toContain('it is not a SQLite database');
    expect(readFileSync(file, 'utf8')).toBe('not a database at all');
  });

  it('creates the database file readable by its owner only', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-safety-'));
    dirs.push(dataDir);
    await start(dataDir);
    expect(statSync(dbFile(dataDir)).mode & 0o777).toBe(0o600);
    const record = JSON.parse(readFileSync(path.join(path.dirname(dbFile(dataDir)), 'store-state.json'), 'utf8'));
    expect(record.files[dbFile(dataDir)]).toMatchObject({ schemaVersion: 1, initialisedAt: expect.any(String) });
  });
});

describe('what the file keeps of overwritten data', () => {
  it('keeps no trace of an overwritten secret in the file (secure_delete)', async () => {
    const { openEmbeddedStore } = await import('../../core/store/embedded/store');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-secure-delete-'));
    dirs.push(dir);
    const store = await openEmbeddedStore(dir);
    const configs = store.collection('service_configs');
    await configs.insertOne({ _id: 'a', properties: { password: 'Old-Secret-Value-4711', padding: 'x'.repeat(2000) } });
    await configs.updateOne({ _id: 'a' }, { $set: { 'properties.password': 'enc:v1:sealed' } });
    await configs.insertOne({ _id: 'b', token: 'Deleted-Token-0815' });
    await configs.deleteOne({ _id: 'b' });
    await store.close();
    const bytes = readFileSync(path.join(dir, 'console.sqlite')).toString('latin1');
    expect(bytes).toContain('enc:v1:sealed');
    expect(bytes).not.toContain('Old-Secret-Value-4711');
    expect(bytes).not.toContain('Deleted-Token-0815');
  });
});

describe('an existing database file readable by others', () => {
  it('is made owner-only when the console opens it, keeping the owner\'s own bits', async () => {
    const { openEmbeddedStore } = await import('../../core/store/embedded/store');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-mode-'));
    dirs.push(dir);
    const first = await openEmbeddedStore(dir);
    await first.close();
    const file = path.join(dir, 'console.sqlite');
    chmodSync(file, 0o644);
    const store = await openEmbeddedStore(dir);
    await store.collection('jobs').insertOne({ a: 1 });
    await store.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('damage found while the store reads', () => {
  it('a document whose text is not JSON: 503 naming the file, the store read-only and red, nothing written after', async () => {
    const { dataDir } = await consoleWithThreeJobs();
    const file = dbFile(dataDir);
    // Damage inside the documents' text leaves SQLite's pages sound; the check at open reads each document's _id
    // from its text (identity.ts's ID_COLUMN) and finds it there already.
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).toContain('"name":"three"');
    writeFileSync(file, Buffer.from(bytes.replaceAll('"name":"three"', `"name":"three'`), 'latin1'));
    const { DatabaseSync } = await import('node:sqlite');
    const host = await start(dataDir);
    expect((await json(await host.api('/store/status'))).body.safety).toMatchObject({ state: 'read-only', reason: 'PRAGMA quick_check at open found 1 problem (malformed JSON)' });

    const list = await json(await host.api('/operations-manager/jobs?limit=100'));
    expect(list.status).toBe(503);
    expect(list.body.message).toContain(`collection jobs in ${file} holds a damaged document`);
    const status = (await json(await host.api('/store/status'))).body;
    expect(status.safety).toMatchObject({ state: 'read-only', reason: expect.stringContaining('malformed JSON') });
    expect((await json(await host.api('/console/attention'))).body.items.find((i: { id: string }) => i.id === 'store').level).toBe('bad');
    const write = await host.api('/workflows', { method: 'POST', json: workflow('after-damage', {}, [['workflow_start', 'workflow_end']]) });
    expect(write.status).toBe(503);
    await stop(host);
    const check = new DatabaseSync(file, { readOnly: true });
    expect(check.prepare(`SELECT count(*) AS n FROM "c:workflows" WHERE doc LIKE '%after-damage%'`).get()).toEqual({ n: 0 });
    check.close();
  });
});
