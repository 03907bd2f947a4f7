// Where a lab drill's two consoles share their database: one embedded SQLite file when this
// build's store opens `embeddedProps.file`, otherwise one MongoDB-wire test server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { jongodbBinary, startJongodb, type TestMongo } from '../store/jongodb';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const embeddedFileShared = readFileSync(path.join(ROOT, 'core/store/open.ts'), 'utf8').includes('embeddedProps');

export async function sharedDatabase(): Promise<{ mongo?: TestMongo; why: string } | { unavailable: string }> {
  if (embeddedFileShared) return { why: 'one embedded SQLite file (embeddedProps.file)' };
  const found = jongodbBinary();
  if ('unavailable' in found) return { unavailable: `this store cannot share an embedded file and ${found.unavailable}` };
  return { mongo: await startJongodb(), why: 'one MongoDB-wire test server (this store cannot share an embedded file)' };
}
