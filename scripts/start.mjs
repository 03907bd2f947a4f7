// `npm start`: the desktop app when an Electron binary is present, otherwise the
// headless console on the default data directory, served to a browser. Either way its
// first lines say where the data and the log are kept and which port the API takes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronBinary } from './electron-binary.mjs';
import { noElectronHint } from './electron-archive.mjs';

const binary = electronBinary();
const forward = (child) => {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
};

/** Where the desktop app keeps its data: CONSOLE_DATA_DIR, else Electron's user data folder (main/data-dir.ts). */
function desktopDataDir() {
  if (process.env.CONSOLE_DATA_DIR) return path.resolve(process.env.CONSOLE_DATA_DIR);
  const { productName } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), productName);
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', productName);
  return path.join(process.env.XDG_CONFIG_HOME ?? path.join(home, '.config'), productName);
}

if (binary) {
  const dataDir = desktopDataDir();
  console.log('Starting the desktop app (Electron).');
  console.log(`Data: ${dataDir} (Electron's user data folder; CONSOLE_DATA_DIR to choose another)`);
  console.log(`Logs: ${path.join(dataDir, 'logs')}${path.sep} (console.log unless the profile's loggerProps.log_filename names another)`);
  console.log('Port: any free one on 127.0.0.1 (the window talks to the console over IPC; the API is for scripts)');
  forward(spawn(binary, ['.'], { stdio: 'inherit' }));
} else {
  for (const line of noElectronHint()) console.log(line);
  // The bundled headless console (`npm start` builds it first); its first lines say where the data, the log and the port are.
  forward(spawn(process.execPath, ['dist/serve/serve.cjs', ...process.argv.slice(2)], { stdio: 'inherit' }));
}
