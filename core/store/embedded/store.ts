// The embedded store: one SQLite file (by default `console.sqlite` in the
// profile's `db` folder). Every Store this process opens on the same file shares
// one connection; other processes open their own, and SQLite keeps them apart.
// A folder still holding the previous format's collection files is converted at
// the first open (migrate-nedb.ts).
import path from 'node:path';
import type { Collection, Doc, Store } from '../port';
import { checkCollectionName, StoreError } from '../errors';
import { EmbeddedCollection } from './collection';
import { SqliteDatabase } from './database';
import { migrateNedbFolder, type MigrationProgress } from './migrate-nedb';
import { allIndexSpecs, collectionNames, documentCounts } from './catalog';
import { partialLiterals } from './index-specs';
import { upgradeColumns } from './column-upgrade';
import { readStateEntry, writeStateEntry } from './state-record';
import { refusalToOpen } from './open-guard';
import { BASE_SCHEMA, ensureIdentity, readIdentity } from './identity';
import type { WriteHealthLog } from './write-health';
import { DEFAULT_BACKUP_SCHEDULE, listBackups, takeBackup, type BackupSchedule } from './backups';
import { errorMessage } from '../../errors';
import { removeLeftovers } from './restore-files';

export const DEFAULT_FILE = 'console.sqlite';
const INTEGRITY_MAX_AGE_MS = 10 * 60_000;

