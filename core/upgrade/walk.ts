// The files of a folder the check reads: dependencies and version-control folders are skipped,
// symbolic links are not followed, and file count and size are bounded.
import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import { errorMessage, systemErrorCode } from '../errors';

export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn']);
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_FILES = 50_000;

export interface WalkEntry {
  absolute: string;
  /** Relative to the root, `/` separated. */
  relative: string;
  size: number;
}

export interface WalkResult {
  files: WalkEntry[];
  skipped: { file: string; reason: string }[];
}

/** Says why the walk or the scan must stop now (canceled, time budget spent), or undefined to go on. */
export type StopCheck = () => string | undefined;

export interface WalkOptions {
  /** Told the count of files found so far, as the walk goes. */
  onFound?: (found: number) => void;
  shouldStop?: StopCheck;
  maxFiles?: number;
}

export async function walkFolder(root: string, accept: (relative: string) => boolean, options: WalkOptions = {}): Promise<WalkResult> {
  const { onFound, shouldStop = () => undefined, maxFiles = MAX_FILES } = options;
  const files: WalkEntry[] = [];
  const skipped: { file: string; reason: string }[] = [];
  const stack = [''];
  while (stack.length) {
    const stop = shouldStop();
    if (stop) {
      skipped.push({ file: stack.pop() || '.', reason: `${stop}; the rest of the folder was not read` });
      break;
    }
    const dir = stack.pop();
    if (dir === undefined) break;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    } catch (error) {
      skipped.push({ file: dir || '.', reason: `cannot read the folder: ${systemErrorCode(error) ?? errorMessage(error)}` });
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    for (const entry of entries) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) stack.push(relative);
        continue;
      }
      if (!entry.isFile() || !accept(relative)) continue;
      if (files.length >= maxFiles) {
        skipped.push({ file: relative, reason: `more than ${maxFiles} files to read; the rest of the folder was not read` });
        files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
        return { files, skipped };
      }
      const absolute = path.join(root, relative);
      const stat = await fs.stat(absolute).catch(() => undefined);
      if (!stat) continue;
      if (stat.size > MAX_FILE_BYTES) {
        skipped.push({ file: relative, reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB` });
        continue;
      }
      files.push({ absolute, relative, size: stat.size });
      if (onFound && files.length % 100 === 0) onFound(files.length);
    }
  }
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { files, skipped };
}
