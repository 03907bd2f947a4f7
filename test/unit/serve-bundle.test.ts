// The headless console as `npm start` runs it without Electron: the bundle dist/serve/serve.cjs
// under plain Node (no TypeScript loader) starts on a new data directory, serves the built UI
// and answers the API with the data directory's token.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const uiBuilt = existsSync(path.join(root, 'dist/renderer/index.html'));
if (!uiBuilt) console.warn('[serve bundle] the UI part skipped: dist/renderer is not built (`npm run build` builds it)');

let dataDir: string;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, ['scripts/build-main.mjs'], { cwd: root });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-bundle-'));
  child = spawn(process.execPath, [path.join(root, 'dist/serve/serve.cjs'), '--data-dir', dataDir, '--port', '0', '--no-print-token'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bundled console did not start within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Console listening on (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the bundled console exited (${code}) before listening:\n${output}`)));
  });
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the bundled headless console', () => {
  it('answers the API with the token of its data directory, and refuses a call without it', async () => {
    const token = (await readFile(path.join(dataDir, 'console-token'), 'utf8')).trim();
    const status = await fetch(`${url}/health/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ release: '2022.1' });
    expect((await fetch(`${url}/health/status`)).status).toBe(401);
  });

  it.skipIf(!uiBuilt)('serves the built UI at /', async () => {
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Automation Console</title>');
  });
});

describe('the bundled headless console on a Node with no node:sqlite', () => {
  it('exits 1 saying which Node it found and which it needs, writing nothing in its data directory', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'console-serve-no-sqlite-'));
    try {
      const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
        execFile(process.execPath, ['--require', path.join(root, 'test/unit/hide-sqlite.cjs'), path.join(root, 'dist/serve/serve.cjs'), '--data-dir', empty, '--port', '0'], { cwd: root, timeout: 30_000 }, (error, out, err) =>
          resolve({ stdout: out, stderr: err, code: error ? ((error as { code?: number }).code ?? null) : 0 }),
        );
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`the console cannot run on Node ${process.versions.node}: it has no node:sqlite`);
      expect(stderr).toContain('the console needs Node >= 22.13 with node:sqlite');
      expect(stdout).not.toContain('listening');
      expect(await readdir(empty)).toEqual([]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

