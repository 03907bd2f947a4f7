// `npm run dist` and `npm start` on a machine without Electron: the installers are built only from an
// Electron archive already on disk (no download), and without one `npm run dist` stops before
// building, naming the file and where to put it; `npm start`'s hint names the same offline way.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveName, cachedArchivePath, electronCacheRoot, electronVersion, findElectronArchive, noElectronHint } from '../../scripts/electron-archive.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VERSION = electronVersion();
const NAME = archiveName(VERSION);
const installed = findElectronArchive({ env: { electron_config_cache: '/nonexistent' } });

let cache: string;
beforeAll(async () => {
  cache = await mkdtemp(path.join(os.tmpdir(), 'electron-cache-'));
});
afterAll(async () => {
  await rm(cache, { recursive: true, force: true });
});

function dist(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { ELECTRON_DIST: _unset, ...rest } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/dist.mjs', ...args], { cwd: ROOT, env: { ...rest, electron_config_cache: cache, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the Electron archive', () => {
  it('is the one electron-builder.yml embeds, for this OS and architecture', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(NAME).toBe(`electron-v${VERSION}-${process.platform}-${process.arch}.zip`);
  });

  it("is looked for where Electron's downloader caches it (a folder named by the SHA-256 of the release URL's folder)", () => {
    // The folder @electron/get 5 reports a cache hit in for 45.4.1 (checked with DEBUG=@electron/get* and its install.js).
    expect(cachedArchivePath('45.4.1', { electron_config_cache: '/c' }, 'linux', 'x64')).toBe(
      path.join('/c', '63946acb59adc73ff164033f7dbb473beec0a930781be3b30181d4eb34ef3c3c', 'electron-v45.4.1-linux-x64.zip'),
    );
    expect(electronCacheRoot({}, 'linux', '/home/u')).toBe(path.join('/home/u', '.cache', 'electron'));
    expect(electronCacheRoot({ XDG_CACHE_HOME: '/x' }, 'linux', '/home/u')).toBe(path.join('/x', 'electron'));
    expect(electronCacheRoot({}, 'darwin', '/Users/u')).toBe(path.join('/Users/u', 'Library', 'Caches', 'electron'));
  });

  it('given as a zip, a folder holding it, or an unpacked Electron of the same version; anything else is named', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'electron-given-'));
    try {
      await writeFile(path.join(folder, NAME), 'zip');
      expect(findElectronArchive({ given: path.join(folder, NAME) })).toMatchObject({ path: path.join(folder, NAME) });
      expect(findElectronArchive({ given: folder })).toMatchObject({ path: path.join(folder, NAME) });
      const unpacked = path.join(folder, 'unpacked');
      await mkdir(unpacked);
      await writeFile(path.join(unpacked, 'version'), '44.0.0');
      expect(findElectronArchive({ given: unpacked })).toEqual({ problem: `${unpacked} holds neither ${NAME} nor an unpacked Electron ${VERSION} (its version file says 44.0.0)` });
      await writeFile(path.join(unpacked, 'version'), VERSION);
      expect(findElectronArchive({ given: unpacked })).toMatchObject({ path: unpacked });
      expect(findElectronArchive({ given: path.join(folder, 'nope.zip') })).toEqual({ problem: `${path.join(folder, 'nope.zip')} does not exist` });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('npm run dist', { timeout: 90_000 }, () => {
  it('without an Electron archive stops before building, naming the file, --electron-dist and the cache path', async (context) => {
    if (installed) context.skip(`an Electron ${VERSION} is installed in node_modules/electron/dist: npm run dist would build from it`);
    const { code, stdout, stderr } = await dist([]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`dist: no Electron ${VERSION} archive on this machine, so no installer was built.`);
    expect(stderr).toContain(`npm run dist -- --electron-dist /path/to/${NAME}`);
    expect(stderr).toContain(cachedArchivePath(VERSION, { electron_config_cache: cache }));
    expect(stderr).not.toMatch(/ENOTFOUND|getaddrinfo|fetch failed/);
  });

  it('finds the archive in the cache and says so (then builds: not run here, only the lookup)', () => {
    expect(findElectronArchive({ env: { electron_config_cache: cache } })).toBe(installed);
    const env = { electron_config_cache: path.join(cache, 'seeded') };
    const file = cachedArchivePath(VERSION, env);
    return mkdir(path.dirname(file), { recursive: true })
      .then(() => writeFile(file, 'zip'))
      .then(() => expect(findElectronArchive({ env })).toEqual(installed ?? { path: file, how: "Electron's download cache" }));
  });

  it('--electron-dist naming nothing there is a usage error (exit 2), before any build', async () => {
    const { code, stderr } = await dist(['--electron-dist', path.join(cache, 'missing.zip')]);
    expect(code).toBe(2);
    expect(stderr).toContain(`dist: --electron-dist: ${path.join(cache, 'missing.zip')} does not exist`);
    expect(existsSync(path.join(cache, 'missing.zip'))).toBe(false);
  });

  it('--help names the targets of electron-builder.yml, release/ and the offline ways, exit 0', async () => {
    const { code, stdout } = await dist(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('targets: linux: AppImage, deb; win: nsis; mac: dmg) into release/.');
    expect(stdout).toContain('--electron-dist PATH');
    expect(stdout).toContain('--download');
  });
});

describe("npm start's hint without Electron", () => {
  it('names the download command and the offline way: the archive and the cache path it is taken from', () => {
    const hint = noElectronHint(VERSION).join('\n');
    expect(hint).toContain('node node_modules/electron/install.js');
    expect(hint).toContain(`Offline, put ${NAME} first at ${cachedArchivePath(VERSION)}`);
    expect(hint).toContain('ELECTRON_OVERRIDE_DIST_PATH');
  });
});
