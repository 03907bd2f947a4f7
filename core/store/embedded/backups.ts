// Online backups of an embedded database file and their restore. A backup is SQLite's backup
// API run on its own read-only connection (WAL lets it copy a consistent state while the console
// writes), written beside its final name and renamed when complete, owner-only, in the profile's
// `db/backups` folder, with its manifest beside it (manifest.ts). A restore checks the backup against
// its manifest and with PRAGMA quick_check, keeps the file it replaces
// (`<file>.replaced-<time>`), and renames the backup's copy over the file: at every moment the
// file is the old one or the new one.
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ConsoleError } from '../../errors';
import { sqlite } from './sqlite';
import { syncRenamed } from './sync-renamed';
import { checkBackup, manifestFile, openImmutable, readManifest, writeManifest, type BackupCheck, type BackupManifest } from './manifest';

export interface BackupInfo {
  id: string;
  /** The backup's file. */
  file: string;
  /** When it was taken, ms since the epoch. */
  takenAt: number;
  bytes: number;
  /** How it stands against its manifest (listed and restored backups; the checksum only at a restore). */
  check?: BackupCheck;
  /** The store it copies and its documents per collection, as its manifest says. */
  storeId?: string;
  counts?: Record<string, number>;
}

/** `embeddedProps.backups`: how often a backup is taken and how many are kept. */
export interface BackupSchedule {
  everyMinutes: number;
  keep: number;
}

/** Hourly, a day of them kept: what an operator expects of a store that is the only copy. */
export const DEFAULT_BACKUP_SCHEDULE: BackupSchedule = { everyMinutes: 60, keep: 24 };

export const backupsDir = (folder: string) => path.join(folder, 'backups');
const SUFFIX = '.sqlite';
const ID = /^backup-\d{8}T\d{9}Z-[0-9a-f]{6}$/;

/** `backup-20261126T011500123Z-a1b2c3`: sorts by time, names nothing else. */
function newId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `backup-${stamp}-${randomBytes(3).toString('hex')}`;
}

/** The version a manifest names when the caller names none (a store opened by a tool or a test). */
const UNKNOWN_VERSION = 'unknown';

