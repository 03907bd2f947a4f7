// Adapter instances in their own processes, hosted with the service's contract: the test package
// (test/adapters/fixtures/adapter-inventory) in stub mode and against a local HTTP server, inputs
// in pronghorn order with a last callback, error objects kept, crash → DEAD → restarted, timeouts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdapterManager, readAdapterPackage, runnerPath, type AdapterPackage, type ServiceConfig } from '../../core/adapters';
import { INVENTORY, startInventoryServer, waitFor } from './support';

let pkg: AdapterPackage;
let server: Awaited<ReturnType<typeof startInventoryServer>>;
const managers: AdapterManager[] = [];

beforeAll(async () => {
  pkg = (await readAdapterPackage(INVENTORY, 'sdk'))!;
  server = await startInventoryServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function config(id: string, properties: Record<string, unknown>): ServiceConfig {
  return { id, type: 'Inventory', properties, brokers: [], groups: [] };
}

function manager(options: Partial<ConstructorParameters<typeof AdapterManager>[0]> = {}) {
  const m = new AdapterManager({ runner: runnerPath(), backoff: { initialMs: 100, maxMs: 100 }, ...options });
  managers.push(m);
  return m;
}

const live = (extra: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port: server.port, protocol: 'http', healthcheck: { type: 'intermittent', frequency: 200 }, ...extra });

describe('an adapter package in the service format', () => {
  it('is read from pronghorn.json with its methods in call order and its secret pointers', () => {
    expect(pkg).toMatchObject({ name: '@itentialopensource/adapter-inventory', export: 'Inventory', version: '0.3.0', secretPointers: ['/authentication/apiKey'] });
    expect(pkg.methods.find((m) => m.name === 'updateDevice')?.input.map((i) => i.name)).toEqual(['name', 'body']);
  });
});

describe('stub mode', () => {
  it('answers from the package mock data, by response key, and is ONLINE without reaching anything', async () => {
    const m = manager();
    m.set(config('inv-stub', { host: 'unreachable.invalid', port: 1, stub: true }), pkg);
    await m.start('inv-stub');
    const online = await waitFor(async () => {
      const item = await m.item('inv-stub');
      return item.connection?.state === 'ONLINE' && item;
    }, 'the stub adapter to be ONLINE');
    expect(online).toMatchObject({ state: 'RUNNING', stub: true });
    expect(await m.call('inv-stub', 'getDevice', { name: 'anything' })).toEqual({
      ok: true,
      output: 'result',
      value: { status: 'success', code: 200, response: { name: 'mock-device', os: 'mock-os', source: 'mock data' } },
    });
    const router = await m.call('inv-stub', 'getDevice', { name: 'router-1' });
    expect(router.ok && (router.value as { response: { os: string } }).response.os).toBe('ios-xr');
    const none = await m.call('inv-stub', 'argsInOrder', {});
    expect(none.ok).toBe(false);
    expect(!none.ok && none.error).toMatchObject({ icode: 'AD.500', IAPerror: { displayString: 'Error 400 received on request', raw_response: { message: expect.stringMatching(/^no mock data for Devices\/argsInOrder/) } } });
  });
});

describe('a live adapter (its class, against a local HTTP server)', () => {
  it('calls methods with inputs in pronghorn order and a last callback; health checks on its schedule make it ONLINE', async () => {
    const m = manager();
    m.set(config('inv', live()), pkg);
    await m.start('inv');
    await waitFor(async () => (await m.item('inv')).connection?.state === 'ONLINE', 'ONLINE after the health check');
    const checks = server.requests.filter((r) => r === 'GET /health').length;
    await waitFor(() => server.requests.filter((r) => r === 'GET /health').length >= checks + 2, 'intermittent health checks every 200 ms');
    expect((await m.item('inv')).lastHealthCheck).toMatchObject({ ok: true });

    expect(await m.call('inv', 'argsInOrder', { third: { x: 1 }, first: 'a' })).toEqual({ ok: true, output: 'result', value: { first: 'a', third: { x: 1 }, thirdGiven: true } });
    const updated = await m.call('inv', 'updateDevice', { body: { os: 'eos' }, name: 'edge-9' });
    expect(updated).toMatchObject({ ok: true, value: { code: 200, response: { name: 'edge-9', os: 'eos' } } });
    expect(server.devices.get('edge-9')).toEqual({ name: 'edge-9', os: 'eos' });
    const missing = await m.call('inv', 'getDevice', { name: 'nope' });
    expect(missing).toMatchObject({ ok: false, error: { icode: 'AD.500', IAPerror: { code: 404, raw_response: { response: { error: 'no device nope' } } } } });
    expect(m.logs('inv').map((l) => l.message)).toContain(`connecting to http://127.0.0.1:${server.port}`);
  });

  it('refuses a method its pronghorn.json does not declare, naming it', async () => {
    const m = manager();
    m.set(config('inv', live()), pkg);
    await expect(m.call('inv', 'deleteEverything', {})).rejects.toThrow(`adapter "inv" has no method "deleteEverything" in @itentialopensource/adapter-inventory's pronghorn.json`);
  });

  it('fails a call that does not answer within its timeout, naming the adapter and method', async () => {
    const m = manager();
    m.set(config('inv', live()), pkg);
    await m.start('inv');
    await expect(m.call('inv', 'hang', {}, { timeoutMs: 300 })).rejects.toThrow('adapter "inv" method "hang" did not answer within 300 ms (timed out)');
  });

  it('names the whole timeout of a call that first waited for the adapter to be ready', async () => {
    const m = manager();
    m.set(config('inv', live()), pkg);
    const starting = m.start('inv');
    // Called while the process starts: part of the 1,000 ms goes waiting for it to be ready.
    await expect(m.call('inv', 'hang', {}, { timeoutMs: 1000 })).rejects.toThrow('adapter "inv" method "hang" did not answer within 1000 ms (timed out)');
    await starting;
  });

  it('a crash is DEAD with its stderr and exit code, then restarted and ONLINE again', async () => {
    const m = manager();
    m.set(config('inv', live()), pkg);
    await m.start('inv');
    await waitFor(async () => (await m.item('inv')).connection?.state === 'ONLINE', 'ONLINE');
    const pid = (await m.item('inv')).pid;
    await expect(m.call('inv', 'crash', {}, { timeoutMs: 10_000 })).rejects.toThrow('adapter "inv" crashed (exit code 3) while method "crash" was running');
    const dead = await m.item('inv');
    expect(dead).toMatchObject({ state: 'DEAD', connection: { state: 'OFFLINE' }, lastCrash: { exitCode: 3 } });
    expect(dead.lastCrash?.stderr).toContain('about to crash: the inventory sent garbage');
    const back = await waitFor(async () => {
      const item = await m.item('inv');
      return item.state === 'RUNNING' && item.connection?.state === 'ONLINE' && item;
    }, 'the restarted adapter to be ONLINE');
    expect(back.pid).not.toBe(pid);
    expect(back.restartCount).toBe(1);
  });

  it('an instance whose package is missing is DEAD naming why, and cannot be started', async () => {
    const m = manager();
    m.set({ id: 'ghost', type: 'Ghost', properties: {}, brokers: [], groups: [] }, undefined, 'no adapter package exports "Ghost"');
    expect(await m.item('ghost')).toMatchObject({ state: 'DEAD', detail: 'no adapter package exports "Ghost"' });
    await expect(m.start('ghost')).rejects.toThrow('adapter "ghost" cannot be started: no adapter package exports "Ghost"');
  });
});
