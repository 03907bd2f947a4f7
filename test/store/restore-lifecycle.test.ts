// Restores that lose nothing: two restores asked at once run one (the other answers 409 naming
// it), and every job accepted after it survives a restart; a preview names what a restore would
// discard and changes nothing; a restore under another console is refused naming it; what an
// interrupted backup or restore left is removed at open, and the files a restore replaced are listed.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { listReplaced, pruneReplaced } from '../../core/store/embedded/restore-files';

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
const dbFolder = (dataDir: string) => path.join(dataDir, 'profiles', 'default', 'db');
const dbFile = (dataDir: string) => path.join(dbFolder(dataDir), 'console.sqlite');

async function startJobs(host: TestHost, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const started = await json(await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'three' } }));
    expect(started.status).toBe(200);
    ids.push(started.body.data._id);
  }
  return ids;
}

const jobTotal = async (host: TestHost) => (await json(await host.api('/operations-manager/jobs?limit=100'))).body.metadata.total;

/** A running console with a workflow, 3 jobs and a backup of them. */
async function consoleWithBackup(): Promise<{ host: TestHost; dataDir: string; backupId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-restore-'));
  dirs.push(dataDir);
  const host = await start(dataDir);
  await host.api('/task-worker/stop', { method: 'POST' });
  expect((await host.api('/workflows', { method: 'POST', json: workflow('three', {}, [['workflow_start', 'workflow_end']]) })).status).toBe(201);
  await startJobs(host, 3);
  const taken = await json(await host.api('/store/backups', { method: 'POST' }));
  expect(taken.status).toBe(201);
  return { host, dataDir, backupId: taken.body.id };
}

const restore = (host: TestHost, id: string, body?: unknown) =>
  host.api(`/store/backups/${id}/restore`, { method: 'POST', ...(body === undefined ? {} : { json: body }) }).then(json);

