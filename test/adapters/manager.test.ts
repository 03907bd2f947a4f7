// Adapter processes: method calls, a crashing adapter, a hanging one, backoff, stop/start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AdapterManager, discoverAdapters, runnerPath } from '../../core/adapters';
import { FIXTURES, waitFor } from './support';

let manager: AdapterManager;
let emptyShipped: string;

beforeAll(async () => {
  emptyShipped = await mkdtemp(path.join(os.tmpdir(), 'no-shipped-adapters-'));
  const definitions = await discoverAdapters(emptyShipped, FIXTURES);
  manager = new AdapterManager(definitions, {
    runner: runnerPath(),
    configDir: FIXTURES,
    backoff: { initialMs: 50, maxMs: 200, maxConsecutive: 2, stableMs: 60_000 },
    healthTimeoutMs: 500,
    stopGraceMs: 500,
  });
  manager.startAll();
});

afterAll(async () => {
  await manager.close();
  await rm(emptyShipped, { recursive: true, force: true });
});

const item = (id: string) => manager.item(id);

describe('adapters as separate processes', () => {
  it('finds each fixture package, from adapter.json or package.json', () => {
    expect(manager.list().sort()).toEqual(['boot-crash', 'broken', 'cjs', 'crasher', 'hanger']);
    expect(manager.methods('cjs')).toEqual(['greet']);
    expect(manager.methods('nope')).toBeUndefined();
  });

  it('runs each adapter in its own process and reports what that process measures', async () => {
    await manager.call('crasher', 'ok', {}, { timeoutMs: 10_000 });
    const health = await item('crasher');
    expect(health).toMatchObject({ id: 'crasher', type: 'Adapter', state: 'RUNNING', connection: { state: 'ONLINE' }, version: '0.0.1' });
    expect(health.pid).toEqual(expect.any(Number));
    expect(health.pid).not.toBe(process.pid);
    expect(health.memoryUsage?.rss).toBeGreaterThan(0);
    expect(health.cpuUsage?.user).toBeGreaterThan(0);
    expect(health.uptime).toBeGreaterThan(0);
    const answer = (await manager.call('crasher', 'ok', {})) as { pid: number };
    expect(answer.pid).toBe(health.pid);
  });

  it('marks a crashed adapter DEAD, keeps the crash and restarts it', async () => {
    const before = await item('crasher');
    await expect(manager.call('crasher', 'crash', {}, { timeoutMs: 10_000 })).rejects.toThrow(
      'adapter "crasher" crashed (exit code 3) while method "crash" was running',
    );
    const crashed = await item('crasher');
    expect(crashed.lastCrash).toMatchObject({ exitCode: 3, signal: null, message: 'adapter "crasher" crashed while running crash (exit code 3)' });
    expect(crashed.lastCrash?.stderr).toContain('about to crash: the remote system sent garbage');
    const back = await waitFor(async () => {
      const now = await item('crasher');
      return now.state === 'RUNNING' && now.connection?.state === 'ONLINE' && now;
    }, 'crasher to be restarted');
    expect(back.restartCount).toBe((before.restartCount ?? 0) + 1);
    expect(back.pid).not.toBe(before.pid);
    expect(back.lastCrash?.exitCode).toBe(3);
    await expect(manager.call('crasher', 'ok', {})).resolves.toMatchObject({ ok: true });
  });

  it('times out a hung call with an error naming adapter, method and timeout; the adapter keeps serving', async () => {
    await expect(manager.call('hanger', 'hang', {}, { timeoutMs: 300 })).rejects.toThrow(
      'adapter "hanger" method "hang" did not answer within 300 ms (timed out)',
    );
    await expect(manager.call('hanger', 'ok', {}, { timeoutMs: 10_000 })).resolves.toEqual({ ok: true });
    expect((await item('hanger')).connection?.state).toBe('ONLINE');
  });

  it('reports a blocked adapter OFFLINE and still stops it', async () => {
    await manager.call('hanger', 'ok', {}, { timeoutMs: 10_000 });
    await expect(manager.call('hanger', 'spin', {}, { timeoutMs: 300 })).rejects.toThrow('method "spin" did not answer within 300 ms');
    const blocked = await item('hanger');
    expect(blocked.state).toBe('RUNNING');
    expect(blocked.connection).toEqual({ state: 'OFFLINE', detail: 'no health answer within 500 ms: the adapter process is busy or hung' });
    await manager.stop('hanger');
    const stopped = await item('hanger');
    expect(stopped).toMatchObject({ state: 'STOPPED', pid: null, memoryUsage: null, connection: { state: 'OFFLINE' } });
    expect(stopped.lastCrash).toBeNull();
    await expect(manager.call('hanger', 'ok', {})).rejects.toThrow('adapter "hanger" is not running (STOPPED); method "ok" was not called');
    await manager.start('hanger');
    expect((await item('hanger')).connection?.state).toBe('ONLINE');
  });

  it('says when a declared method is missing from the module', async () => {
    await manager.call('hanger', 'ok', {}, { timeoutMs: 10_000 });
    await expect(manager.call('hanger', 'declaredOnly', {})).rejects.toThrow(
      'adapter "hanger" method "declaredOnly" failed: method "declaredOnly" is not implemented by the adapter module',
    );
    expect((await item('hanger')).detail).toBe('declared but not implemented: declaredOnly');
  });

  it('rejects unknown adapters and methods by name', async () => {
    await expect(manager.call('nope', 'ok', {})).rejects.toThrow('no adapter "nope" (adapters: ');
    await expect(manager.call('crasher', 'explode', {})).rejects.toThrow('adapter "crasher" has no method "explode" (methods: crash, ok)');
  });

  it('stops restarting an adapter that keeps crashing at startup, and keeps why', async () => {
    const dead = await waitFor(async () => {
      const now = await item('boot-crash');
      return now.state === 'DEAD' && now.detail?.startsWith('crashed 3 times in a row') && now;
    }, 'boot-crash to be given up');
    expect(dead.restartCount).toBe(2);
    expect(dead.detail).toBe('crashed 3 times in a row; not restarted again until started from the console');
    expect(dead.lastCrash?.message).toBe('adapter "boot-crash" crashed while starting (exit code 1)');
    expect(dead.lastCrash?.stderr.join('\n')).toContain('cannot connect to inventory.example:443 (ECONNREFUSED)');
    expect(dead.nextRestartAt).toBeUndefined();
    await expect(manager.call('boot-crash', 'ok', {})).rejects.toThrow(/adapter "boot-crash" is not running \(DEAD: crashed 3 times in a row/);
  });

  it('lists a package with a bad manifest as DEAD with the file and field, and refuses to start it', async () => {
    const broken = await item('broken');
    expect(broken.state).toBe('DEAD');
    expect(broken.detail).toContain(path.join('broken-manifest', 'adapter.json'));
    expect(broken.detail).toContain('methods:');
    await expect(manager.start('broken')).rejects.toThrow('adapter "broken" cannot be started');
  });
});
