// The store's identity inside its file: a copy of the data directory opened elsewhere is the same
// store; an emptied, missing, foreign, shrunken or older store is refused (the store stops, a
// restore is offered) wherever the data directory was copied or moved, with or without the side
// record `store-state.json`; the console's own deletes never count as a loss.
import { cpSync, copyFileSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sqlite } from '../../core/store/embedded/sqlite';
import { backupFile, consoles, dbFile, dbFolder, json, jobTotal, restore, startJobs, takeBackup } from './support/console-dirs';
import type { TestHost } from '../support/host';

const c = consoles();
afterEach(() => c.cleanup());

const status = async (host: TestHost) => (await json(await host.api('/store/status'))).body;

/** A stopped console with 3 jobs and a backup of them: its data directory, the store's id and the backup. */
async function stoppedWithBackup() {
  const { host, dataDir } = await c.withJobs(3);
  const backupId = await takeBackup(host);
  const id = (await status(host)).identity.id;
  await c.stop(host);
  return { dataDir, id, backupId };
}

/** The data directory copied elsewhere (a DR standby's copy), without the side record. */
function copiedWithoutRecord(dataDir: string): string {
  const copy = c.own(`${dataDir}-copy`);
  cpSync(dataDir, copy, { recursive: true });
  rmSync(path.join(dbFolder(copy), 'store-state.json'));
  rmSync(path.join(copy, 'console.lock'), { force: true });
  return copy;
}

/** The store is stopped naming `cause`, attention offers the newest backup, and the file was not made a new store. */
async function refusedAtOpen(host: TestHost, cause: RegExp, backupId: string) {
  const now = await status(host);
  expect(now.connected).toBe(false);
  expect(now.safety).toMatchObject({ state: 'stopped', writable: false });
  expect(now.safety.reason).toMatch(cause);
  expect(now.safety.reason).toContain(`POST /store/backups/${backupId}/restore`);
  const attention = JSON.stringify((await json(await host.api('/console/attention'))).body);
  expect(attention).toContain(backupId);
}

describe('a copy of the data directory opened elsewhere', () => {
  it('is the same store: same id, its jobs, no side record needed', async () => {
    const { dataDir, id } = await stoppedWithBackup();
    const copy = copiedWithoutRecord(dataDir);
    const host = await c.start(copy);
    expect(await status(host)).toMatchObject({ connected: true, safety: { state: 'ok' }, identity: { id, schemaVersion: 3, highWater: { jobs: 3 } } });
    expect(await jobTotal(host)).toBe(3);
  }, 60_000);
});

