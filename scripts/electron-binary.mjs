// Where the Electron binary is, if this machine has one. Electron's own `require('electron')`
// would try to download it; this only looks (node_modules/electron/dist or ELECTRON_OVERRIDE_DIST_PATH).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const electronDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/electron');

export function electronBinary() {
  const names = ['electron', 'electron.exe', 'Electron.app/Contents/MacOS/Electron'];
  const pathFile = path.join(electronDir, 'path.txt');
  if (existsSync(pathFile)) names.unshift(readFileSync(pathFile, 'utf8').trim());
  const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(electronDir, 'dist');
  return names.map((name) => path.join(dist, name)).find((file) => existsSync(file));
}
