// Atomic writes of user files: write a temporary file beside the target, flush it
// to disk, then rename it over the target. A crash at any point leaves either the
// old file or the new one, never a torn one.
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteOptions {
  /** File mode, e.g. 0o600 for secrets. */
  mode?: number;
  /** Keep the previous content as `<file>.bak` before replacing it. */
  backup?: boolean;
}

export async function writeFileAtomic(file: string, data: string | Buffer, options: AtomicWriteOptions = {}) {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'w', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.backup) {
      // A copy, not a rename: the target must exist at every instant.
      await fs.copyFile(file, `${file}.bak`).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDir(dir);
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
