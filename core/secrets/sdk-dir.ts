// The trust boundary of adapters: the console runs the code under `pathProps.sdk_dir` (its
// adapters) with its own rights, so whoever can write there can run code as the console. The
// folder and its `adapters/` must be writable by their owner only; otherwise the profile warns.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errorMessage, systemErrorCode } from '../errors';

/** Warnings for an sdk_dir (and its adapters/ folder) that others than its owner can write, or another user owns. */
export async function sdkDirWarnings(dataDir: string, sdkDir: unknown): Promise<string[]> {
  if (typeof sdkDir !== 'string' || sdkDir.trim() === '' || process.platform === 'win32') return [];
  const root = path.resolve(dataDir, sdkDir.trim());
  const warnings: string[] = [];
  for (const dir of [root, path.join(root, 'adapters')]) {
    let stat;
    try {
      stat = await fs.stat(dir);
    } catch (error) {
      // A folder that does not exist holds no code to run; the adapters page says it is missing.
      if (systemErrorCode(error) === 'ENOENT') continue;
      warnings.push(`pathProps.sdk_dir: cannot check ${dir} (${systemErrorCode(error) ?? errorMessage(error)})`);
      continue;
    }
    if ((stat.mode & 0o022) !== 0) {
      warnings.push(
        `pathProps.sdk_dir: ${dir} can be written by ${stat.mode & 0o002 ? 'every user' : 'its group'}; adapters there run as the console, so make it owner-writable only (chmod go-w "${dir}")`,
      );
    }
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0 && stat.uid !== uid && stat.uid !== 0) {
      warnings.push(`pathProps.sdk_dir: ${dir} belongs to another user (uid ${stat.uid}), who can change the adapters the console runs`);
    }
  }
  return warnings;
}
