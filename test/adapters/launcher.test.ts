// How adapter processes are launched: a replaceable launcher (the Electron main process installs
// its own), and a runner that cannot start is a crash with its stderr, not a hang.
import { afterEach, describe, expect, it } from 'vitest';
import { AdapterManager, discoverAdapters, forkLauncher, runnerPath, setAdapterLauncher, shippedAdaptersDir } from '../../core/adapters';
import { FIXTURES, waitFor } from './support';

afterEach(() => setAdapterLauncher(forkLauncher));

async function exampleOnly() {
  return (await discoverAdapters(shippedAdaptersDir(), FIXTURES)).filter((d) => d.id === 'example');
}

describe('adapter launcher', () => {
  it('starts adapters through the installed launcher', async () => {
    const launched: string[] = [];
    setAdapterLauncher((runner, options) => {
      launched.push(options.name);
      return forkLauncher(runner, options);
    });
    const manager = new AdapterManager(await exampleOnly(), { runner: runnerPath(), configDir: FIXTURES });
    try {
      await manager.start('example');
      await expect(manager.call('example', 'echo', { message: 'through the launcher' })).resolves.toMatchObject({ message: 'through the launcher' });
      expect(launched).toEqual(['adapter example']);
    } finally {
      await manager.close();
    }
  });

  it('reports a runner that cannot start as a crash with what it wrote to stderr', async () => {
    const manager = new AdapterManager(await exampleOnly(), {
      runner: '/nonexistent/runner.cjs',
      configDir: FIXTURES,
      backoff: { maxConsecutive: 0 },
    });
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
