// Atomic writes of user files: write a temporary file beside the target, flush it
// to disk, then rename it over the target. A crash at any point leaves either the
// old file or the new one, never a torn one (test/profiles/atomic-crash.test.ts
// kills a writer at each step to prove it).
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { systemErrorCode } from '../errors';

/** The steps of a save, in order; a crash after any of them leaves the old or the new file. */
export const ATOMIC_STEPS = [
  'temp-opened',
  'temp-half-written',
  'temp-written',
  'temp-synced',
  'backup-written',
  'renamed',
  'dir-synced',
] as const;
export type AtomicStep = (typeof ATOMIC_STEPS)[number];

export interface AtomicWriteOptions {
  /** File mode, e.g. 0o600 for secrets. */
  mode?: number;
  /** Keep the previous content as `<file>.bak` (itself written atomically) before replacing it. */
  backup?: boolean;
  /** Called after each step (crash tests and diagnostics). */
  onStep?: (step: AtomicStep) => void | Promise<void>;
}

const tempPattern = (base: string) => new RegExp(`^\\.${escape(base)}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}) {
  const step = options.onStep ?? (() => undefined);
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  await removeStaleTemps(dir, path.basename(file));
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const temp = tempName(file);
  const handle = await fs.open(temp, 'w', options.mode ?? 0o644);
  try {
    await step('temp-opened');
    const half = Math.floor(bytes.length / 2);
    await handle.write(bytes, 0, half);
    await step('temp-half-written');
    await handle.write(bytes, half, bytes.length - half);
    await step('temp-written');
    await handle.sync();
    await step('temp-synced');
  } catch (error) {
    // The write's own error is the one to report; a failing close of the discarded temp file adds nothing.
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    if (options.backup) await backupOf(file, options.mode);
    await step('backup-written');
    await fs.rename(temp, file);
    await step('renamed');
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
  await step('dir-synced');
}

const tempName = (file: string) =>
  path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);

/** Copies the current file to `<file>.bak` through its own temporary file: the backup is never torn either. */
async function backupOf(file: string, mode?: number) {
  let current: Buffer;
  try {
    current = await fs.readFile(file);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT') return;
    throw error;
  }
  const backup = `${file}.bak`;
  const temp = tempName(backup);
  try {
    const handle = await fs.open(temp, 'w', mode ?? 0o644);
    try {
      await handle.writeFile(current);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, backup);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Temporary files left by a writer that was killed (its process no longer runs). */
async function removeStaleTemps(dir: string, base: string) {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    // No folder to read: no leftover temp files to clean.
    return;
  }
  const patterns = [tempPattern(base), tempPattern(`${base}.bak`)];
  for (const name of names) {
    const match = patterns.map((p) => p.exec(name)).find(Boolean);
    if (match && !processRuns(Number(match[1]))) await fs.rm(path.join(dir, name), { force: true });
  }
}

function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return systemErrorCode(error) === 'EPERM';
  }
}

async function syncDir(dir: string) {
  // Makes the rename itself durable; not supported on every platform, so best effort.
  try {
    const handle = await fs.open(dir, constants.O_RDONLY);
    await handle.sync().finally(() => handle.close());
  } catch {
    /* directories cannot be opened for sync on Windows */
  }
}

export async function writeJsonAtomic(file: string, value: unknown, options: AtomicWriteOptions = {}) {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);
}
