// Whether a file may be opened as the profile's store, decided before SQLite writes to it. SQLite
// takes a missing or empty file for a new database; the console never takes an empty one (it never
// leaves its file empty), nor a missing one once its data directory shows the store existed: a backup of it (with its manifest), a file a restore replaced, or the
// side record `store-state.json` (a cache, keyed by path). Inside the file, its identity (identity.ts)
// says which store it is, wherever the folder was copied or moved: a file of another store, one
// holding fewer documents than its high-water, or an older copy than a backup of it is refused.
// A refusal stops the store (the console starts, the Store card and attention say why, a restore is offered).
import { statSync, type Stats } from 'node:fs';
import { errorMessage } from '../../errors';
import { StoreError } from '../errors';
import { backupsDir, listBackups, type BackupInfo } from './backups';
import { countsOf, readIdentity, SCHEMA_VERSION, shrunken, type StoreIdentity } from './identity';
import { readHeader, readManifest, SQLITE_HEADER, type BackupManifest } from './manifest';
import { listReplaced } from './restore-files';
import { sqlite } from './sqlite';
import { readStateEntry, STATE_RECORD, type StoreStateEntry } from './state-record';

/** What the data directory shows of the store, outside its file. */
export interface Evidence {
  /** Why it is known the store existed, as the operator reads it; none when nothing shows it. */
  known: string[];
  /** The store id it names (side record first, then the newest backup with a manifest), where it is named, and the highest generation seen of it. */
  storeId?: string;
  storeIdFrom?: string;
  createdAt?: string;
  generation: number;
  /** The newest backup that passes its checks (the one a refusal offers to restore). */
  newestBackup?: BackupInfo;
}

/** What the folder shows of the store of `file`: its side record, its backups' manifests, its replaced files. */
export async function gatherEvidence(folder: string, file: string): Promise<Evidence> {
  const entry = readStateEntry(folder, file);
  const backups = await listBackups(folder, { check: true });
  const manifests = (await Promise.all(backups.map((b) => readManifest(b.file)))).filter((m): m is BackupManifest => m !== undefined && !('damaged' in m));
  const replaced = await listReplaced(file);
  const known: string[] = [];
  if (entry === 'unreadable') known.push(`${STATE_RECORD} in ${folder} cannot be read, so it cannot be shown that this is a new store`);
  else if (entry) known.push(`this console initialised it on ${entry.initialisedAt} (${describeCounts(entry)})`);
  if (backups.length) known.push(`${backups.length} backup${backups.length === 1 ? '' : 's'} of it ${backups.length === 1 ? 'is' : 'are'} in ${backupsDir(folder)}`);
  if (replaced[0]) known.push(`a restore replaced it before (${replaced[0].file})`);
  const recorded = entry && entry !== 'unreadable' ? entry : undefined;
  const storeId = recorded?.storeId ?? manifests[0]?.storeId;
  const storeIdFrom = recorded?.storeId ? `its record ${STATE_RECORD}` : manifests[0] ? `the manifest of backup ${manifests[0].backup}` : undefined;
  const generations = [recorded?.storeId === storeId ? (recorded?.generation ?? 0) : 0, ...manifests.filter((m) => m.storeId === storeId).map((m) => m.generation)];
  return { known, storeId, storeIdFrom, createdAt: recorded?.initialisedAt, generation: Math.max(0, ...generations), newestBackup: backups.find((b) => b.check?.state !== 'bad') };
}

function describeCounts(entry: StoreStateEntry): string {
  const held = Object.entries(entry.counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${name}`);
  return `last known on ${entry.countedAt}: ${held.length ? held.join(', ') : 'no documents'}`;
}

/**
 * Why `file` cannot be opened as the store the data directory knows, or undefined: emptied,
 * missing while the store is known, not a SQLite database, another application's database,
 * another store, fewer documents than its high-water, or an older copy than a backup of it.
 */
export async function refusalToOpen(folder: string, file: string): Promise<StoreError | undefined> {
  const stat = statOf(file);
  // Not a file at all (a folder): SQLite's own error names it when the store opens.
  if (stat && !stat.isFile()) return undefined;
  const evidence = await gatherEvidence(folder, file);
  const offer = evidence.newestBackup ? `; restore a backup (the newest that passes its checks: POST /store/backups/${evidence.newestBackup.id}/restore)` : '';
  const stop = (what: string, why: string) => new StoreError('damaged', `the embedded database ${file} ${what}, but ${why}; it was not opened and the file was left as it is${offer}`);
  const known = evidence.known.join('; ');
  if (!stat) return known ? stop('is missing', known) : undefined;
  // The console never leaves its file empty (SQLite writes its header in the open that creates it): an empty file was emptied.
  if (stat.size === 0) return stop('is empty (0 bytes)', known || 'the console never leaves its file empty, so it was emptied (remove the file to start a new store)');
  if ((await readHeader(file)) !== SQLITE_HEADER) {
    return new StoreError('damaged', `the embedded database ${file} cannot be read: it is not a SQLite database (its first bytes are not "SQLite format 3"); it was left as it is${offer}`);
  }
  const inside = inspect(file);
  // A file SQLite cannot read here (damaged): opening it runs PRAGMA quick_check, which opens it read-only and names the damage.
  if (typeof inside === 'string') return undefined;
  const { tables, identity, counts } = inside;
  const own = tables.filter((t) => t.startsWith('_') || t.startsWith('c:'));
  if (tables.length === 0) return known ? stop('holds no tables (an emptied database)', known) : undefined;
  if (own.length === 0) return stop(`holds tables that are not the console's (${tables.slice(0, 5).join(', ')}): it is another application's database`, 'it is named as this profile\'s store');
  return identityRefusal(identity, counts, evidence, stop);
}

function identityRefusal(
  identity: StoreIdentity | undefined,
  counts: Record<string, number>,
  evidence: Evidence,
  stop: (what: string, why: string) => StoreError,
): StoreError | undefined {
  const named = `this data directory's store is ${evidence.storeId ?? 'unknown'} (${evidence.storeIdFrom ?? 'nothing names it'})`;
  if (!identity) return evidence.storeId ? stop('holds no store identity (another SQLite file, or one of an earlier console)', named) : undefined;
  if (identity.schemaVersion > SCHEMA_VERSION) return stop(`was written by a newer console (schema ${identity.schemaVersion}; this one knows ${SCHEMA_VERSION})`, 'it cannot be read safely here');
  if (evidence.storeId && identity.id !== evidence.storeId) return stop(`is store ${identity.id} (created ${identity.createdAt}), another store`, named);
  const lost = shrunken(identity, counts);
  if (lost.length) return stop(`holds fewer documents than it held (${lost.join(', ')})`, `documents were deleted outside the console (store ${identity.id})`);
  if (evidence.generation > identity.generation) {
    return stop(`is an older copy of store ${identity.id} (generation ${identity.generation})`, `a backup or the record of it is newer (generation ${evidence.generation}): what was accepted since would be lost`);
  }
  return undefined;
}

/** The file's tables, identity and counts, read without writing; a string naming why it cannot be read. */
function inspect(file: string): { tables: string[]; identity: StoreIdentity | undefined; counts: Record<string, number> } | string {
  try {
    const db = new (sqlite().DatabaseSync)(file, { readOnly: true });
    try {
      db.exec('PRAGMA busy_timeout = 10000');
      const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all().map((row) => String(row.name));
      return { tables, identity: readIdentity(db), counts: countsOf(db) };
    } finally {
      db.close();
    }
  } catch (error) {
    return errorMessage(error);
  }
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw new StoreError('damaged', `the embedded database ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
