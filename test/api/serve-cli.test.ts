// The headless command as an operator runs it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, readdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

function serve(dataDir: string, env: Record<string, string> = {}, onStderr: (text: string) => void = () => undefined) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, '--port', '0', '--print-token'], {
    env: { ...process.env, ...env },
  });
  children.push(child);
  let output = '';
  child.stderr.on('data', (chunk) => onStderr(String(chunk)));
  const lines = new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Open ')) resolve(output.split('\n'));
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return { child, lines };
}

/** Stops a console and waits for it to exit, before its data directory is removed (a running console still writes there). */
async function stopped(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}

describe('npm run serve', () => {
  it('prints where it listens and the URL to open, creates a first profile, and stops on SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-'));
    const { child, lines } = serve(dataDir);
    const output = await lines;
    const listening = output.find((line) => line.startsWith('Console listening on '));
    const open = output.find((line) => line.startsWith('Open '));
    expect(listening).toMatch(/^Console listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = listening!.replace('Console listening on ', '');
    expect(open).toMatch(new RegExp(`^Open ${url}/#token=[A-Za-z0-9_-]{20,}$`));

    const token = open!.split('#token=')[1]!;
    const status = await fetch(`${url}/health/status`, { headers: { authorization: `Bearer ${token}` } });
    expect(await status.json()).toMatchObject({ profile: 'default', store: 'embedded' });
    expect((await fetch(`${url}/`)).headers.get('content-security-policy')).toContain("script-src 'self'");

    const tokenFile = await stat(path.join(dataDir, 'console-token'));
    if (process.platform !== 'win32') expect(tokenFile.mode & 0o777).toBe(0o600);
    expect(await readdir(path.join(dataDir, 'profiles'))).toEqual(['default']);

    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a SIGTERM while it starts, before the port opens, stops it gracefully once started: exit 0, the lock released', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-'));
    const { child, lines } = serve(dataDir);
    // It stops before printing where it listens: the lines never come.
    lines.catch(() => undefined);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    // The first lines (where the data and the log are kept) are printed before the console starts.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    await expect(stat(path.join(dataDir, 'console.lock'))).rejects.toThrow(/ENOENT/);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('takes its token from CONSOLE_TOKEN', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-'));
    const { child, lines } = serve(dataDir, { CONSOLE_TOKEN: 'from-the-environment-123' });
    const open = (await lines).find((line) => line.startsWith('Open '));
    expect(open).toMatch(/#token=from-the-environment-123$/);
    await stopped(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says first where it keeps its data and its log, and which port it takes, then the log file once started', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-'));
    const { child, lines } = serve(dataDir);
    const [data, logs, port, listening, logFile] = await lines;
    expect(data).toBe(`Data: ${dataDir} (profiles, the embedded store, the API token; --data-dir to choose another)`);
    expect(logs).toBe(`Logs: ${path.join(dataDir, 'logs')}${path.sep} (console.log unless the profile's loggerProps.log_filename names another)`);
    expect(port).toBe('Port: any free one on 127.0.0.1 (--port to choose another, 0 for any free one)');
    expect(listening).toMatch(/^Console listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(logFile).toBe(`Log file: ${path.join(dataDir, 'logs', 'console.log')}`);
    await stopped(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('warns in its log when the active profile still carries the removed activate setting', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-serve-'));
    await mkdir(path.join(dataDir, 'profiles', 'dr'), { recursive: true });
    const legacy = { id: 'dr', processTasksOnStart: false, properties: { activate: true } };
    await writeFile(path.join(dataDir, 'profiles', 'dr', 'properties.json'), JSON.stringify(legacy));
    let stderr = '';
    const { child, lines } = serve(dataDir, {}, (text) => (stderr += text));
    await lines;
    await expect.poll(() => stderr).toContain('Warning (profile "dr")');
    expect(stderr).toContain('processTasksOnStart wins');
    await stopped(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('on a busy port exits 2 naming the port, and leaves no new data directory or token behind', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'console-serve-busy-'));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const existing = path.join(parent, 'existing');
    await mkdir(existing);
    try {
      for (const dataDir of [path.join(parent, 'new', 'data'), existing]) {
        const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
          execFile(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, '--port', String(port)], { timeout: 60_000 }, (error, _stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
          ),
        );
        expect(run.code, dataDir).toBe(2);
        expect(run.stderr).toContain(`serve: port ${port} on 127.0.0.1 is already in use: pass another --port, or --port 0 for any free port`);
      }
      // The folder given did not exist: neither it nor its missing parent was made; the one that existed stays empty.
      expect(await readdir(parent)).toEqual(['existing']);
      expect(await readdir(existing)).toEqual([]);
    } finally {
      taken.close();
      await rm(parent, { recursive: true, force: true });
    }
  });
});
