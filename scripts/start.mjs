// `npm start`: the desktop app when an Electron binary is present, otherwise the
// headless console on the default data directory, served to a browser.
import { spawn } from 'node:child_process';
import { electronBinary } from './electron-binary.mjs';

const binary = electronBinary();
const forward = (child) => {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
};

if (binary) {
  forward(spawn(binary, ['.'], { stdio: 'inherit' }));
} else {
  console.log('No Electron binary on this machine (get it with `node node_modules/electron/install.js`): serving the console to your browser instead, open the URL below.');
  // The bundled headless console (`npm start` builds it first).
  forward(spawn(process.execPath, ['dist/serve/serve.cjs', ...process.argv.slice(2)], { stdio: 'inherit' }));
}
