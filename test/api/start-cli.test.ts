// `npm start` (scripts/start.mjs) as an operator runs it: its first lines say where the data and the
// log are kept and which port the API takes, for the desktop app and for the browser fallback.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

/** Stops the consoles started and waits for them to exit, before their data directory is removed (a running console still writes there). */
async function stopChildren() {
  await Promise.all(
    children.splice(0).map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      return exited;
    }),
  );
}

/** Runs scripts/start.mjs and answers its stdout lines once `until` says there are enough (or it exits). */
function start(args: string[], env: Record<string, string>, until: (lines: string[]) => boolean) {
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], { env: { ...process.env, ...env } });
  children.push(child);
  let output = '';
  return new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (until(output.split('\n'))) resolve(output.split('\n'));
    });
    child.on('exit', () => (output ? resolve(output.split('\n')) : reject(new Error('start.mjs printed nothing'))));
  });
}

describe('npm start', () => {
  it('without an Electron binary, serves to the browser and says first where its data, log and port are', async () => {
    expect(existsSync('dist/serve/serve.cjs'), 'the bundled console: run `npm run build` first (npm start and npm test do)').toBe(true);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-start-'));
    const lines = await start(['--data-dir', dataDir, '--port', '0'], { ELECTRON_OVERRIDE_DIST_PATH: path.join(dataDir, 'no-electron') }, (l) => l.some((x) => x.startsWith('Open ')));
    expect(lines[0]).toMatch(/^No Electron binary on this machine: serving the console to your browser instead/);
    // How to get the desktop app, online and offline (scripts/electron-archive.mjs).
    expect(lines[1]).toMatch(/node node_modules\/electron\/install\.js/);
    expect(lines[2]).toMatch(/^Offline, put electron-v[\d.]+-\w+-\w+\.zip first at /);
    expect(lines.slice(3, 6)).toEqual([
      `Data: ${dataDir} (profiles, the embedded store, the API token; --data-dir to choose another)`,
      `Logs: ${path.join(dataDir, 'logs')}${path.sep} (console.log unless the profile's loggerProps.log_filename names another)`,
      'Port: any free one on 127.0.0.1 (--port to choose another, 0 for any free one)',
    ]);
    expect(lines[6]).toMatch(/^Console listening on http:\/\/127\.0\.0\.1:\d+$/);
    await stopChildren();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('with an Electron binary, says first where the desktop app keeps its data and log, then starts it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-start-electron-'));
    // A stand-in Electron binary that records it was started.
    const marker = path.join(dir, 'started');
    await writeFile(path.join(dir, 'electron'), `#!/bin/sh\necho started > "${marker}"\n`);
    await chmod(path.join(dir, 'electron'), 0o755);
    const dataDir = path.join(dir, 'desktop-data');
    const lines = await start([], { ELECTRON_OVERRIDE_DIST_PATH: dir, CONSOLE_DATA_DIR: dataDir }, (l) => l.length > 4);
    expect(lines.slice(0, 4)).toEqual([
      'Starting the desktop app (Electron).',
      `Data: ${dataDir} (Electron's user data folder; CONSOLE_DATA_DIR to choose another)`,
      `Logs: ${path.join(dataDir, 'logs')}${path.sep} (console.log unless the profile's loggerProps.log_filename names another)`,
      'Port: any free one on 127.0.0.1 (the window talks to the console over IPC; the API is for scripts)',
    ]);
    await expect.poll(() => existsSync(marker)).toBe(true);
    await rm(dir, { recursive: true, force: true });
  });
});
