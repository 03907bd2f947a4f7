// The console's own record, kept outside the database file, of the profile's embedded store:
// `store-state.json` in the profile's `db` folder, one entry per file (by its absolute path), with
// the store's id and generation, the schema version and the last known document counts. It is a
// cache: the store's identity is inside the file (identity.ts); the record is one of the things
// that show, before the file is opened, that the store existed (open-guard.ts), and says what it held.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../../files/atomic';
/** `{ files: { [file]: StoreStateEntry } }`, owner-only, written atomically. */
export const STATE_RECORD = 'store-state.json';

export interface StoreStateEntry {
  schemaVersion: number;
  /** The store's id and generation in the file (identity.ts) when last recorded; absent in records of earlier versions. */
  storeId?: string;
  generation?: number;
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
 * The entry of `file` (or of the file at its earlier place, the folder copied or moved); `unreadable`
 * when the record exists but cannot be read (then the file is treated as known: an empty file next
 * to a damaged record is not proof of a new store).
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
    const entry: unknown = Reflect.get(files, file) ?? movedEntry(files, folder, file);
    return isEntry(entry) ? entry : undefined;
  } catch {
    // Not JSON: a torn or damaged record, kept as it is.
    return 'unreadable';
  }
}

/**
 * The entry of the file at its earlier place, when the data directory was copied or moved: the
 * only entry whose path ends as this file's does within its folder (`db/console.sqlite`).
 */
function movedEntry(files: object, folder: string, file: string): unknown {
  const tail = path.join(path.basename(folder), path.relative(folder, file));
  const moved = Object.keys(files).filter((key) => key !== file && key.endsWith(path.sep + tail));
  return moved.length === 1 && moved[0] !== undefined ? Reflect.get(files, moved[0]) : undefined;
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
