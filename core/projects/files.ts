// Reads a pre-built folder or a project file on the console's machine (the
// operation scripts use), as the same list of JSON files an upload sends.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { UploadedFile } from './read';
import { ConsoleError, errorMessage } from '../errors';

const SKIP: ReadonlySet<string> = new Set(['node_modules', '.git']);
/** A bundle is a few hundred small documents; a folder past this is not one. */
export const MAX_FILES = 5000;
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** A path on the console's machine that cannot be imported from (relative, missing, too many files). */
export class PathError extends ConsoleError {
  constructor(message: string) {
    super('bad_input', message);
  }
}

/** The JSON files of a folder (or the one file named), parsed; a file that is not JSON is left out. */
export async function readJsonFiles(target: string): Promise<{ files: UploadedFile[]; unreadable: { path: string; reason: string }[] }> {
  if (!path.isAbsolute(target)) throw new PathError(`"${target}" must be an absolute path on the console's machine`);
  const stat = await fs.stat(target).catch((error: NodeJS.ErrnoException) => {
    throw new PathError(`"${target}" cannot be read: ${error.code === 'ENOENT' ? 'it does not exist' : error.message}`);
  });
  const files: UploadedFile[] = [];
  const unreadable: { path: string; reason: string }[] = [];
  const readOne = async (file: string, relative: string) => {
    const size = (await fs.stat(file)).size;
    if (size > MAX_FILE_BYTES) {
      unreadable.push({ path: relative, reason: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` });
      return;
    }
    try {
      files.push({ path: relative, content: JSON.parse(await fs.readFile(file, 'utf8')) });
    } catch (error) {
      unreadable.push({ path: relative, reason: `not JSON: ${errorMessage(error)}` });
    }
  };
  if (stat.isFile()) {
    await readOne(target, path.basename(target));
    return { files, unreadable };
  }
  const queue = [''];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    for (const entry of await fs.readdir(path.join(target, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory() && !SKIP.has(entry.name)) queue.push(relative);
      else if (entry.isFile() && entry.name.endsWith('.json')) {
        if (files.length + unreadable.length >= MAX_FILES) throw new PathError(`"${target}" holds more than ${MAX_FILES} JSON files: name the pre-built's own folder`);
        await readOne(path.join(target, relative), relative);
      }
    }
  }
  return { files, unreadable };
}
