// One console per data directory: a second `serve` on the same directory is
// refused naming the first one's pid and start time; a lock left by a killed
// console is taken over; consoles on different data directories share one
// embedded database file.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost } from '../../core/host/host';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../core/host/lock';

const ROOT = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** `npm run serve` on a data directory; resolves with its output once it listens, or when it exits. */
function serve(dataDir: string): Promise<{ child: ChildProcess; output: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'core/cli/serve.ts'), '--data-dir', dataDir, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CONSOLE_TOKEN: 'lock-test' },
  });
  children.push(child);
  return new Promise((resolve) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Console listening on/.test(output)) resolve({ child, output, code: null });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => resolve({ child, output, code }));
  });
}

describe('the data directory lock', () => {
  it('refuses a second console on the same data directory, naming the first one', async () => {
    const dataDir = await tempDir('lock-');
    const first = await serve(dataDir);
    expect(first.output).toMatch(/Console listening on/);
    const holder = JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
    expect(holder.pid).toBe(first.child.pid);

    const second = await serve(dataDir);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`serve: the data directory ${dataDir} is in use by another console (pid ${first.child.pid} on ${os.hostname()}, started ${holder.startedAt})`);

    // In this process too, with the error's fields.
    const error = await startHost({ dataDir, port: 0, token: 't' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as DataDirLockedError).holder.pid).toBe(first.child.pid);
  }, 60_000);

  it('takes over the lock of a console that was killed', async () => {
    const dataDir = await tempDir('lock-killed-');
    const first = await serve(dataDir);
    expect(first.output).toMatch(/Console listening on/);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);

    const host = await startHost({ dataDir, port: 0, token: 't' });
    try {
      expect(JSON.parse(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    } finally {
      await host.close();
    }
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('takes over a lock whose pid now belongs to another program, and a damaged lock file', async () => {
    const dataDir = await tempDir('lock-reused-');
    // pid 1 runs, but it is not the process that wrote the lock (its start time differs).
    await writeFile(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: 1, hostname: os.hostname(), startedAt: '2022-01-01T00:00:00.000Z', procStart: '1' }));
    const lock = await lockDataDir(dataDir);
    await lock.release();
    await writeFile(path.join(dataDir, LOCK_FILE), '{"pid": 12');
    const again = await lockDataDir(dataDir);
    expect(JSON.parse(readFileSync(again.file, 'utf8')).pid).toBe(process.pid);
    await again.release();
  });

  it('lets two consoles with their own data directories share one embedded database file', async () => {
    const shared = path.join(await tempDir('lock-shared-'), 'automation.sqlite');
    const hosts = [];
    for (const id of ['primary', 'standby']) {
      const dataDir = await tempDir(`lock-${id}-`);
      await mkdir(path.join(dataDir, 'profiles', id), { recursive: true });
      await writeFile(path.join(dataDir, 'profiles', id, 'properties.json'), JSON.stringify({ id, processTasksOnStart: id === 'primary', embeddedProps: { file: shared } }));
      await writeFile(path.join(dataDir, 'console.json'), JSON.stringify({ activeProfile: id }));
      hosts.push(await startHost({ dataDir, port: 0, token: 't' }));
    }
    try {
      const [primary, standby] = hosts;
      expect(primary!.state.runtime.config.profileId).toBe('primary');
      expect(standby!.state.runtime.store.location).toBe(`embedded store in ${shared}`);
      await primary!.state.runtime.store.collection('jobs').insertOne({ _id: 'j1', name: 'deploy' });
      expect(await standby!.state.runtime.store.collection('jobs').findOne({ _id: 'j1' })).toEqual({ _id: 'j1', name: 'deploy' });
    } finally {
      for (const host of hosts) await host.close();
    }
  });
});
