// The manifest of a backup (`backups/<id>.manifest.json`, written atomically before the backup is
// renamed into place): its checksum, size, page count, documents per collection, the store it is a
// copy of, the console's version and when. A backup is checked against it before it is restored
// (and, without the checksum, whenever the backups are listed), so an emptied backup, another
// SQLite file put in its place, a backup with rows deleted or a truncated one is named, not restored.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeJsonAtomic } from '../../files/atomic';
import { errorMessage } from '../../errors';
import { readIdentity } from './identity';
import { sqlite } from './sqlite';

export interface BackupManifest {
  backup: string;
  sha256: string;
  bytes: number;
  pageSize: number;
  pageCount: number;
  /** Documents per collection, counted in the backup. */
  counts: Record<string, number>;
  /** The store it is a copy of (`_identity`), and that store's generation then. */
  storeId: string;
  generation: number;
  consoleVersion: string;
  takenAt: string;
}

/** How a backup stands against its manifest. */
export interface BackupCheck {
  /** `ok`: it matches its manifest; `bad`: it does not (why in `reason`); `unverified`: it has no manifest (taken before manifests). */
  state: 'ok' | 'bad' | 'unverified';
  reason?: string;
}

export const manifestFile = (backupFile: string) => backupFile.replace(/\.sqlite$/, '.manifest.json');

/** The file opened read-only as it is on disk (a backup is never written: no WAL files made beside it). */
export const openImmutable = (file: string) => new (sqlite().DatabaseSync)(`${pathToFileURL(file).href}?immutable=1`, { readOnly: true });

interface Contents {
  pageSize: number;
  pageCount: number;
  counts: Record<string, number>;
  identity: ReturnType<typeof readIdentity>;
}

/** What a backup file holds: its pages, its documents per collection (counted, not read from `_counts`) and its identity. */
function contents(file: string): Contents {
  const db = openImmutable(file);
  try {
    const pragma = (name: string) => Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c:%' ORDER BY name`).all().map((row) => String(row.name));
    const counts = Object.fromEntries(tables.map((table) => [table.slice(2), Number(db.prepare(`SELECT count(*) AS n FROM "${table.replaceAll('"', '""')}"`).get()?.n ?? 0)]));
    return { pageSize: pragma('page_size'), pageCount: pragma('page_count'), counts, identity: readIdentity(db) };
  } finally {
    db.close();
  }
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Writes the manifest of the backup copy `file` (complete, not yet renamed into place), owner-only,
 * atomically; none for a copy without a store identity (a file of an earlier version opened
 * read-only after a failed check): that backup is listed unverified.
 */
export async function writeManifest(id: string, file: string, finalFile: string, consoleVersion: string): Promise<BackupManifest | undefined> {
  const held = contents(file);
  if (!held.identity) return undefined;
  const manifest: BackupManifest = {
    backup: id,
    sha256: await sha256(file),
    bytes: (await stat(file)).size,
    pageSize: held.pageSize,
    pageCount: held.pageCount,
    counts: held.counts,
    storeId: held.identity.id,
    generation: held.identity.generation,
    consoleVersion,
    takenAt: new Date().toISOString(),
  };
  await writeJsonAtomic(manifestFile(finalFile), manifest, { mode: 0o600 });
  return manifest;
}

function isManifest(value: unknown): value is BackupManifest {
  if (typeof value !== 'object' || value === null) return false;
  const fields: [string, string][] = [['backup', 'string'], ['sha256', 'string'], ['bytes', 'number'], ['pageCount', 'number'], ['storeId', 'string'], ['generation', 'number']];
  return fields.every(([field, type]) => typeof Reflect.get(value, field) === type) && typeof Reflect.get(value, 'counts') === 'object';
}

/** The manifest beside `backupFile`: undefined when there is none, `damaged` (with why) when it cannot be read. */
export async function readManifest(backupFile: string): Promise<BackupManifest | { damaged: string } | undefined> {
  let text: string;
  try {
    text = await readFile(manifestFile(backupFile), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    return { damaged: `its manifest cannot be read (${errorMessage(error)})` };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isManifest(parsed) ? parsed : { damaged: `its manifest ${path.basename(manifestFile(backupFile))} lacks the fields of a manifest` };
  } catch (error) {
    return { damaged: `its manifest is not JSON (${errorMessage(error)})` };
  }
}

/** The first 16 bytes of every SQLite database file. */
export const SQLITE_HEADER = 'SQLite format 3\0';

/** The file's first 16 bytes, as SQLite's header is compared (read before SQLite touches the file). */
export async function readHeader(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(16);
    const { bytesRead } = await handle.read(bytes, 0, 16, 0);
    return bytes.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}

/**
 * Checks the backup file against its manifest, the first failed check named: emptied, not a
 * database, store id, size, page count, counts; with `checksum`, its sha256 too (the whole file read).
 */
export async function checkBackup(file: string, manifest: BackupManifest | { damaged: string } | undefined, options: { checksum: boolean }): Promise<BackupCheck> {
  const bytes = (await stat(file)).size;
  if (bytes === 0) return { state: 'bad', reason: 'emptied: the file is 0 bytes' };
  if ((await readHeader(file)) !== SQLITE_HEADER) return { state: 'bad', reason: 'swapped: the file is not a SQLite database' };
  if (!manifest) return { state: 'unverified', reason: 'taken before backups carried a manifest: its checksum, size and counts cannot be checked' };
  if ('damaged' in manifest) return { state: 'bad', reason: manifest.damaged };
  const sizeDiffers = bytes !== manifest.bytes && `size: the file is ${bytes} bytes, its manifest says ${manifest.bytes} (truncated or changed)`;
  let held: Contents;
  try {
    held = contents(file);
  } catch (error) {
    return { state: 'bad', reason: sizeDiffers || `unreadable: ${errorMessage(error)}` };
  }
  // The store id first: another SQLite file put in its place is named as such, whatever its size.
  if (!held.identity) return { state: 'bad', reason: `store id: the file holds no store identity (another SQLite file), its manifest names store ${manifest.storeId}` };
  if (held.identity.id !== manifest.storeId) return { state: 'bad', reason: `store id: the file is store ${held.identity.id}, its manifest names store ${manifest.storeId}` };
  if (sizeDiffers) return { state: 'bad', reason: sizeDiffers };
  if (held.pageCount !== manifest.pageCount) return { state: 'bad', reason: `page count: the file has ${held.pageCount} pages, its manifest says ${manifest.pageCount}` };
  const differ = [...new Set([...Object.keys(held.counts), ...Object.keys(manifest.counts)])].filter((c) => (held.counts[c] ?? 0) !== (manifest.counts[c] ?? 0));
  if (differ.length) {
    const shown = differ.map((c) => `${c} ${held.counts[c] ?? 0} (manifest ${manifest.counts[c] ?? 0})`).join(', ');
    return { state: 'bad', reason: `counts: the file holds ${shown}; documents were deleted or added after it was taken` };
  }
  if (options.checksum && (await sha256(file)) !== manifest.sha256) return { state: 'bad', reason: 'checksum: the sha256 of the file differs from its manifest (changed after it was taken)' };
  return { state: 'ok' };
}
