// Where an Electron archive for the desktop app and its installers can be found on this machine,
// without any download: what `npm run dist` (scripts/dist.mjs) hands electron-builder as its
// `electronDist`, and what `npm start`'s hint names for an offline machine.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Electron the installers embed: electron-builder.yml's electronVersion. */
export function electronVersion() {
  const config = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
  const version = /^electronVersion:\s*["']?([\w.-]+)/m.exec(config)?.[1];
  if (!version) throw new Error('electron-builder.yml names no electronVersion');
  return version;
}

/** The file Electron publishes for a version, platform and architecture (electron-v45.4.1-linux-x64.zip). */
export function archiveName(version = electronVersion(), platform = process.platform, arch = process.arch) {
  return `electron-v${version}-${platform}-${arch}.zip`;
}

/** @electron/get's cache root: electron_config_cache, else its per-platform default (env-paths "electron"). */
export function electronCacheRoot(env = process.env, platform = process.platform, home = os.homedir()) {
  if (env.electron_config_cache) return path.resolve(env.electron_config_cache);
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'electron');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'electron', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'electron');
}

/**
 * Where @electron/get keeps (and first looks for) the archive: a folder named by the SHA-256 of the
 * download URL's folder on Electron's releases. Electron's own installer
 * (`node node_modules/electron/install.js`, checked against the checksums the electron package
 * ships) takes it from there without a download.
 */
export function cachedArchivePath(version = electronVersion(), env = process.env, platform = process.platform, arch = process.arch) {
  const folder = createHash('sha256').update(`https://github.com/electron/electron/releases/download/v${version}`).digest('hex');
  return path.join(electronCacheRoot(env, platform), folder, archiveName(version, platform, arch));
}

/** An unpacked Electron of `version` in `dir` (its `version` file, as Electron's zips carry it). */
function unpackedVersion(dir) {
  const file = path.join(dir, 'version');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().replace(/^v/, '') : undefined;
}

/**
 * The archive electron-builder can use here, as its `electronDist`: `given` (a zip, a folder holding
 * the zip, or an unpacked Electron folder), else an unpacked Electron of the same version in
 * node_modules/electron/dist, else the zip in Electron's cache. `{ problem }` when `given` is wrong;
 * undefined when there is none.
 */
export function findElectronArchive({ given, env = process.env, version = electronVersion() } = {}) {
  const name = archiveName(version);
  if (given) {
    const resolved = path.resolve(given);
    if (!existsSync(resolved)) return { problem: `${resolved} does not exist` };
    if (statSync(resolved).isDirectory()) {
      if (existsSync(path.join(resolved, name))) return { path: path.join(resolved, name), how: `${name} in the folder given` };
      const found = unpackedVersion(resolved);
      if (found === version) return { path: resolved, how: `the unpacked Electron ${version} given` };
      return { problem: `${resolved} holds neither ${name} nor an unpacked Electron ${version}${found ? ` (its version file says ${found})` : ''}` };
    }
    if (!resolved.endsWith('.zip')) return { problem: `${resolved} is not a .zip archive (electron-builder takes ${name}, a folder holding it, or an unpacked Electron folder)` };
    return { path: resolved, how: 'the archive given' };
  }
  const installed = path.join(ROOT, 'node_modules', 'electron', 'dist');
  if (unpackedVersion(installed) === version) return { path: installed, how: `the Electron ${version} installed in node_modules/electron/dist` };
  const cached = cachedArchivePath(version, env);
  if (existsSync(cached)) return { path: cached, how: "Electron's download cache" };
  return undefined;
}

/** `npm start`'s words where no Electron binary is installed: how to get one, online or not. */
export function noElectronHint(version = electronVersion()) {
  return [
    'No Electron binary on this machine: serving the console to your browser instead, open the URL below.',
    `For the desktop app, \`node node_modules/electron/install.js\` downloads Electron ${version} from Electron's releases on GitHub.`,
    `Offline, put ${archiveName(version)} first at ${cachedArchivePath(version)}: that command then takes it from there (or set ELECTRON_OVERRIDE_DIST_PATH to an unpacked Electron folder).`,
  ];
}
