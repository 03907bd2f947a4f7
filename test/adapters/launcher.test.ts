// How adapter processes are launched: a launcher given to the manager (the Electron main process
// passes one on utilityProcess), and a runner that cannot start is a crash with its stderr, not a hang.
import { beforeAll, describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import {
  AdapterManager,
  forkLauncher,
  readAdapterPackage,
  runnerPath,
  shippedAdaptersDir,
  utilityProcessLauncher,
  type AdapterPackage,
  type UtilityProcessModule,
} from '../../core/adapters';
import { INVENTORY, waitFor } from './support';

let example: AdapterPackage;
let inventory: AdapterPackage;
beforeAll(async () => {
  example = (await readAdapterPackage(path.join(shippedAdaptersDir(), 'example'), 'shipped'))!;
  inventory = (await readAdapterPackage(INVENTORY, 'sdk'))!;
});

const exampleConfig = { id: 'example', type: 'Example', properties: { greeting: 'hi', healthcheck: { type: 'none' } }, brokers: [], groups: [] };

describe('adapter launcher', () => {
  it('starts adapters through the launcher it is given', async () => {
    const launched: string[] = [];
    const launcher = (runner: string, options: Parameters<typeof forkLauncher>[1]) => {
      launched.push(options.name);
      return forkLauncher(runner, options);
    };
    const manager = new AdapterManager({ runner: runnerPath(), launcher });
    manager.set(exampleConfig, example);
    try {
      await manager.start('example');
      await expect(manager.call('example', 'echo', { message: 'through the launcher' })).resolves.toMatchObject({ ok: true, value: { message: 'through the launcher' } });
      expect(launched).toEqual(['adapter example']);
    } finally {
      await manager.close();
    }
  });

  it('reports a runner that cannot start as a crash with what it wrote to stderr', async () => {
    const manager = new AdapterManager({ runner: '/nonexistent/runner.cjs', backoff: { maxConsecutive: 0 } });
    manager.set(exampleConfig, example);
    try {
      await manager.start('example');
      const dead = await waitFor(async () => {
        const item = await manager.item('example');
        return item.state === 'DEAD' && item;
      }, 'the adapter to be DEAD');
      expect(dead.lastCrash?.exitCode).toBe(1);
      expect(dead.lastCrash?.stderr.join('\n')).toContain('Cannot find module');
      await expect(manager.call('example', 'echo', { message: 'x' })).rejects.toThrow('adapter "example" is not running (DEAD');
    } finally {
      await manager.close();
    }
  });
});

/** Electron's utilityProcess as far as the launcher uses it, played by child_process.fork. */
const fakeUtilityProcess: UtilityProcessModule = {
  fork(modulePath, args, options) {
    const child = fork(modulePath, args ?? [], { cwd: options?.cwd, env: options?.env, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const events = new EventEmitter();
    child.on('spawn', () => events.emit('spawn'));
    child.on('message', (message) => events.emit('message', message));
    child.on('exit', (code) => events.emit('exit', code ?? 1));
    return {
      get pid() {
        return child.pid;
      },
      stdout: child.stdout,
      stderr: child.stderr,
      postMessage: (message: unknown) => void child.send(message as object),
      kill: () => child.kill(),
      on: (event: string, listener: (...a: never[]) => void) => events.on(event, listener as (...a: unknown[]) => void),
    };
  },
};

describe('utility process launcher (the desktop app)', () => {
  it('runs, stops and reports crashes of adapters through utilityProcess', async () => {
    const manager = new AdapterManager({ runner: runnerPath(), backoff: { maxConsecutive: 0 }, launcher: utilityProcessLauncher(fakeUtilityProcess) });
    manager.set(exampleConfig, example);
    manager.set({ id: 'crasher', type: 'Inventory', properties: { host: 'x.invalid', port: 1, healthcheck: { type: 'none' } }, brokers: [], groups: [] }, inventory);
    try {
      await manager.start('example');
      await manager.start('crasher');
      await expect(manager.call('example', 'add', { a: 1, b: 2 })).resolves.toMatchObject({ ok: true, value: { sum: 3 } });
      await waitFor(async () => (await manager.item('example')).connection?.state === 'ONLINE', 'example ONLINE');
      await manager.stop('example');
      expect((await manager.item('example')).state).toBe('STOPPED');
      await expect(manager.call('crasher', 'crash', {}, { timeoutMs: 10_000 })).rejects.toThrow('adapter "crasher" crashed (exit code 3)');
      const crashed = await manager.item('crasher');
      expect(crashed.lastCrash).toMatchObject({ exitCode: 3, signal: null });
      expect(crashed.lastCrash?.stderr).toContain('about to crash: the inventory sent garbage');
    } finally {
      await manager.close();
    }
  });
});
