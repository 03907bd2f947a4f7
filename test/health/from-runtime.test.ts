// Health reports what runs, not constants: the log levels the active profile's loggerProps set
// (per application and adapter), the store as the service it is, and the job worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

describe('health values from what runs', () => {
  let host: TestHost;
  const get = async (path: string) => (await host.api(path)).json();
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host?.dispose());

  it('reports the log levels of the active profile, and follows an edit of its loggerProps', async () => {
    expect((await get('/health/applications/WorkFlowEngine')).results[0].logger).toEqual({ console: 'warn', file: 'info', syslog: {} });
    const { profile } = await get('/profiles/default');
    const loggerProps = { log_level: 'debug', console_level: 'error', log_filename: 'pronghorn.log', syslog: { level: 'warning', host: '127.0.0.1' } };
    const saved = await host.api('/profiles/default', { method: 'PUT', json: { ...profile, loggerProps } });
    expect(saved.status).toBe(200);
    const expected = { console: 'error', file: 'debug', syslog: { level: 'warning', host: '127.0.0.1' } };
    expect((await get('/health/applications')).results.map((a: { logger: unknown }) => a.logger)).toEqual(Array(7).fill(expected));
    // An adapter instance without its own loggerProps reports the console's levels too.
    const sample = await get('/adapter-packages/sample?package=%40automation%2Fadapter-example&name=example');
    expect((await host.api('/adapters', { method: 'POST', json: { properties: sample.data } })).status).toBe(200);
    expect((await get('/health/adapters/example')).results[0].logger).toEqual(expected);
    expect((await get('/logs')).file).toMatch(/logs[\\/]pronghorn\.log$/);
  });

  it('reports the embedded store as itself, with the running release', async () => {
    const status = await get('/health/status');
    expect(status.release).toBe('2022.1');
    expect(status.services).toEqual([{ service: 'embedded-store', status: 'running', detail: expect.stringContaining('embedded store in') }]);
  });

  it('reports the job worker as started with the engine, and stopped once it closes', async () => {
    expect((await get('/workflow_engine/workers/status')).jobWorker).toEqual({ running: true, clusterValue: 'not defined', localValue: 'not defined', startupValue: true });
    const engine = host.state.runtime.engine;
    await engine.close();
    expect((await engine.status()).jobWorker).toEqual({ running: false, clusterValue: 'not defined', localValue: 'not defined', startupValue: true });
  });
});
