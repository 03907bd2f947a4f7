// The fsync after a rename: the file and then its folder, so a rename survives a power cut.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../../errors';

/** fsync of a file, then of its folder: a rename is on disk before it is reported done. */
export async function syncRenamed(file: string): Promise<void> {
  for (const target of [file, path.dirname(file)]) {
    const handle = await open(target, 'r');
    try {
      await handle.sync();
    } catch (error) {
      // Some file systems refuse fsync on a folder (EINVAL, EISDIR on Windows): the file's own fsync stands.
      if (target === file) throw new Error(`fsync of ${target} failed: ${errorMessage(error)}`, { cause: error });
    } finally {
      await handle.close();
    }
  }
}
