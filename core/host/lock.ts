// A data directory is held by one console process at a time: `console.lock` in it
// names the holder (pid, host, start time). A second console on the same directory
// is refused with that name; a lock whose process is gone (killed, crashed) is
// taken over. Consoles that share one database each have their own data directory.
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = 'console.lock';

/** What is read of a lock file: a holder is known by its pid; the rest is shown as found. */
const LockFileShape = z.looseObject({ pid: z.number(), hostname: z.unknown(), startedAt: z.unknown(), procStart: z.unknown() });

const errnoCode = (error: unknown) => (error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined);

export interface LockHolder {
  pid: number;
  hostname: string;
  /** When the holder started, ISO time. */
  startedAt: string;
  /** The process's start in clock ticks since boot (Linux), to tell a reused pid from the holder. */
  procStart?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
    /** What else went wrong while finding out, said after the refusal. */
    note?: string,
  ) {
    super(
      `the data directory ${dataDir} is in use by another console (pid ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}); ` +
        `stop that console first or start this one with another data directory (--data-dir). ` +
        `If no such console runs, remove ${path.join(dataDir, LOCK_FILE)}.` +
        (note ? ` Also: ${note}.` : ''),
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): Promise<void>;
}

/** Field 22 of /proc/<pid>/stat (Linux): the process's start time, unchanged for its whole life. */
function procStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    // Not Linux, or no such process: the pid check alone decides.
    return undefined;
  }
}

function isAlive(holder: LockHolder): boolean {
  if (holder.hostname !== os.hostname()) return true; // Another machine's process cannot be checked from here.
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (errnoCode(error) !== 'EPERM') return false;
  }
  const now = procStart(holder.pid);
  return !(holder.procStart && now && now !== holder.procStart);
}

async function readHolder(file: string): Promise<LockHolder | undefined> {
  try {
    const parsed = LockFileShape.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    if (!parsed.success) return undefined;
    const { pid, hostname, startedAt, procStart } = parsed.data;
    return { pid, hostname: String(hostname ?? ''), startedAt: String(startedAt ?? 'unknown'), procStart: typeof procStart === 'string' ? procStart : undefined };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw error;
    return undefined; // Unreadable or half-written: its writer is gone, as a holder rewrites nothing.
  }
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString(), procStart: procStart(process.pid) };
  const text = `${JSON.stringify(me, null, 2)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      await fs.writeFile(file, text, { flag: 'wx', mode: 0o644 });
      return {
        file,
        async release() {
          // Only our own lock is removed (a takeover after we were thought dead is not ours).
          const holder = await readHolder(file).catch(() => undefined);
          if (holder?.pid === me.pid && holder.startedAt === me.startedAt) await fs.rm(file, { force: true });
        },
      };
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
    let holder: LockHolder | undefined;
    try {
      holder = await readHolder(file);
    } catch {
      continue; // Removed meanwhile: try again.
    }
    if (holder && isAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    // A dead holder's lock: moved aside atomically, so of two takers only one moves it.
    const aside = `${file}.${process.pid}.stale`;
    try {
      await fs.rename(file, aside);
    } catch {
      continue;
    }
    const moved = await readHolder(aside).catch(() => undefined);
    if (moved && isAlive(moved)) {
      // Another console took the lock over between our read and our move: give it back.
      // Said in the refusal: nothing is logged before the data directory is ours.
      const notRestored = await fs.link(aside, file).then(
        () => undefined,
        (error: unknown) => `its lock file could not be put back (${error instanceof Error ? error.message : String(error)})`,
      );
      await fs.rm(aside, { force: true });
      throw new DataDirLockedError(dataDir, moved, notRestored);
    }
    await fs.rm(aside, { force: true });
  }
  throw new Error(`could not take the lock ${file}: it keeps changing; is another console starting on ${dataDir}?`);
}
