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

export const DEFAULT_FILE = 'console.sqlite';
const INTEGRITY_MAX_AGE_MS = 10 * 60_000;

export interface EmbeddedOptions {
  /** The database file; `<dir>/console.sqlite` when not given. */
  file?: string;
  /** Progress of a conversion from the previous file format, when one runs. */
  onProgress?: (progress: MigrationProgress) => void;
  /** How long a write waits for another process's write before failing (30 s; the first opener of a file sets it). */
  busyTimeoutMs?: number;
}

const open = new Map<string, Promise<SqliteDatabase>>();

async function acquire(file: string, dir: string, options: EmbeddedOptions): Promise<SqliteDatabase> {
  let pending = open.get(file);
  if (!pending) {
    pending = (async () => {
      const database = new SqliteDatabase(file, options.busyTimeoutMs);
      try {
        // The conversion's writes are synchronous: they wait for another writer SQLite's own way.
        await database.withSleepingWait(() => migrateNedbFolder(dir, database, options.onProgress));
        // In the background: its result is ready for the first status request of a small file.
        void database.checkIntegrity();
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

async function release(database: SqliteDatabase) {
  database.users--;
  if (database.users > 0) return;
  open.delete(database.file);
  await database.close();
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
      return d.whenFree(() => d.collectionNames());
    },
    async ping() {
      const d = live();
      try {
        await d.whenFree(() => d.db.prepare('SELECT count(*) FROM sqlite_master').get());
      } catch (error) {
        throw new StoreError('unreachable', `the embedded database ${file} cannot be read: ${(error as Error).message}`);
      }
    },
    async integrity() {
      const d = live();
      // The check reads the whole file: status polls get the last result, and start a new check when it is old.
      if (!d.integrity || Date.now() - d.integrity.checkedAt >= INTEGRITY_MAX_AGE_MS) void d.checkIntegrity();
      return d.integrity;
    },
    lockHeldMs: () => live().lockHeldMs,
    trackChanges: (collection, field) => live().changes.track(collection, field),
    changeVersion: (collection, value) => live().changeVersion(collection, value),
    transaction: <R>(fn: (tx: Store) => Promise<R>) => live().transaction(() => fn(store)),
    async close() {
      if (closed) return;
      closed = true;
      await release(database);
    },
  };
  return store;
}
