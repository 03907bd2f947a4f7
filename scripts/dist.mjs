// `npm run dist`: the desktop app's installers (electron-builder.yml's targets for this OS) in
// release/. electron-builder needs the Electron archive of the version it embeds; this finds one
// already on disk first (scripts/electron-archive.mjs) and hands it over as `electronDist`, so a
// build needs no download of Electron. With none, it stops before building and says how to get one.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { archiveName, cachedArchivePath, electronVersion, findElectronArchive, ROOT } from './electron-archive.mjs';

const USAGE = 'usage: npm run dist -- [--electron-dist PATH] [--download] [electron-builder options, e.g. --dir, --linux deb]';

/** electron-builder.yml's targets, by OS: "linux: AppImage, deb". */
export function targets() {
  const config = parse(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8'));
  return ['linux', 'win', 'mac'].map((os) => `${os}: ${(config[os]?.target ?? []).map((t) => (typeof t === 'string' ? t : t.target)).join(', ')}`);
}

function help() {
  const version = electronVersion();
  return `${USAGE}

Builds the app, then the installers of this OS with electron-builder (electron-builder.yml, its
targets: ${targets().join('; ')}) into release/.
--dir builds the unpacked app only (release/linux-unpacked/ on Linux).

electron-builder embeds Electron ${version}: it needs ${archiveName(version)}, found here in this order:
  --electron-dist PATH   that file, a folder holding it, or an unpacked Electron ${version} folder
                         (ELECTRON_DIST=PATH does the same)
  node_modules/electron/dist, when Electron ${version} is installed there
  Electron's download cache: ${cachedArchivePath(version)}
With none of them it stops before building. --download lets electron-builder download it from
Electron's releases on GitHub instead (an online machine).`;
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(help());
  process.exit(0);
}
const at = args.indexOf('--electron-dist');
if (at !== -1 && !args[at + 1]) {
  console.error(`dist: --electron-dist needs a PATH\n${USAGE}`);
  process.exit(2);
}
const given = at === -1 ? process.env.ELECTRON_DIST || undefined : args[at + 1];
const download = args.includes('--download');
const builderArgs = args.filter((arg, i) => arg !== '--download' && i !== at && i !== at + 1);

const version = electronVersion();
const found = download ? undefined : findElectronArchive({ given });
if (found?.problem) {
  console.error(`dist: --electron-dist: ${found.problem}\n${USAGE}`);
  process.exit(2);
}
if (!download && !found) {
  const name = archiveName(version);
  console.error(`dist: no Electron ${version} archive on this machine, so no installer was built.
electron-builder would download ${name} from Electron's releases on GitHub, which an offline machine cannot reach.
Get that file (https://github.com/electron/electron/releases/tag/v${version}, on any machine), then either
  npm run dist -- --electron-dist /path/to/${name}
    (or a folder holding it, or an unpacked Electron ${version} folder; ELECTRON_DIST=PATH does the same), or
  put it in Electron's download cache, where npm run dist and Electron's own installer
  (node node_modules/electron/install.js, for npm start's desktop app) both find it:
    ${cachedArchivePath(version)}
Online, npm run dist -- --download lets electron-builder download it.
The Linux targets also use electron-builder's own tools (the AppImage runtime, fpm for the .deb), downloaded
on first use into ~/.cache/electron-builder (ELECTRON_BUILDER_CACHE): offline, copy that folder from a machine
that built the same targets once.`);
  process.exit(1);
}
if (found) console.log(`dist: Electron ${version} from ${found.how}: ${found.path}`);

const npmCli = process.env.npm_execpath;
const npm = npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, npmCli] : [process.platform === 'win32' ? 'npm.cmd' : 'npm'];
const step = (command, commandArgs) => {
  const run = spawnSync(command, commandArgs, { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' && command.endsWith('.cmd') });
  if (run.error) throw run.error;
  if (run.status !== 0) process.exit(run.status ?? 1);
};
step(npm[0], [...npm.slice(1), 'run', 'build']);
step(process.execPath, [
  path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
  '--config',
  'electron-builder.yml',
  ...(found ? [`-c.electronDist=${found.path}`] : []),
  ...builderArgs,
]);
console.log(`dist: installers in ${path.join(ROOT, 'release')}`);
