// Applications with a lifecycle: stopped and started over the service's routes, what they serve
// stops with them (a stopped OperationsManager refuses job starts with a 503 naming it, a stopped
// WorkFlowEngine's task worker stops), and the operator's choice survives a console restart.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

let dataDir: string;
let host: TestHost;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-apps-'));
  host = await startTestHost({ dataDir });
  const flow = workflow('shout', { u: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: { uppercaseString: '$var.job.r' } } } }, [['workflow_start', 'u'], ['u', 'workflow_end']]);
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
});
afterAll(async () => {
  await host.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) };
}
const app = async (name: string) => (await json(await host.api(`/health/applications/${name}`))).body.results[0];
const startJob = () => host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'shout' } }).then(json);

describe('application lifecycle', () => {
  it('stopping OperationsManager refuses job starts with a 503 naming it, and the choice survives a restart', async () => {
    expect((await startJob()).status).toBe(200);
    const stopped = await json(await host.api('/applications/OperationsManager/stop', { method: 'PUT' }));
    // A stopped application runs no process: 0 for its pid, memory and CPU time, numbers as the
    // vendor MCP server's models require (itential-mcp models/health.py; test/health/api.test.ts).
    expect(stopped).toMatchObject({ status: 200, body: { id: 'OperationsManager', state: 'STOPPED', pid: 0, uptime: 0, prevUptime: 0 } });

    const refused = await startJob();
    expect(refused.status).toBe(503);
    expect(refused.body.message).toContain('OperationsManager is STOPPED');
    expect(refused.body.message).toContain('PUT /applications/OperationsManager/start');
    expect((await app('OperationsManager')).figures).toMatchObject({ refused: 1 });

    await host.close();
    host = await startTestHost({ dataDir });
    expect(await app('OperationsManager')).toMatchObject({ state: 'STOPPED' });
    expect((await startJob()).status).toBe(503);

    const started = await json(await host.api('/applications/OperationsManager/start', { method: 'PUT' }));
    expect(started.body).toMatchObject({ state: 'RUNNING', pid: process.pid });
    expect((await startJob()).status).toBe(200);
  });

  it('stopping WorkFlowEngine stops its task worker; starting it brings the worker back', async () => {
    await host.api('/applications/WorkFlowEngine/stop', { method: 'PUT' });
    expect(await app('WorkFlowEngine')).toMatchObject({ state: 'STOPPED', figures: { taskWorkerRunning: false } });
    expect((await json(await host.api('/workflow_engine/workers/status'))).body.taskWorker.running).toBe(false);
    const restarted = await json(await host.api('/applications/WorkFlowEngine/restart', { method: 'PUT' }));
    expect(restarted.body).toMatchObject({ state: 'RUNNING', figures: { taskWorkerRunning: true } });
  });

  it('answers an unknown application with a 404 naming the known ones', async () => {
    const missing = await json(await host.api('/applications/Nope/start', { method: 'PUT' }));
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('no application "Nope" (applications: WorkFlowEngine, OperationsManager');
  });
});