/** Takes a consistent copy of `file` into the folder's backups, with its manifest naming `consoleVersion`, then keeps the newest `keep`. */
export async function takeBackup(file: string, folder: string, keep = DEFAULT_BACKUP_SCHEDULE.keep, consoleVersion = UNKNOWN_VERSION): Promise<BackupInfo> {
  const dir = backupsDir(folder);
  const id = newId(new Date());
  const target = path.join(dir, id + SUFFIX);
  const partial = `${target}.partial`;
  let source: InstanceType<ReturnType<typeof sqlite>['DatabaseSync']> | undefined;
  try {
    // Inside the try: a folder the full disk cannot take fails as the copy does, with a 503.
    await mkdir(dir, { recursive: true, mode: 0o700 });
    source = new (sqlite().DatabaseSync)(file, { readOnly: true });
    source.exec('PRAGMA busy_timeout = 10000');
    const { backup } = sqlite();
    if (typeof backup === 'function') await backup(source, partial);
    else source.prepare('VACUUM INTO ?').run(partial);
    await chmod(partial, 0o600);
    // Before the rename: a backup in place always has its manifest (a kill between leaves a manifest alone, removed at open).
    await writeManifest(id, partial, target, consoleVersion);
    await rename(partial, target);
    await syncRenamed(target);
  } catch (error) {
    await rm(partial, { force: true });
    throw new ConsoleError('unavailable', `the backup of ${file} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    source?.close();
  }
  await prune(folder, keep);
  return describe(id, target);
}

async function describe(id: string, file: string): Promise<BackupInfo> {
  const info = await stat(file);
  return { id, file, takenAt: Math.round(info.mtimeMs), bytes: info.size };
}

/** The folder's backups, newest first; with `check`, each checked against its manifest (no checksum: that reads every file whole). */
export async function listBackups(folder: string, options: { check?: boolean } = {}): Promise<BackupInfo[]> {
  let names: string[];
  try {
    names = await readdir(backupsDir(folder));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const ids = names.filter((n) => n.endsWith(SUFFIX) && ID.test(n.slice(0, -SUFFIX.length))).map((n) => n.slice(0, -SUFFIX.length));
  const described = await Promise.all(ids.map((id) => describe(id, path.join(backupsDir(folder), id + SUFFIX))));
  const backups = options.check ? await Promise.all(described.map(async (b) => (await checked(b, false)).backup)) : described;
  return backups.sort((a, b) => b.takenAt - a.takenAt || b.id.localeCompare(a.id));
}

async function prune(folder: string, keep: number) {
  const backups = await listBackups(folder);
  await Promise.all(backups.slice(Math.max(1, keep)).flatMap((b) => [rm(b.file, { force: true }), rm(manifestFile(b.file), { force: true })]));
}

/** The backup with how it stands against its manifest, and what the manifest says it holds. */
async function checked(backup: BackupInfo, checksum: boolean): Promise<{ backup: BackupInfo; manifest?: BackupManifest }> {
  const manifest = await readManifest(backup.file);
  const check = await checkBackup(backup.file, manifest, { checksum });
  const read = manifest && !('damaged' in manifest) ? manifest : undefined;
  return { backup: { ...backup, check, ...(read ? { storeId: read.storeId, counts: read.counts } : {}) }, manifest: read };
}

/**
 * The backup `id` of the folder, checked against its manifest (checksum included) and with PRAGMA
 * quick_check: a backup that is missing answers 404; one that fails a check answers 409 naming the
 * backup and the check; one without a manifest is restored only when `unverified` is confirmed.
 */
export async function checkedBackup(folder: string, id: string, options: { allowUnverified: boolean }): Promise<{ backup: BackupInfo; manifest?: BackupManifest }> {
  const file = path.join(backupsDir(folder), id + SUFFIX);
  if (!ID.test(id)) throw new ConsoleError('bad_input', `backup "${id}" is not a backup id (backup-<time>-<hex>)`);
  let info: BackupInfo;
  try {
    info = await describe(id, file);
  } catch {
    // Not there (removed by the schedule's pruning, or never taken): the caller is told which.
    throw new ConsoleError('not_found', `backup "${id}" not found in ${backupsDir(folder)}`);
  }
  const { backup, manifest } = await checked(info, true);
  if (backup.check?.state === 'bad') throw new ConsoleError('conflict', `backup ${id} (${file}) fails its check, ${backup.check.reason}: not restored`);
  if (backup.check?.state === 'unverified' && !options.allowUnverified) {
    throw new ConsoleError('conflict', `backup ${id} is unverified (${backup.check.reason}); restore it with { "unverified": true } to confirm restoring it unchecked`);
  }
  const db = openImmutable(file);
  try {
    const rows = db.prepare('PRAGMA quick_check').all();
    const problems = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
    if (problems.length) throw new ConsoleError('conflict', `backup "${id}" fails PRAGMA quick_check (${problems.slice(0, 3).join('; ')}): not restored`);
  } finally {
    db.close();
  }
  return { backup, manifest };
}

/**
 * Puts the backup in place of `file` (the store closed): the backup is copied beside the file,
 * the file is kept as `<file>.replaced-<time>` (its WAL files moved along), and the copy renamed
 * over it. Answers where the replaced file was kept.
 */
export async function swapInBackup(backup: BackupInfo, file: string, prepare?: (copy: string) => void): Promise<string> {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const copy = `${file}.restoring-${stamp}`;
  await copyFile(backup.file, copy);
  await chmod(copy, 0o600);
  // The copy is made the store's (its identity, a generation above every backup) before it replaces the file.
  prepare?.(copy);
  const kept = `${file}.replaced-${stamp}`;
  if (await exists(file)) await link(file, kept);
  // A WAL left by the replaced file must not be read into the restored one.
  for (const suffix of ['-wal', '-shm']) {
    if (await exists(file + suffix)) await rename(file + suffix, kept + suffix);
  }
  await rename(copy, file);
  await syncRenamed(file);
  if (await exists(kept)) await chmod(kept, 0o600);
  return kept;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return false;
    throw error;
  }
}
