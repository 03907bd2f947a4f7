// What a restore would discard, and the files restores and backups leave: the preview compares the
// file with the backup (documents the file holds that the backup does not, per collection, and the
// jobs by name); `.partial` backups and `.restoring-*` copies a crash left are removed at open;
// `.replaced-*` files are listed and kept under the backups' retention.
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../errors';
import { backupsDir } from './backups';
import { sqlite } from './sqlite';

export interface Discards {
  /** Per collection, the documents of the file whose `_id` the backup does not hold. */
  discards: Record<string, number>;
  /** The jobs among them (the first 100, newest first). */
  jobs: { _id: string; name?: string; status?: string }[];
  /** Why the file could not be compared with the backup. */
  unreadable?: string;
}

const quoted = (collection: string) => `"c:${collection.replaceAll('"', '""')}"`;

/** What restoring `backupFile` over `file` would discard; reads both, changes neither. */
export function restoreDiscards(file: string, backupFile: string): Discards {
  if (!existsSync(file)) return { discards: {}, jobs: [], unreadable: `${file} is missing` };
  try {
    return compare(file, backupFile);
  } catch (error) {
    // A file the store refused (not a database, damaged): nothing in it can be counted; the restore replaces it whole.
    return { discards: {}, jobs: [], unreadable: `${file} cannot be read (${errorMessage(error)})` };
  }
}

function compare(file: string, backupFile: string): Discards {
  const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    db.prepare('ATTACH DATABASE ? AS backup').run(backupFile);
    const tables = (name: string) =>
      new Set(db.prepare(`SELECT name FROM ${name}.sqlite_master WHERE type = 'table' AND name LIKE 'c:%'`).all().map((row) => String(row.name).slice(2)));
    const inBackup = tables('backup');
    const discards: Record<string, number> = {};
    const missing = (collection: string) =>
      inBackup.has(collection) ? `NOT EXISTS (SELECT 1 FROM backup.${quoted(collection)} b WHERE b._id = m._id)` : '1';
    for (const collection of [...tables('main')].sort()) {
      const row = db.prepare(`SELECT count(*) AS n FROM main.${quoted(collection)} m WHERE ${missing(collection)}`).get();
      discards[collection] = Number(row?.n ?? 0);
    }
    const jobs = discards.jobs
      ? db
          .prepare(`SELECT m._id AS id, m.doc AS doc FROM main.${quoted('jobs')} m WHERE ${missing('jobs')} ORDER BY m.rowid DESC LIMIT 100`)
          .all()
          .map((row) => describeJob(String(row.id), String(row.doc)))
      : [];
    return { discards, jobs };
  } finally {
    db.close();
  }
}

function describeJob(id: string, text: string): Discards['jobs'][number] {
  try {
    const doc: unknown = JSON.parse(text);
    if (doc === null || typeof doc !== 'object') return { _id: id };
    const name = Reflect.get(doc, 'name');
    const status = Reflect.get(doc, 'status');
    return { _id: id, ...(typeof name === 'string' ? { name } : {}), ...(typeof status === 'string' ? { status } : {}) };
  } catch {
    // A document whose text is not JSON (a damaged page) is still counted and named by its id.
    return { _id: id };
  }
}

export interface ReplacedFileInfo {
  file: string;
  replacedAt: number;
  bytes: number;
}

const REPLACED = /\.replaced-(\d{8}T\d{9}Z)$/;

/** The `<file>.replaced-<time>` files restores kept, newest first. */
export async function listReplaced(file: string): Promise<ReplacedFileInfo[]> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.replaced-`;
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.startsWith(prefix) && REPLACED.test(n));
  const found = await Promise.all(
    names.map(async (name) => {
      const full = path.join(dir, name);
      const info = await stat(full);
      return { file: full, replacedAt: Math.round(info.mtimeMs), bytes: info.size, stamp: REPLACED.exec(name)?.[1] ?? '' };
    }),
  );
  return found.sort((a, b) => b.stamp.localeCompare(a.stamp)).map(({ stamp: _stamp, ...rest }) => rest);
}

/** Keeps the newest `keep` replaced files (with their WAL files), as many as the backups kept. */
export async function pruneReplaced(file: string, keep: number): Promise<string[]> {
  const old = (await listReplaced(file)).slice(Math.max(1, keep));
  for (const { file: gone } of old) for (const suffix of ['', '-wal', '-shm']) await rm(gone + suffix, { force: true });
  return old.map((r) => r.file);
}

/** Removes what an interrupted backup or restore left (`backups/*.partial`, a manifest alone, `<file>.restoring-*`); answers what it removed. */
export async function removeLeftovers(file: string, folder: string): Promise<string[]> {
  const removed: string[] = [];
  const sweep = async (dir: string, matches: (name: string) => boolean) => {
    for (const name of await readdir(dir).catch(() => [])) {
      if (!matches(name)) continue;
      await rm(path.join(dir, name), { force: true });
      removed.push(path.join(dir, name));
    }
  };
  const backupNames = new Set(await readdir(backupsDir(folder)).catch(() => []));
  // A manifest whose backup was never renamed into place (killed between the two), and a manifest's unfinished atomic write.
  const orphan = (name: string) => name.endsWith('.manifest.json') && !backupNames.has(name.replace(/\.manifest\.json$/, '.sqlite'));
  await sweep(backupsDir(folder), (name) => name.endsWith('.partial') || orphan(name) || /^\..*\.manifest\.json\.\d+\.[0-9a-f]{8}\.tmp$/.test(name));
  const restoring = `${path.basename(file)}.restoring-`;
  await sweep(path.dirname(file), (name) => name.startsWith(restoring));
  return removed;
}