export interface EmbeddedOptions {
  /** The database file; `<dir>/console.sqlite` when not given. */
  file?: string;
  /** Progress of a conversion from the previous file format, when one runs. */
  onProgress?: (progress: MigrationProgress) => void;
  /** How long a write waits for another process's write before failing (30 s; the first opener of a file sets it). */
  busyTimeoutMs?: number;
  /** Where failing writes and a failed check at open are said (the host's logger). */
  log?: WriteHealthLog;
  /** Takes scheduled backups into `<dir>/backups` while open (`embeddedProps.backups`; the active profile's store only). */
  backups?: Partial<BackupSchedule>;
  /** The console's version, named in each backup's manifest. */
  consoleVersion?: string;
  /** The collections whose fields' values are kept once (shared-values.ts; the service's `jobs` layout unless given; the file's first opener in this process sets it). */
  sharedFields?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Takes a backup whenever the newest is older than the schedule (checked every minute at most),
 * while the file is healthy: a file read-only after a failed check would push good backups out.
 */
function scheduleBackups(database: SqliteDatabase, dir: string, options: EmbeddedOptions): () => void {
  const schedule = { ...DEFAULT_BACKUP_SCHEDULE, ...options.backups };
  const everyMs = schedule.everyMinutes * 60_000;
  const due = async () => {
    if (!database.health.safety().writable) return;
    const [newest] = await listBackups(dir);
    if (newest && Date.now() - newest.takenAt < everyMs) return;
    const backup = await takeBackup(database.file, dir, schedule.keep, options.consoleVersion);
    options.log?.info(`[store] scheduled backup ${backup.id} of ${database.file} taken (${backup.bytes} bytes)`);
  };
  const timer = setInterval(() => {
    due().catch((error: unknown) => options.log?.error(`[store] the scheduled backup of ${database.file} failed: ${error instanceof Error ? error.message : String(error)}`));
  }, Math.min(everyMs, 60_000));
  timer.unref();
  return () => clearInterval(timer);
}

// Process-wide on purpose (docs/architecture.md, Process-wide resources): every store of this process that
// names the same file shares one connection, so its writes never wait on this process's own lock.
const open = new Map<string, Promise<SqliteDatabase>>();

/** Whether this process still holds a connection on `file` (a restore swaps the file only when none is left). */
export const openInProcess = (file: string): boolean => open.has(path.resolve(file));

async function acquire(file: string, dir: string, options: EmbeddedOptions): Promise<SqliteDatabase> {
  let pending = open.get(file);
  if (!pending) {
    pending = (async () => {
      // Before SQLite sees the file: a known store's file that is missing or empty is not made a new one.
      const refusal = await refusalToOpen(dir, file);
      if (refusal) throw refusal;
      // A backup or restore the process was killed in leaves a partial copy: never read, removed.
      const removed = await removeLeftovers(file, dir);
      if (removed.length) options.log?.info(`[store] removed what an interrupted backup or restore left: ${removed.join(', ')}`);
      const database = new SqliteDatabase(file, options.busyTimeoutMs, options.log, options.sharedFields);
      try {
        // A file opened read-only (its check failed) is neither converted nor recorded: it stays as found.
        if (database.health.safety().writable) {
          // The conversion's writes are synchronous: they wait for another writer SQLite's own way.
          await database.withSleepingWait(async () => {
            await migrateNedbFolder(dir, database, options.onProgress);
            upgradeColumns(database, options.log);
            giveIdentity(dir, database, options.log);
          });
          await recordState(dir, database);
        }
        inlinePartialLiterals(database, options.log);
        // In the background: its result is ready for the first status request of a small file.
        void database.integrity.start();
      } catch (error) {
        await database.close();
        throw error;
      }
      return database;
    })();
    open.set(file, pending);
    pending.catch(() => open.delete(file));
  }
  const database = await pending;
  database.users++;
  return database;
}

/**
 * Queries write the values partial indexes name as literals, so SQLite can use those indexes.
 * A file whose index specs cannot be read (damaged: opened read-only) is still opened: its
 * queries then leave those indexes unused, and the log says why.
 */
function inlinePartialLiterals(database: SqliteDatabase, log: WriteHealthLog | undefined) {
  try {
    const { specs, damaged } = allIndexSpecs(database);
    for (const spec of specs) for (const [field, value] of partialLiterals(spec)) database.filters.inline(field, value);
    if (damaged.length) log?.error(`[store] ${database.file}: index specs that are not JSON, left out of query planning: ${damaged.join('; ')}`);
  } catch (error) {
    log?.error(`[store] ${database.file}: the index specs could not be read (${errorMessage(error)}); queries do not use its partial indexes`);
  }
}

/** The file's identity (identity.ts), given at its first open by this version; its high-water raised now. */
function giveIdentity(dir: string, database: SqliteDatabase, log: WriteHealthLog | undefined) {
  const known = readStateEntry(dir, database.file);
  const createdAt = known && known !== 'unreadable' ? known.initialisedAt : undefined;
  database.writeSync(() => {
    const { identity, created } = ensureIdentity(database.db, createdAt);
    database.highWater.identity = identity;
    if (!created) database.highWater.raise(database.db);
    if (created) log?.info(`[store] ${database.file} is store ${identity.id} (created ${identity.createdAt}): its identity is kept inside the file`);
  });
}

/** Records that this console opened the file: the store's id and generation, its schema and what it holds now (a cache: open-guard.ts). */
async function recordState(dir: string, database: SqliteDatabase) {
  const known = readStateEntry(dir, database.file);
  const now = new Date().toISOString();
  const identity = readIdentity(database.db);
  const initialisedAt = identity?.createdAt ?? (known && known !== 'unreadable' ? known.initialisedAt : now);
  const counts = documentCounts(database);
  await writeStateEntry(dir, database.file, { schemaVersion: identity?.schemaVersion ?? BASE_SCHEMA, storeId: identity?.id, generation: identity?.generation, initialisedAt, counts, countedAt: now });
}

async function release(database: SqliteDatabase, dir: string, log: WriteHealthLog | undefined) {
  database.users--;
  if (database.users > 0) return;
  open.delete(database.file);
  try {
    if (database.health.safety().writable) {
      try {
        // What was written since the last raise is counted in the file before it closes.
        await database.whenFree(() => database.writeSync(() => database.highWater.raise(database.db)));
      } catch (error) {
        log?.error(`[store] ${database.file}: the high-water could not be raised at close (${errorMessage(error)}); it is raised at the next open`);
      }
      await recordState(dir, database);
    }
  } finally {
    await database.close();
  }
}

export interface EmbeddedStore extends Store {
  readonly file: string;
  /** Milliseconds this process's transactions on the file held its write lock since it was opened (the engine bench). */
  lockHeldMs(): number;
  /**
   * PRAGMA integrity_check of the file: started at open and again when the last result
   * is 10 minutes old, in the background; undefined until a first check has ended.
   */
  integrity(): Promise<{ ok: boolean; problems: string[]; checkedAt: number } | undefined>;
}

/** Opens the embedded store of a profile's `db` folder (or of `options.file`). */
export async function openEmbeddedStore(dir: string, options: EmbeddedOptions = {}): Promise<EmbeddedStore> {
  const folder = path.resolve(dir);
  const file = path.resolve(folder, options.file ?? DEFAULT_FILE);
  const database = await acquire(file, folder, options);
  const stopBackups = options.backups ? scheduleBackups(database, folder, options) : undefined;
  let closed = false;
  const live = () => {
    if (closed) throw new StoreError('failed', `the embedded store ${file} is closed`);
    return database;
  };
  const store: EmbeddedStore = {
    kind: 'embedded',
    location: `embedded store in ${file}`,
    file,
    collection: <T extends Doc = Doc>(name: string): Collection<T> => {
      checkCollectionName(name);
      return new EmbeddedCollection<T>(name, live());
    },
    listCollections: async () => {
      const d = live();
      return d.whenFree(() => collectionNames(d));
    },
    async ping() {
      const d = live();
      try {
        await d.whenFree(() => d.db.prepare('SELECT count(*) FROM sqlite_master').get());
      } catch (error) {
        throw new StoreError('unreachable', `the embedded database ${file} cannot be read: ${errorMessage(error)}`);
      }
    },
    async integrity() {
      const d = live();
      // The check reads the whole file: status polls get the last result, and start a new check when it is old.
      const last = d.integrity.last;
      if (!last || Date.now() - last.checkedAt >= INTEGRITY_MAX_AGE_MS) void d.integrity.start();
      return last;
    },
    lockHeldMs: () => live().lockHeldMs,
    safety: () => live().health.safety(),
    identity: () => {
      const d = live();
      return d.highWater.identity && readIdentity(d.db);
    },
    trackChanges: (collection, field) => live().changes.track(collection, field),
    changeVersion: (collection, value, before) => live().changeVersion(collection, value, before),
    transaction: <R>(fn: (tx: Store) => Promise<R>) => live().transaction(() => fn(store)),
    async close() {
      if (closed) return;
      closed = true;
      stopBackups?.();
      await release(database, folder, options.log);
    },
  };
  return store;
}
