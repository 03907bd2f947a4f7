// An embedded database that cannot be opened does not stop the console: the profile's store
// exists, and each call (ping included) fails naming the file and the cause.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../core/store/open';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'store-unavailable-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

it('a database file that is a folder: the store says where and why at every call', async () => {
  const notAFile = path.join(dataDir, 'a-folder');
  await mkdir(notAFile);
  const store = await openStore(dataDir, { id: 'broken', embeddedProps: { file: notAFile } });
  expect(store.location).toBe(`embedded store in ${notAFile}`);
  await expect(store.ping()).rejects.toThrow(/cannot open the embedded database .*a-folder/);
  await expect(store.collection('jobs').find({})).rejects.toThrow(/cannot open the embedded database/);
  await store.close();
});
