// The health endpoints over HTTP: applications, adapters, their queries and adapter actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { waitFor } from '../adapters/support';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

async function get(pathname: string) {
  const response = await host.api(pathname);
  return { status: response.status, body: await response.json() };
}

const ids = (body: { results: { id: string }[] }) => body.results.map((item) => item.id);

describe('GET /health/applications', () => {
  it('lists the built-in applications, each with its own uptime and cpu, in the console process', async () => {
    const { status, body } = await get('/health/applications');
    expect(status).toBe(200);
    expect(body.total).toBe(7);
    expect(ids(body)).toEqual(['AdminEssentials', 'AutomationCatalog', 'JsonForms', 'MOP', 'OperationsManager', 'ServiceCatalog', 'WorkFlowEngine']);
    const engine = body.results.find((item: { id: string }) => item.id === 'WorkFlowEngine');
    expect(engine).toMatchObject({
      package_id: '@itential/app-workflow_engine',
      type: 'Application',
      routePrefix: 'workflow_engine',
      state: 'RUNNING',
      pid: process.pid,
      logger: expect.any(Object),
      timestamp: expect.any(Number),
    });
    expect(engine.uptime).toBeGreaterThan(0);
    expect(engine.memoryUsage.heapUsed).toBeGreaterThan(0);
    expect(engine.cpuUsage.user).toBeGreaterThanOrEqual(0);
    expect(engine.figures).toMatchObject({ taskWorkerRunning: true });
    const later = (await get('/health/applications/WorkFlowEngine')).body.results[0];
    expect(later.uptime).toBeGreaterThan(engine.uptime);
  });

  it('filters, sorts and pages', async () => {
    expect(ids((await get('/health/applications?contains=flow')).body)).toEqual(['WorkFlowEngine']);
    expect(ids((await get('/health/applications?equals=mop&equalsField=routePrefix')).body)).toEqual(['MOP']);
    expect(ids((await get('/health/applications?equals=mop')).body)).toEqual([]);
    expect(ids((await get('/health/applications?startsWith=%40itential%2Fapp-s&startsWithField=package_id')).body)).toEqual(['ServiceCatalog']);
    expect(ids((await get('/health/applications?sort=routePrefix&order=-1')).body)).toEqual([
      'WorkFlowEngine', 'ServiceCatalog', 'OperationsManager', 'MOP', 'JsonForms', 'AutomationCatalog', 'AdminEssentials',
    ]);
    const page = (await get('/health/applications?skip=1&limit=2')).body;
    expect(ids(page)).toEqual(['AutomationCatalog', 'JsonForms']);
    expect(page.total).toBe(7);
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=abc', 'query.limit'],
    ['skip=-1', 'query.skip'],
    ['order=2', 'query.order'],
    ['sort=color', 'query.sort'],
    ['containsField=color&contains=x', 'query.containsField'],
    ['equalsField=state', 'query.equalsField'],
  ])('answers %s with a 400 naming %s', async (search, parameter) => {
    const { status, body } = await get(`/health/applications?${search}`);
    expect(status).toBe(400);
    expect(body.message).toContain(parameter);
    expect(body.issues.map((issue: { path: string }) => issue.path)).toContain(parameter);
  });

  it('answers one application by name, and a 404 naming an unknown one', async () => {
    const { body } = await get('/health/applications/MOP');
    expect(body).toMatchObject({ total: 1, results: [{ id: 'MOP', state: 'RUNNING' }] });
    const missing = await get('/health/applications/Nope');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('no application "Nope"');
  });
});

describe('GET /health/adapters and adapter actions', () => {
  const create = async (pkg: string, name: string) => {
    const sample = (await get(`/adapter-packages/sample?package=${encodeURIComponent(pkg)}&name=${name}`)).body;
    const response = await host.api('/adapters', { method: 'POST', json: { properties: sample.data } });
    expect(response.status).toBe(200);
  };

  it('lists the instances of the shipped adapters, each with the pid and figures of its own process', async () => {
    await create('@automation/adapter-example', 'example');
    await create('@automation/adapter-http_request', 'http-request');
    const body = await waitFor(async () => {
      const { body } = await get('/health/adapters');
      const [example, http] = body.results;
      return example?.connection.state === 'ONLINE' && http?.lastHealthCheck && body;
    }, 'adapters to start');
    expect(ids(body)).toEqual(['example', 'http-request']);
    const [example, http] = body.results;
    expect(example).toMatchObject({ type: 'Adapter', state: 'RUNNING', stub: false, connection: { state: 'ONLINE' }, restartCount: 0, lastCrash: null, source: 'shipped' });
    expect(example.pid).not.toBe(process.pid);
    expect(example.memoryUsage.rss).toBeGreaterThan(0);
    // Unconfigured, the HTTP adapter can reach nothing: unhealthy, and its health check says why.
    expect(http.connection.state).toBe('OFFLINE');
    expect(http.lastHealthCheck).toMatchObject({ ok: false, detail: expect.stringContaining('allowedBaseUrls') });
    const offline = await get('/health/adapters?equals=OFFLINE&equalsField=connection');
    expect(ids(offline.body)).toEqual(['http-request']);
  });

  it('stops, starts and restarts an adapter', async () => {
    const stop = await host.api('/adapters/example/stop', { method: 'PUT' });
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({ id: 'example', state: 'STOPPED', pid: null, connection: { state: 'OFFLINE' } });
    expect((await get('/health/adapters/example')).body.results[0].state).toBe('STOPPED');

    await host.api('/adapters/example/start', { method: 'PUT' });
    const started = await waitFor(async () => {
      const item = (await get('/health/adapters/example')).body.results[0];
      return item.connection.state === 'ONLINE' && item;
    }, 'example ONLINE');
    expect(started.state).toBe('RUNNING');

    const restart = await host.api('/adapters/example/restart', { method: 'PUT' });
    const restarted = await restart.json();
    expect(restarted.state).toBe('RUNNING');
    expect(restarted.pid).not.toBe(started.pid);
  });

  it('answers unknown adapters with a 404 naming them', async () => {
    const response = await host.api('/adapters/nope/start', { method: 'PUT' });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('no adapter "nope" (adapters: example, http-request)');
    expect((await get('/health/adapters/nope')).status).toBe(404);
  });

  it('lists the methods an adapter declares in its pronghorn.json', async () => {
    const { body } = await get('/adapters/http-request');
    expect(body.methods.map((m: { name: string }) => m.name)).toEqual(['get', 'post']);
    expect(body.methods[0].input.map((i: { name: string }) => i.name)).toEqual(['url', 'headers', 'query']);
  });

  it('lets the workflow engine call adapter methods through the runtime', async () => {
    await waitFor(async () => (await get('/health/adapters/example')).body.results[0].connection.state === 'ONLINE', 'example ONLINE');
    await expect(host.state.runtime.adapters.call('example', 'add', { b: 3, a: 2 }, { timeoutMs: 10_000 })).resolves.toEqual({ ok: true, output: 'result', value: { sum: 5 } });
    expect(host.state.runtime.adapters.methods('example')).toEqual(['echo', 'add', 'setConnection']);
  });
});
