// An embedded store on a fresh temporary folder for the tests of one file (or of each test),
// closed and its folder removed after them: `use` is handed the folder and the store when
// they are opened.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../../core/store/embedded/store';

export function withTempStore(prefix: string, use: (opened: { dir: string; store: EmbeddedStore }) => void, options: { each?: boolean } = {}): void {
  let opened: { dir: string; store: EmbeddedStore } | undefined;
  (options.each ? beforeEach : beforeAll)(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    opened = { dir, store: await openEmbeddedStore(dir) };
    use(opened);
  });
  (options.each ? afterEach : afterAll)(async () => {
    if (!opened) return;
    await opened.store.close();
    await rm(opened.dir, { recursive: true, force: true });
    opened = undefined;
  });
}