describe('a copied data directory without the side record', () => {
  it('with its store emptied (0 bytes): not opened as new, the store stopped naming the backups; a restore brings the 3 jobs back', async () => {
    const { dataDir, id, backupId } = await stoppedWithBackup();
    const copy = copiedWithoutRecord(dataDir);
    truncateSync(dbFile(copy), 0);
    const host = await c.start(copy);
    await refusedAtOpen(host, /is empty \(0 bytes\), but 1 backup of it is in/, backupId);
    expect((await restore(host, backupId)).status).toBe(200);
    expect(await jobTotal(host)).toBe(3);
    expect((await status(host)).identity.id).toBe(id);
  }, 60_000);

  it('with its store missing: not created afresh', async () => {
    const { dataDir, backupId } = await stoppedWithBackup();
    const copy = copiedWithoutRecord(dataDir);
    rmSync(dbFile(copy));
    const host = await c.start(copy);
    await refusedAtOpen(host, /is missing, but 1 backup of it/, backupId);
  }, 60_000);

  it('with another store\'s file in place: refused naming both stores', async () => {
    const { dataDir, id, backupId } = await stoppedWithBackup();
    const other = await c.withJobs(1);
    const otherId = (await status(other.host)).identity.id;
    await c.stop(other.host);
    const copy = copiedWithoutRecord(dataDir);
    copyFileSync(dbFile(other.dataDir), dbFile(copy));
    const host = await c.start(copy);
    await refusedAtOpen(host, new RegExp(`is store ${otherId} .*another store, but this data directory's store is ${id}`), backupId);
  }, 60_000);

  it('with another application\'s SQLite file in place: refused', async () => {
    const { dataDir, backupId } = await stoppedWithBackup();
    const copy = copiedWithoutRecord(dataDir);
    rmSync(dbFile(copy));
    const db = new (sqlite().DatabaseSync)(dbFile(copy));
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    const host = await c.start(copy);
    await refusedAtOpen(host, /holds tables that are not the console's \(notes\)/, backupId);
  }, 60_000);

  it('with rows deleted outside the console: refused as shrunken', async () => {
    const { dataDir, backupId } = await stoppedWithBackup();
    const copy = copiedWithoutRecord(dataDir);
    const db = new (sqlite().DatabaseSync)(dbFile(copy));
    db.exec(`DELETE FROM "c:jobs" WHERE rowid IN (SELECT rowid FROM "c:jobs" LIMIT 2)`);
    db.close();
    const host = await c.start(copy);
    await refusedAtOpen(host, /holds fewer documents than it held \(jobs: 1 of 3\)/, backupId);
  }, 60_000);
});

describe('a stopped store whose newest backup is bad too', () => {
  it('offers the newest backup that passes its checks, here and in attention', async () => {
    const { host, dataDir } = await c.withJobs(3);
    const good = await takeBackup(host);
    const emptied = await takeBackup(host);
    await c.stop(host);
    truncateSync(backupFile(dataDir, emptied), 0);
    truncateSync(dbFile(dataDir), 0);
    const again = await c.start(dataDir);
    await refusedAtOpen(again, /is empty \(0 bytes\)/, good);
    expect((await status(again)).safety.reason).not.toContain(emptied);
    expect((await restore(again, good)).status).toBe(200);
    expect(await jobTotal(again)).toBe(3);
  }, 60_000);
});

describe('a copied data directory with nothing of the store but its emptied file', () => {
  it('no side record, no backup: still not opened as new (the console never leaves its file empty)', async () => {
    const { host, dataDir } = await c.withJobs(3);
    await c.stop(host);
    const copy = copiedWithoutRecord(dataDir);
    truncateSync(dbFile(copy), 0);
    const again = await c.start(copy);
    const now = await status(again);
    expect(now.safety).toMatchObject({ state: 'stopped', writable: false });
    expect(now.safety.reason).toContain('is empty (0 bytes), but the console never leaves its file empty, so it was emptied (remove the file to start a new store)');
    expect(statSync(dbFile(copy)).size).toBe(0);
  }, 60_000);
});

describe('a moved data directory, before any backup was taken', () => {
  it('with its store emptied: refused by the side record kept under the earlier path', async () => {
    const { host, dataDir } = await c.withJobs(3);
    await c.stop(host);
    const moved = c.own(`${dataDir}-moved`);
    renameSync(dataDir, moved);
    truncateSync(dbFile(moved), 0);
    const again = await c.start(moved);
    const now = await status(again);
    expect(now.safety).toMatchObject({ state: 'stopped', writable: false });
    expect(now.safety.reason).toMatch(/is empty \(0 bytes\), but this console initialised it on .*3 jobs/);
  }, 60_000);
});

describe('an older copy of the store put back', () => {
  it('is refused: a backup of it is newer; restoring that backup opens it', async () => {
    const { host, dataDir } = await c.withJobs(2);
    await c.stop(host);
    const older = c.own(`${dbFile(dataDir)}.older`);
    copyFileSync(dbFile(dataDir), older);
    const again = await c.start(dataDir);
    await startJobs(again, 3);
    const backupId = await takeBackup(again);
    await c.stop(again);
    copyFileSync(older, dbFile(dataDir));
    const third = await c.start(dataDir);
    await refusedAtOpen(third, /is an older copy of store .* \(generation \d+\), but a backup or the record of it is newer/, backupId);
    expect((await restore(third, backupId)).status).toBe(200);
    expect(await jobTotal(third)).toBe(5);
  }, 60_000);
});

describe("the console's own deletes", () => {
  it('lower the high-water with them: a workflow deleted, then a restart, opens as before', async () => {
    const { host: first, dataDir } = await c.withJobs(0);
    // Closed once with the workflow: the high-water has seen it.
    await c.stop(first);
    const host = await c.start(dataDir);
    expect((await status(host)).identity.highWater.workflows).toBe(1);
    expect((await host.api('/workflows/three', { method: 'DELETE' })).status).toBe(200);
    const id = (await status(host)).identity.id;
    await c.stop(host);
    const again = await c.start(dataDir);
    expect(await status(again)).toMatchObject({ connected: true, safety: { state: 'ok' }, identity: { id, highWater: { workflows: 0 } } });
  }, 60_000);
});