describe('one store lifecycle', () => {
  it('four restores at once (a double-click and retries): one restores, the others answer 409 naming it; 5 jobs accepted after it are 5 of 5 after a restart', async () => {
    const { host, dataDir, backupId } = await consoleWithBackup();
    await startJobs(host, 2);
    const answers = await Promise.all([restore(host, backupId), restore(host, backupId), restore(host, backupId), restore(host, backupId)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.message).toContain(`the restore of backup ${backupId} is refused: the restore of backup ${backupId} is running`);
    expect(await jobTotal(host)).toBe(3);

    const after = await startJobs(host, 5);
    expect(await jobTotal(host)).toBe(8);
    // One runtime: the one the host serves is the one whose heartbeat is live, on the file as it is on disk.
    const status = (await json(await host.api('/store/status'))).body;
    expect(status).toMatchObject({ connected: true, safety: { state: 'ok' } });
    await stop(host);

    const again = await start(dataDir);
    const ids = (await json(await again.api('/operations-manager/jobs?limit=100'))).body.data.map((j: { _id: string }) => j._id);
    expect(after.filter((id) => ids.includes(id))).toHaveLength(5);
    expect(ids).toHaveLength(8);
    // No half-made copy is left beside the file.
    expect(readdirSync(dbFolder(dataDir)).filter((n) => n.includes('.restoring-'))).toEqual([]);
  }, 60_000);

  it('a preview names the 4 jobs a restore would discard and changes nothing; the restore then discards exactly them and is logged', async () => {
    const { host, dataDir, backupId } = await consoleWithBackup();
    const since = await startJobs(host, 4);
    const preview = await restore(host, backupId, { preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ preview: true, backup: { id: backupId }, file: dbFile(dataDir) });
    expect(preview.body.discards.jobs).toBe(4);
    expect(preview.body.discards.workflows).toBe(0);
    expect(preview.body.jobs.map((j: { _id: string }) => j._id).sort()).toEqual([...since].sort());
    expect(preview.body.jobs[0]).toMatchObject({ name: expect.stringContaining('three') });
    // Nothing changed: the jobs are there, no file was replaced.
    expect(await jobTotal(host)).toBe(7);
    expect(readdirSync(dbFolder(dataDir)).filter((n) => n.includes('.replaced-'))).toEqual([]);

    const done = await restore(host, backupId, {});
    expect(done.status).toBe(200);
    expect(await jobTotal(host)).toBe(3);
    const again = await restore(host, backupId, { preview: true });
    expect(again.body.discards.jobs).toBe(0);
    const log = (await json(await host.api('/logs?limit=200'))).body;
    expect(JSON.stringify(log)).toContain(`backup ${backupId}`);
    expect(JSON.stringify(log)).toContain(`the replaced file is kept as ${done.body.replacedFile}`);
  }, 60_000);

  it('a preview with a wrong field answers 400 naming it', async () => {
    const { host, backupId } = await consoleWithBackup();
    const bad = await restore(host, backupId, { preview: 'yes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('body.preview');
  });
});

describe('a preview of a file that cannot be read', () => {
  it('answers what it can (nothing counted, why), and the restore then runs', async () => {
    const { host, dataDir, backupId } = await consoleWithBackup();
    await stop(host);
    writeFileSync(dbFile(dataDir), 'not a database at all');
    const again = await start(dataDir);
    const preview = await restore(again, backupId, { preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ discards: {}, jobs: [], unreadable: expect.stringContaining(`${dbFile(dataDir)} cannot be read`) });
    expect((await restore(again, backupId)).status).toBe(200);
    expect(await jobTotal(again)).toBe(3);
  }, 60_000);
});

describe('no restore under another console', () => {
  it('a live heartbeat of another console on the file: 409 naming its host and pid; once it is gone, the restore runs', async () => {
    const { host, backupId } = await consoleWithBackup();
    const beats = host.state.runtime.store.collection('wfe_workers');
    await beats.insertOne({ _id: 'dr-site', serverName: 'dr-site', taskWorker: true, heartbeatAt: Date.now(), pid: 4242, host: 'dr-host.example' });
    const refused = await restore(host, backupId);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('another console has');
    expect(refused.body.message).toContain('server "dr-site" (host dr-host.example, pid 4242');
    expect(await jobTotal(host)).toBe(3);

    // A console of this machine whose process is gone holds nothing up, whatever its heartbeat's age.
    await beats.updateOne({ _id: 'dr-site' }, { $set: { host: os.hostname(), pid: 2 ** 22 + 17, heartbeatAt: Date.now() } });
    expect((await restore(host, backupId)).status).toBe(200);
  }, 60_000);
});

describe('the files of backups and restores', () => {
  it('a .partial backup and a .restoring copy left by a kill are removed at open; replaced files are listed, owner-only', async () => {
    const { host, dataDir, backupId } = await consoleWithBackup();
    const done = await restore(host, backupId);
    expect(done.status).toBe(200);
    expect(statSync(done.body.replacedFile).mode & 0o777).toBe(0o600);
    expect(statSync(dbFile(dataDir)).mode & 0o777).toBe(0o600);
    const listed = (await json(await host.api('/store/backups'))).body;
    expect(listed.replaced).toEqual([{ file: done.body.replacedFile, replacedAt: expect.any(Number), bytes: statSync(done.body.replacedFile).size }]);
    await stop(host);

    const partial = path.join(dbFolder(dataDir), 'backups', 'backup-20261126T011500123Z-a1b2c3.sqlite.partial');
    const restoring = `${dbFile(dataDir)}.restoring-20261126T011500123Z`;
    writeFileSync(partial, Buffer.alloc(4096, 1));
    writeFileSync(restoring, Buffer.alloc(4096, 1));
    const again = await start(dataDir);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(restoring)).toBe(false);
    expect(await jobTotal(again)).toBe(3);
  }, 60_000);
});

describe('replaced files under the retention', () => {
  it('keeps the newest `keep` replaced files (with their WAL files) and removes the rest', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-replaced-'));
    dirs.push(dir);
    const file = path.join(dir, 'console.sqlite');
    const stamps = ['20261126T010000000Z', '20261126T020000000Z', '20261126T030000000Z'];
    for (const stamp of stamps) writeFileSync(`${file}.replaced-${stamp}`, stamp);
    writeFileSync(`${file}.replaced-${stamps[0]}-wal`, 'wal');
    const removed = await pruneReplaced(file, 2);
    expect(removed).toEqual([`${file}.replaced-${stamps[0]}`]);
    expect((await listReplaced(file)).map((r) => r.file)).toEqual([`${file}.replaced-${stamps[2]}`, `${file}.replaced-${stamps[1]}`]);
    expect(existsSync(`${file}.replaced-${stamps[0]}-wal`)).toBe(false);
  });
});
