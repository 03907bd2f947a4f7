// Opening the connection to a database file: owner-only file modes, PRAGMA quick_check before
// anything is written, then the settings and the console's own tables. A file whose check fails
// is opened query-only: it can be read (and backed up), and is not written until restored.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { StoreError } from '../errors';
import { sqlite, type DatabaseSync } from './sqlite';
import { MatchCache } from './match';
import { RegexCache } from './regex';
import { sortKey } from './sort';

/** The WAL size at which a commit checkpoints on this thread after all: a bound (checkpoint.ts). */
const WAL_BOUND_BYTES = 32_000 * 1024;

/**
 * The page size of a new file. A commit writes every page it changed to the WAL, and a
 * task's commit changes one page in each index it touches: smaller pages mean fewer bytes
 * copied and checksummed per commit (one-task jobs ran 10-15 % faster at 2 KiB than at
 * SQLite's 4 KiB, and 22 % slower at 8 KiB; `npm run bench -- engine`). A file made with
 * another size keeps it: SQLite cannot change it in WAL mode.
 */
const NEW_FILE_PAGE_SIZE = 2048;

export interface OpenedConnection {
  db: DatabaseSync;
  /** What PRAGMA quick_check reported at open; empty when the file passed. */
  problems: string[];
}

/** The database file (and the WAL files SQLite creates with its mode) readable by its owner only. */
function ownerOnly(file: string) {
  if (!existsSync(file)) {
    closeSync(openSync(file, 'wx', 0o600));
    return;
  }
  // A file another user owns (one shared between two consoles) keeps the mode its owner gave it.
  const stat = statSync(file);
  // Only others' bits are taken away: a file its owner made read-only stays read-only.
  if (stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) chmodSync(file, stat.mode & 0o700);
}

export function openConnection(file: string, busyTimeoutMs: number): OpenedConnection {
  mkdirSync(path.dirname(file), { recursive: true });
  let db: DatabaseSync | undefined;
  try {
    ownerOnly(file);
    db = new (sqlite().DatabaseSync)(file);
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    // A filter's $regex (sql.ts): MongoDB's pattern matching, for reads of a read-only file too.
    db.function('mongo_regex', { deterministic: true, directOnly: true }, new RegexCache().test);
    // A filter on a path that holds an array (sql.ts): MongoDB's semantics for it.
    const match = new MatchCache();
    db.function('mongo_match', { deterministic: true, directOnly: true }, match.json);
    db.function('mongo_match_value', { deterministic: true, directOnly: true }, match.value);
    // A sort over values SQLite orders otherwise than MongoDB (sort.ts).
    db.function('mongo_sort_key', { deterministic: true, directOnly: true }, sortKey);
  } catch (error) {
    db?.close();
    throw new StoreError('failed', `cannot open the embedded database ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let problems: string[];
  try {
    const rows = db.prepare('PRAGMA quick_check').all();
    problems = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A check stopped by a damaged page is a failed check: read-only, what can be read still is.
    if (/malformed|corrupt/i.test(message)) problems = [message];
    else {
      // Not a database SQLite can check at all: the store stops, the file as it is.
      db.close();
      throw new StoreError('damaged', `the embedded database ${file} cannot be read: ${message} (PRAGMA quick_check at open); it was left as it is`);
    }
  }
  try {
    // Deleted content (an overwritten secret) is zeroed in the file, not left in its free pages.
    db.exec('PRAGMA secure_delete = ON');
    if (problems.length) {
      db.exec('PRAGMA query_only = ON');
      db.exec('PRAGMA busy_timeout = 0');
      return { db, problems };
    }
    db.exec(`PRAGMA page_size = ${NEW_FILE_PAGE_SIZE}`);
    db.exec('PRAGMA journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives a crashed process, only a power loss can take the last ones.
    db.exec('PRAGMA synchronous = NORMAL');
    const pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
    db.exec(`PRAGMA wal_autocheckpoint = ${Math.round(WAL_BOUND_BYTES / pageSize)}`);
    // Each transaction of a group commit is a savepoint, whose undo copies of the pages it changes
    // go to the temporary store: in memory, not a temporary file written for every first change.
    db.exec('PRAGMA temp_store = MEMORY');
    db.exec(`CREATE TABLE IF NOT EXISTS _indexes (collection TEXT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))`);
    db.exec(`CREATE TABLE IF NOT EXISTS _meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.exec(`CREATE TABLE IF NOT EXISTS _counts (collection TEXT PRIMARY KEY, n INTEGER NOT NULL)`);
    // From here a write finding the file locked fails at once, and its caller waits without blocking (busy.ts).
    db.exec('PRAGMA busy_timeout = 0');
  } catch (error) {
    db.close();
    throw new StoreError('failed', `cannot open the embedded database ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { db, problems };
}

/** The problems of a failed check, as one line: how many and the first few. */
export function describeProblems(problems: string[]): string {
  const shown = problems.slice(0, 3).join('; ');
  return `PRAGMA quick_check at open found ${problems.length} problem${problems.length === 1 ? '' : 's'} (${shown}${problems.length > 3 ? '; ...' : ''})`;
}
