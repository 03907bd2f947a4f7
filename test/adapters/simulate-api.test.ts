// POST /adapters/simulate over HTTP: bad requests named, a simulated instance answering a job
// (its task run and the job marked simulated, the answer its rule's), its rules checked when
// saved, and a profile that does not let jobs use simulated adapters refusing the call by name.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { waitFor } from './support';

const flow = workflow(
  'Check a device',
  { get: { name: 'getDevice', app: 'Inventory', variables: { incoming: { name: '$var.job.device', adapter_id: 'inv-east' }, outgoing: { result: '$var.job.device_info' } } } },
  [['workflow_start', 'get'], ['get', 'workflow_end']],
);

async function rehearsal(allowJobs: boolean | undefined) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-simulate-'));
  await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true, ...(allowJobs === undefined ? {} : { simulationProps: { allowJobs } }) });
  const host = await startTestHost({ dataDir });
  const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
    const response = await host.api(pathname, init);
    return { status: response.status, body: await response.json() };
  };
  const runJob = async () => {
    const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Check a device', options: { variables: { device: 'edge-1' } } } });
    expect(started.status).toBe(200);
    return waitFor(async () => {
      const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
      return ['complete', 'error'].includes(body.data.status) && body.data;
    }, 'the job to end');
  };
  expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  return { host, api, runJob, close: async () => (await host.close(), await rm(dataDir, { recursive: true, force: true })) };
}

describe('simulated adapter instances over HTTP', () => {
  let lab: Awaited<ReturnType<typeof rehearsal>>;
  beforeAll(async () => {
    lab = await rehearsal(undefined);
  });
  afterAll(() => lab?.close());

  it('names what is wrong with a request', async () => {
    expect((await lab.api('/adapters/simulate', { method: 'POST', json: {} })).status).toBe(400);
    const unknown = await lab.api('/adapters/simulate', { method: 'POST', json: { workflows: ['No such workflow'] } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('No such workflow');
  });

  it('makes the instance the task names, which answers the job, marked simulated', async () => {
    const made = await lab.api('/adapters/simulate', { method: 'POST', json: { workflows: ['Check a device'] } });
    expect(made.status).toBe(200);
    expect(made.body.results).toEqual([{ id: 'inv-east', type: 'Inventory', mode: 'simulated', methods: ['getDevice'], workflows: ['Check a device'], status: 'created' }]);
    expect((await lab.api('/adapters/simulate', { method: 'POST', json: { all: true } })).body.results).toEqual([]);
    const health = (await lab.api('/health/adapters/inv-east')).body.results[0];
    expect(health).toMatchObject({ state: 'RUNNING', simulated: true });

    const job = await lab.runJob();
    expect(job.status).toBe('complete');
    expect(job.simulated).toBe(true);
    expect(job.taskRuns.find((t: { taskId: string }) => t.taskId === 'get')).toMatchObject({ simulated: 'inv-east', outgoing: { result: { status: 'success', code: 200, response: {} } } });
    const list = await lab.api('/operations-manager/jobs');
    expect(list.body.data.find((j: { _id: string }) => j._id === job._id).simulated).toBe(true);
  });

  it('answers by the rules saved in its service config, and names a bad rule', async () => {
    const config = (await lab.api('/adapters/inv-east/export')).body;
    const bad = await lab.api('/adapters/inv-east/properties', { method: 'PUT', json: { properties: { ...config, simulation: { methods: { getDevice: { rules: [{ share: 3 }] } } } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('simulation.methods.getDevice.rules.0.share');
    const rules = [{ match: { name: 'edge-1' }, error: 'device unreachable' }];
    expect((await lab.api('/adapters/inv-east/properties', { method: 'PUT', json: { properties: { ...config, simulation: { methods: { getDevice: { rules } } } } } })).status).toBe(200);
    const job = await lab.runJob();
    expect(job.status).toBe('error');
    // The service's array: the task that failed, and the adapter's error object as the simulated instance answered it.
    expect(job.error).toEqual([{ task: expect.any(String), message: { icode: 'AD.500', IAPerror: expect.objectContaining({ displayString: 'device unreachable' }) }, timestamp: expect.any(Number) }]);
  });
});

describe('a profile that does not let jobs use simulated adapters', () => {
  it('refuses the call, naming the setting', async () => {
    const lab = await rehearsal(false);
    try {
      expect((await lab.api('/adapters/simulate', { method: 'POST', json: { all: true } })).status).toBe(200);
      const job = await lab.runJob();
      expect(job.status).toBe('error');
      expect(job.error).toEqual([expect.objectContaining({ message: expect.stringContaining('simulationProps.allowJobs') })]);
    } finally {
      await lab.close();
    }
  });
});

describe('simulated instances across a restart', () => {
  it('are kept in the profile and answer again after the console restarts', async () => {
    const lab = await rehearsal(undefined);
    const dataDir = lab.host.dataDir;
    try {
      expect((await lab.api('/adapters/simulate', { method: 'POST', json: { all: true } })).body.total).toBe(1);
      await lab.host.close();
      const again = await startTestHost({ dataDir });
      try {
        const health = await (await again.api('/health/adapters/inv-east')).json();
        expect(health.results[0]).toMatchObject({ state: 'RUNNING', simulated: true });
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
