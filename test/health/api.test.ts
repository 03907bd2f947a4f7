// The health endpoints over HTTP: applications, adapters, their queries and adapter actions; and
// each item in the fields the vendor MCP server requires of it. The oracle of those: the vendor MCP
// server's pydantic models, itential-mcp models/health.py (ApplicationInfo, AdapterInfo and the
// nested MemoryUsage, CpuUsage, LoggerConfig, ConnectionInfo), copied in test/support/mcp-health.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthQuery } from '../../core/contract/health';
import { startTestHost, type TestHost } from '../support/host';
import { mcpIssues, McpAdapterInfo, McpApplicationInfo, McpHealthResponse } from '../support/mcp-health';
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

type Item = Record<string, unknown> & { memoryUsage: Record<string, number>; cpuUsage: Record<string, number>; logger: Record<string, unknown> };
const isWhole = (value: unknown) => Number.isInteger(value);

/** Field by field, what the MCP models require of every application and adapter item (models/health.py). */
function expectMcpFields(item: Item) {
  for (const field of ['id', 'package_id', 'version', 'description', 'routePrefix']) expect(typeof item[field], field).toBe('string');
  expect(['RUNNING', 'STOPPED', 'DEAD', 'DELETED']).toContain(item.state);
  expect(typeof item.uptime).toBe('number');
  // prevUptime: a required float; the uptime of the reading before, never above the uptime.
  expect(typeof item.prevUptime).toBe('number');
  expect(item.prevUptime as number).toBeLessThanOrEqual(item.uptime as number);
  // MemoryUsage: rss, heapTotal, heapUsed, external and arrayBuffers, each a required int.
  for (const field of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) expect(isWhole(item.memoryUsage[field]), `memoryUsage.${field}`).toBe(true);
  // CpuUsage: user and system, required ints.
  for (const field of ['user', 'system']) expect(isWhole(item.cpuUsage[field]), `cpuUsage.${field}`).toBe(true);
  expect(isWhole(item.pid), 'pid').toBe(true);
  // LoggerConfig: console and file strings, syslog a string or a dict.
  expect(item.logger).toMatchObject({ console: expect.any(String), file: expect.any(String) });
  expect(typeof item.logger.syslog === 'string' || (typeof item.logger.syslog === 'object' && item.logger.syslog !== null)).toBe(true);
  expect(isWhole(item.timestamp), 'timestamp').toBe(true);
}

/** What the service reports of an item whose process does not run: 0 for each figure, not null. */
const NOT_RUNNING = {
  uptime: 0,
  prevUptime: 0,
  memoryUsage: { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 },
  cpuUsage: { user: 0, system: 0 },
  pid: 0,
};

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

  it('answers every field the MCP models require of a running application, prevUptime the uptime of the reading before', async () => {
    const first = (await get('/health/applications/WorkFlowEngine')).body.results[0];
    const running = (await get('/health/applications/WorkFlowEngine')).body.results[0];
    expectMcpFields(running);
    expect(mcpIssues(McpApplicationInfo, running)).toEqual([]);
    expect(running).toMatchObject({ type: 'Application', state: 'RUNNING', pid: process.pid });
    expect(running.memoryUsage.rss).toBeGreaterThan(0);
    expect(running.prevUptime).toBe(first.uptime);
    expect(running.uptime).toBeGreaterThan(running.prevUptime);
  });

  it('answers every field the MCP models require of a stopped application: 0s where no process runs', async () => {
    expect((await host.api('/applications/MOP/stop', { method: 'PUT' })).status).toBe(200);
    let stopped: Item;
    try {
      stopped = (await get('/health/applications/MOP')).body.results[0];
    } finally {
      // Started again, the answer is the first reading of a new run: prevUptime 0, its start.
      const started = await (await host.api('/applications/MOP/start', { method: 'PUT' })).json();
      expect(started).toMatchObject({ state: 'RUNNING', prevUptime: 0, pid: process.pid });
    }
    expectMcpFields(stopped);
    expect(mcpIssues(McpApplicationInfo, stopped)).toEqual([]);
    expect(stopped).toMatchObject({ state: 'STOPPED', ...NOT_RUNNING });
  });

  it("pages 25 items unless asked, the service's default limit of GET /health/applications and /health/adapters", () => {
    // The service's API reference of both routes: `limit` (integer, default 25); the MCP server's
    // get_applications and get_adapters send no limit, and read the first page as the service gives it.
    expect(HealthQuery.parse({})).toMatchObject({ skip: 0, limit: 25, sort: 'name', order: 1 });
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

/** What the MCP server's get_health tool assembles (itential-mcp tools/health.py): the five answers, the lists' `results`. */
async function mcpGetHealth() {
  const [status, system, server, applications, adapters] = await Promise.all(
    ['/health/status', '/health/system', '/health/server', '/health/applications', '/health/adapters'].map(async (pathname) => (await get(pathname)).body),
  );
  return { status, system, server, applications: applications.results, adapters: adapters.results };
}

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
    // Each adapter as the MCP models require it: AdapterInfo (connection required, with its state).
    for (const item of body.results) {
      expectMcpFields(item);
      expect(item.connection).toMatchObject({ state: expect.any(String) });
      expect(mcpIssues(McpAdapterInfo, item)).toEqual([]);
    }
    expect(example.memoryUsage.arrayBuffers).toBeGreaterThanOrEqual(0);
    // Unconfigured, the HTTP adapter can reach nothing: unhealthy, and its health check says why.
    expect(http.connection.state).toBe('OFFLINE');
    expect(http.lastHealthCheck).toMatchObject({ ok: false, detail: expect.stringContaining('allowedBaseUrls') });
    const offline = await get('/health/adapters?equals=OFFLINE&equalsField=connection');
    expect(ids(offline.body)).toEqual(['http-request']);
  });

  it('stops, starts and restarts an adapter', async () => {
    const stop = await host.api('/adapters/example/stop', { method: 'PUT' });
    expect(stop.status).toBe(200);
    expect(await stop.json()).toMatchObject({ id: 'example', state: 'STOPPED', connection: { state: 'OFFLINE' }, ...NOT_RUNNING });
    // A stopped adapter, as the MCP models require it: numbers where its process would report them.
    const stopped = (await get('/health/adapters/example')).body.results[0];
    expectMcpFields(stopped);
    expect(mcpIssues(McpAdapterInfo, stopped)).toEqual([]);
    expect(stopped).toMatchObject({ state: 'STOPPED', connection: { state: 'OFFLINE' }, ...NOT_RUNNING });
    // get_health reads the five routes as they are (no query) and validates them together.
    expect(mcpIssues(McpHealthResponse, await mcpGetHealth())).toEqual([]);

    await host.api('/adapters/example/start', { method: 'PUT' });
    const started = await waitFor(async () => {
      const item = (await get('/health/adapters/example')).body.results[0];
      return item.connection.state === 'ONLINE' && item;
    }, 'example ONLINE');
    expect(started.state).toBe('RUNNING');
    expect(mcpIssues(McpHealthResponse, await mcpGetHealth())).toEqual([]);

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
