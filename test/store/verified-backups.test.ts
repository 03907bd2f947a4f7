// Verified backups: each backup has a manifest beside it (checksum, size, pages, counts, the
// store's id, the console's version, when); `GET /store/backups` marks a backup that no longer
// matches it, and a restore of one answers 409 naming the backup and the failed check, changing
// nothing. A backup without a manifest is unverified: restored only when that is confirmed.
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sqlite } from '../../core/store/embedded/sqlite';
import { backupFile, consoles, dbFile, json, jobTotal, restore, startJobs, takeBackup } from './support/console-dirs';
import type { TestHost } from '../support/host';

const c = consoles();
afterEach(() => c.cleanup());

const manifestOf = (dataDir: string, id: string) => backupFile(dataDir, id).replace(/\.sqlite$/, '.manifest.json');
const listed = async (host: TestHost, id: string) => (await json(await host.api('/store/backups'))).body.backups.find((b: { id: string }) => b.id === id);

/** A console with 3 jobs and a backup of them, then 2 more jobs (what a restore would discard). */
async function withBackup() {
  const { host, dataDir } = await c.withJobs(3);
  const backupId = await takeBackup(host);
  await startJobs(host, 2);
  return { host, dataDir, backupId };
}

/** The restore is refused naming the backup and the check, and the store still holds its 5 jobs. */
async function refused(host: TestHost, backupId: string, check: RegExp) {
  for (const body of [{ preview: true }, {}]) {
    const answer = await restore(host, backupId, body);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toContain(`backup ${backupId}`);
    expect(answer.body.message).toMatch(check);
  }
  expect(await jobTotal(host)).toBe(5);
}

describe('a backup and its manifest', () => {
  it('is written beside the backup, owner-only, naming its checksum, size, pages, counts, the store and the console version; the backup is listed ok', async () => {
    const { host, dataDir, backupId } = await withBackup();
    const manifest = JSON.parse(readFileSync(manifestOf(dataDir, backupId), 'utf8'));
    const status = (await json(await host.api('/store/status'))).body;
    expect(manifest).toMatchObject({
      backup: backupId,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      bytes: statSync(backupFile(dataDir, backupId)).size,
      pageCount: expect.any(Number),
      counts: expect.objectContaining({ jobs: 3, workflows: 1 }),
      storeId: status.identity.id,
      consoleVersion: '2022.1.0',
      takenAt: expect.any(String),
    });
    expect(statSync(manifestOf(dataDir, backupId)).mode & 0o777).toBe(0o600);
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'ok' }, storeId: status.identity.id, counts: { jobs: 3 } });
    // A good backup restores: the 2 later jobs are discarded.
    expect((await restore(host, backupId)).status).toBe(200);
    expect(await jobTotal(host)).toBe(3);
  }, 60_000);
});

describe('a backup that no longer matches its manifest', () => {
  it('emptied (0 bytes): listed bad, the restore refused naming it', async () => {
    const { host, dataDir, backupId } = await withBackup();
    truncateSync(backupFile(dataDir, backupId), 0);
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'bad', reason: expect.stringContaining('emptied') } });
    await refused(host, backupId, /emptied: the file is 0 bytes/);
  }, 60_000);

  it('swapped for another SQLite file: listed bad (store id), the restore refused', async () => {
    const { host, dataDir, backupId } = await withBackup();
    rmSync(backupFile(dataDir, backupId));
    const other = new (sqlite().DatabaseSync)(backupFile(dataDir, backupId));
    other.exec('CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (\'not a console store\')');
    other.close();
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'bad', reason: expect.stringContaining('store id: the file holds no store identity') } });
    await refused(host, backupId, /fails its check, store id/);
  }, 60_000);

  it('swapped for the backup of another store (its own manifest along): listed bad, the restore refused naming both stores', async () => {
    const { host, dataDir, backupId } = await withBackup();
    const { host: otherHost, dataDir: otherDir } = await c.withJobs(1);
    const otherId = await takeBackup(otherHost);
    const otherStore = (await json(await otherHost.api('/store/status'))).body.identity.id;
    await c.stop(otherHost);
    copyFileSync(backupFile(otherDir, otherId), backupFile(dataDir, otherId));
    copyFileSync(manifestOf(otherDir, otherId), manifestOf(dataDir, otherId));
    expect(await listed(host, otherId)).toMatchObject({ check: { state: 'bad', reason: expect.stringContaining(`a backup of store ${otherStore}`) } });
    await refused(host, otherId, new RegExp(`store id: it is a backup of store ${otherStore}`));
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'ok' } });
  }, 60_000);

  it('with rows deleted: listed bad (counts), the restore refused', async () => {
    const { host, dataDir, backupId } = await withBackup();
    const db = new (sqlite().DatabaseSync)(backupFile(dataDir, backupId));
    db.exec(`DELETE FROM "c:jobs" WHERE rowid IN (SELECT rowid FROM "c:jobs" LIMIT 2)`);
    db.close();
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'bad', reason: expect.stringContaining('counts: the file holds jobs 1 (manifest 3)') } });
    await refused(host, backupId, /counts: the file holds jobs 1 \(manifest 3\)/);
  }, 60_000);

  it('truncated: listed bad (size), the restore refused', async () => {
    const { host, dataDir, backupId } = await withBackup();
    const file = backupFile(dataDir, backupId);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'bad', reason: expect.stringMatching(/^size: the file is \d+ bytes, its manifest says \d+/) } });
    await refused(host, backupId, /size: the file is \d+ bytes/);
  }, 60_000);

  it('one byte changed, size and counts kept: the restore refused by its checksum', async () => {
    const { host, dataDir, backupId } = await withBackup();
    const file = backupFile(dataDir, backupId);
    const bytes = readFileSync(file);
    // The last byte of the file: a free or unused byte of the last page, so the database still reads.
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    writeFileSync(file, bytes);
    await refused(host, backupId, /checksum: the sha256 of the file differs from its manifest/);
  }, 60_000);
});

describe('a backup taken before backups carried a manifest', () => {
  it('is listed unverified; a restore is refused until confirmed with { "unverified": true }, then runs and is logged so', async () => {
    const { host, dataDir, backupId } = await withBackup();
    rmSync(manifestOf(dataDir, backupId));
    expect(await listed(host, backupId)).toMatchObject({ check: { state: 'unverified', reason: expect.stringContaining('before backups carried a manifest') } });
    const preview = await restore(host, backupId, { preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body.backup.check.state).toBe('unverified');
    const plain = await restore(host, backupId, {});
    expect(plain.status).toBe(409);
    expect(plain.body.message).toContain(`backup ${backupId} is unverified`);
    expect(await jobTotal(host)).toBe(5);
    const confirmed = await restore(host, backupId, { unverified: true });
    expect(confirmed.status).toBe(200);
    expect(await jobTotal(host)).toBe(3);
    const log = JSON.stringify((await json(await host.api('/logs?limit=200'))).body);
    expect(log).toContain('unverified (taken before manifests; restored as confirmed)');
    // The restored file is the same store, and opens again after a restart.
    const id = (await json(await host.api('/store/status'))).body.identity.id;
    await c.stop(host);
    const again = await c.start(dataDir);
    expect((await json(await again.api('/store/status'))).body).toMatchObject({ connected: true, identity: { id } });
    expect(existsSync(dbFile(dataDir))).toBe(true);
  }, 60_000);
});
