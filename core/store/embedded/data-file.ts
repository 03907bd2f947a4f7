// Reads an embedded collection file line by line before the datastore loads it,
// so a damaged file is refused with its name and line instead of being loaded
// with the damaged records silently dropped.
import { promises as fs } from 'node:fs';
import { StoreError } from '../errors';

export async function checkDataFile(file: string): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StoreError('failed', `cannot read store file ${file}: ${(error as Error).message}`);
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const problem = lineProblem(line);
    if (problem) {
      throw new StoreError(
        'damaged',
        `damaged store file ${file}, line ${i + 1}: ${problem}. The collection was not loaded; ` +
          'restore the file from a backup or remove the damaged line.',
      );
    }
  }
}

function lineProblem(line: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return 'not a document';
  const r = record as Record<string, unknown>;
  // The datastore's own index records, then documents (which always carry an _id).
  if (r.$$indexCreated !== undefined || typeof r.$$indexRemoved === 'string') return undefined;
  if (r._id === undefined || r._id === null || r._id === '') return 'a document without _id';
  return undefined;
}
