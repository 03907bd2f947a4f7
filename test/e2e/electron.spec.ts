// Smoke test of the desktop app, where an Electron binary exists.
import { _electron as electron, test, expect } from '@playwright/test';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error plain ESM helper without types
import { electronBinary } from '../../scripts/electron-binary.mjs';

const binary: string | undefined = electronBinary();
const reason = 'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD, and none in ELECTRON_OVERRIDE_DIST_PATH)';
if (!binary) console.log(`[electron smoke test] skipped: ${reason}`);

test('the desktop window opens on the console and shows the status bar', async () => {
  test.skip(!binary, reason);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-electron-'));
  const app = await electron.launch({ executablePath: binary, args: ['.'], env: { ...process.env, CONSOLE_DATA_DIR: dataDir } });
  const window = await app.firstWindow();
  await expect(window.getByRole('status', { name: 'Status bar' })).toContainText('Release 2022.1');
  const isolated = await window.evaluate(() => typeof (globalThis as { require?: unknown }).require === 'undefined');
  expect(isolated).toBe(true);
  await app.close();
});
