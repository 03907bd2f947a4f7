// A trigger-started job runs like any other: an endpoint trigger's job whose adapter task a
// simulated instance answers completes, marked simulated, as a job started by jobs/start does.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { waitFor } from '../adapters/support';

let host: TestHost;
let dataDir: string;
const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
  const response = await host.api(pathname, init);
  return { status: response.status, body: await response.json() };
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-automations-'));
  await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true });
  host = await startTestHost({ dataDir });
});
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('an endpoint trigger starts a job that a simulated adapter instance answers, marked simulated', async () => {
  const flow = workflow(
    'Check a device',
    { get: { name: 'getDevice', app: 'Inventory', variables: { incoming: { name: '$var.job.device', adapter_id: 'inv-east' }, outgoing: { result: '$var.job.device_info' } } } },
    [['workflow_start', 'get'], ['get', 'workflow_end']],
  );
  expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  expect((await api('/adapters/simulate', { method: 'POST', json: { workflows: ['Check a device'] } })).status).toBe(200);
  const automation = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'Device check', componentName: 'Check a device' } })).body.data;
  expect((await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Alert', type: 'endpoint', routeName: 'device-alert', actionId: automation._id } })).status).toBe(200);

  const started = await api('/operations-manager/triggers/endpoint/device-alert', { method: 'POST', json: { device: 'edge-1' } });
  expect(started.status).toBe(200);
  const job = await waitFor(async () => {
    const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
    return ['complete', 'error'].includes(body.data.status) && body.data;
  }, 'the job to end');
  expect(job.status).toBe('complete');
  expect(job.simulated).toBe(true);
  expect(job.taskRuns.find((t: { taskId: string }) => t.taskId === 'get')).toMatchObject({ simulated: 'inv-east' });
});
