// The console's own record, kept outside the database file, that it initialised a profile's
// embedded store: `store-state.json` in the profile's `db` folder, one entry per file, with the
// schema version and the last known document counts. SQLite takes an empty or missing file for a
// new database; with this record, a file the console knows is never started afresh: the store
// stops, naming what happened and what the file last held, and leaves the file as it is.
import { readFileSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { writeJsonAtomic } from '../../files/atomic';
import { StoreError } from '../errors';

/** The layout of the console's tables in the file (`_indexes`, `_meta`, `_counts`, `c:<name>`). */
export const SCHEMA_VERSION = 1;
/** `{ files: { [file]: StoreStateEntry } }`, owner-only, written atomically. */
export const STATE_RECORD = 'store-state.json';

export interface StoreStateEntry {
  schemaVersion: number;
  /** When this console first opened the file (ISO time). */
  initialisedAt: string;
  /** Documents per collection when last counted, and when. */
  counts: Record<string, number>;
  countedAt: string;
}

const recordFile = (folder: string) => path.join(folder, STATE_RECORD);

function isEntry(value: unknown): value is StoreStateEntry {
  return typeof value === 'object' && value !== null && 'initialisedAt' in value && typeof value.initialisedAt === 'string';
}

/**
 * The entry of `file`; `unreadable` when the record exists but cannot be read (then the file is
 * treated as known: an empty file next to a damaged record is not proof of a new store).
 */
export function readStateEntry(folder: string, file: string): StoreStateEntry | 'unreadable' | undefined {
  let text: string;
  try {
    text = readFileSync(recordFile(folder), 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    return 'unreadable';
  }
  try {
    const parsed: unknown = JSON.parse(text);
    const files: unknown = typeof parsed === 'object' && parsed !== null && 'files' in parsed ? parsed.files : undefined;
    if (typeof files !== 'object' || files === null) return 'unreadable';
    const entry: unknown = Reflect.get(files, file);
    return isEntry(entry) ? entry : undefined;
  } catch {
    // Not JSON: a torn or damaged record, kept as it is.
    return 'unreadable';
  }
}

/** The entries of every file, or none when the record is missing or cannot be read. */
function readEntries(folder: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(recordFile(folder), 'utf8'));
    const files: unknown = typeof parsed === 'object' && parsed !== null && 'files' in parsed ? parsed.files : undefined;
    return typeof files === 'object' && files !== null ? { ...files } : {};
  } catch {
    // Missing (a new record) or damaged (written over whole below): nothing to keep.
    return {};
  }
}

/** Writes the entry of `file` (atomically, owner-only), keeping the other files' entries. */
export async function writeStateEntry(folder: string, file: string, entry: StoreStateEntry): Promise<void> {
  await writeJsonAtomic(recordFile(folder), { files: { ...readEntries(folder), [file]: entry } }, { mode: 0o600 });
}

const SQLITE_HEADER = 'SQLite format 3\0';

function describeCounts(entry: StoreStateEntry): string {
  const held = Object.entries(entry.counts)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${n} ${name}`);
  return `last known on ${entry.countedAt}: ${held.length ? held.join(', ') : 'no documents'}`;
}

/**
 * Why the file cannot be opened as the store the console knows, or undefined: a file the record
 * names that is missing or empty, or a file that is not a SQLite database at all (whatever the record).
 */
export async function refusalToOpen(folder: string, file: string): Promise<StoreError | undefined> {
  const entry = readStateEntry(folder, file);
  const known =
    entry === 'unreadable'
      ? `${STATE_RECORD} in ${folder} cannot be read, so it cannot be shown that this is a new store`
      : entry
        ? `this console initialised it on ${entry.initialisedAt} (schema ${entry.schemaVersion}; ${describeCounts(entry)})`
        : undefined;
  const stat = statOf(file);
  // Not a file at all (a folder): SQLite's own error names it when the store opens.
  if (stat && !stat.isFile()) return undefined;
  const size = stat?.size;
  const stop = (what: string) => new StoreError('damaged', `the embedded database ${file} ${what}, but ${known}; it was not started as a new store and the file was left as it is`);
  if (size === undefined) return known ? stop('is missing') : undefined;
  if (size === 0) return known ? stop('is empty (0 bytes)') : undefined;
  const header = await readHeader(file);
  if (header !== SQLITE_HEADER) {
    return new StoreError('damaged', `the embedded database ${file} cannot be read: it is not a SQLite database (its first bytes are not "SQLite format 3"); it was left as it is`);
  }
  return undefined;
}

function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return undefined;
    throw new StoreError('damaged', `the embedded database ${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function readHeader(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const bytes = Buffer.alloc(16);
    const { bytesRead } = await handle.read(bytes, 0, 16, 0);
    return bytes.subarray(0, bytesRead).toString('latin1');
  } finally {
    await handle.close();
  }
}
