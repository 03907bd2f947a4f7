// The server facts in the service's shapes, as its clients read them: GET /health/server (the
// vendor's GitHub Actions read `release` to pick their routes), GET /health/system, and the fields
// of GET /health/status that its MCP server and health assessor require. The oracle of the MCP
// server's requirements: the vendor MCP server's pydantic models, itential-mcp models/health.py
// (PlatformStatus, SystemInfo, ServerInfo with ServerVersions), copied in test/support/mcp-health.ts.
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { mcpIssues, McpPlatformStatus, McpServerInfo, McpSystemInfo } from '../support/mcp-health';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.dispose());

const get = async (pathname: string) => {
  const response = await host.api(pathname);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('GET /health/server', () => {
  it('answers release 2022.1 and the process facts the service answers', async () => {
    const { status, body } = await get('/health/server');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      release: '2022.1',
      version: '2022.1.0',
      arch: process.arch,
      platform: process.platform,
      pid: process.pid,
      versions: { node: process.versions.node, v8: process.versions.v8, uv: process.versions.uv, openssl: process.versions.openssl },
      memoryUsage: { rss: expect.any(Number), heapTotal: expect.any(Number), heapUsed: expect.any(Number), external: expect.any(Number), arrayBuffers: expect.any(Number) },
      cpuUsage: { user: expect.any(Number), system: expect.any(Number) },
      dependencies: { '@itential/app-workflow_engine': '2022.1.0', '@itential/app-operations_manager': '2022.1.0' },
    });
    expect(body.uptime).toBeGreaterThan(0);
    expect((body.memoryUsage as { heapUsed: number }).heapUsed).toBeGreaterThan(0);
  });

  it("reads as the vendor's GitHub Action reads it: the release before its last dot is above 2021.1", async () => {
    const { body } = await get('/health/server');
    const release = String(body.release);
    // itential-automation-start / -get-status: release.substring(0, release.lastIndexOf('.')), then Number(...) <= 2021.1 picks the old routes.
    expect(Number(release.substring(0, release.lastIndexOf('.')))).toBeGreaterThan(2021.1);
  });

  it('the uptime grows between two calls', async () => {
    const first = Number((await get('/health/server')).body.uptime);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Number((await get('/health/server')).body.uptime)).toBeGreaterThan(first);
  });
});

describe('GET /health/system', () => {
  it("answers the machine's facts in the service's fields", async () => {
    const { status, body } = await get('/health/system');
    expect(status).toBe(200);
    expect(body).toMatchObject({ arch: os.arch(), release: os.release(), totalmem: os.totalmem() });
    expect(body.uptime).toBeGreaterThan(0);
    expect(body.freemem).toBeGreaterThan(0);
    expect(body.loadavg).toHaveLength(3);
    const cpus = body.cpus as { model: string; speed: number; times: Record<string, number> }[];
    expect(cpus).toHaveLength(os.cpus().length);
    expect(Object.keys(cpus[0]?.times ?? {}).sort()).toEqual(['idle', 'irq', 'nice', 'sys', 'user']);
  });
});

describe('GET /health/status', () => {
  it('has the fields the service answers, and the console’s own after them', async () => {
    const before = Date.now();
    const { status, body } = await get('/health/status');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      host: os.hostname(),
      serverId: expect.any(String),
      serverName: expect.any(String),
      services: [{ service: 'embedded-store', status: 'running' }],
      apps: 'running',
      adapters: 'running',
      release: '2022.1',
      store: 'embedded',
      taskWorker: { running: true },
    });
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('apps is degraded while an application is stopped, and running again once it starts', async () => {
    expect((await host.api('/applications/MOP/stop', { method: 'PUT' })).status).toBe(200);
    expect((await get('/health/status')).body.apps).toBe('degraded');
    expect((await host.api('/applications/MOP/start', { method: 'PUT' })).status).toBe(200);
    expect((await get('/health/status')).body.apps).toBe('running');
  });
});

describe('as the vendor MCP server validates them (get_health)', () => {
  it('GET /health/status, /health/system and /health/server pass its models', async () => {
    expect(mcpIssues(McpPlatformStatus, (await get('/health/status')).body)).toEqual([]);
    expect(mcpIssues(McpSystemInfo, (await get('/health/system')).body)).toEqual([]);
    expect(mcpIssues(McpServerInfo, (await get('/health/server')).body)).toEqual([]);
  });

  it("answers versions.cjs_module_lexer, which ServerVersions requires, naming the CommonJS lexer this Node has", async () => {
    const versions = (await get('/health/server')).body.versions as Record<string, string>;
    // Node reports cjs_module_lexer up to its replacement by merve (nodejs/node#61456), then merve.
    const expected = process.versions.cjs_module_lexer ?? `merve ${process.versions.merve}`;
    expect(versions.cjs_module_lexer).toBe(expected);
    if (process.versions.merve) expect(versions.merve).toBe(process.versions.merve);
  });
});
