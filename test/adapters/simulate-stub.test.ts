// Simulate that puts an installed package in its own stub mode: the instance answers mock data, not
// a live system, so it counts as simulated. A profile that does not let jobs use simulated adapters
// (simulationProps.allowJobs) refuses its calls by name; one that does marks the job and the task run.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { INVENTORY, waitFor } from './support';

const flow = workflow(
  'Check a device',
  { get: { name: 'getDevice', app: 'Inventory', variables: { incoming: { name: '$var.job.device', adapter_id: 'inv-east' }, outgoing: { result: '$var.job.device_info' } } } },
  [['workflow_start', 'get'], ['get', 'workflow_end']],
);

async function lab(allowJobs: boolean | undefined) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-simulate-stub-'));
  await mkdir(path.join(dataDir, 'adapters'), { recursive: true });
  await symlink(INVENTORY, path.join(dataDir, 'adapters', 'adapter-inventory'));
  await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true, ...(allowJobs === undefined ? {} : { simulationProps: { allowJobs } }) });
  const host = await startTestHost({ dataDir });
  const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
    const response = await host.api(pathname, init);
    return { status: response.status, body: await response.json() };
  };
  expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const made = await api('/adapters/simulate', { method: 'POST', json: { workflows: ['Check a device'] } });
  expect(made.status).toBe(200);
  expect(made.body.results).toEqual([expect.objectContaining({ id: 'inv-east', mode: 'stub', status: 'created' })]);
  await waitFor(async () => (await api('/health/adapters/inv-east')).body.results?.[0]?.state === 'RUNNING', 'the stub instance to run');
  const runJob = async () => {
    const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Check a device', options: { variables: { device: 'edge-1' } } } });
    expect(started.status).toBe(200);
    return waitFor(async () => {
      const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
      return ['complete', 'error'].includes(body.data.status) && body.data;
    }, 'the job to end');
  };
  return { api, runJob, close: async () => (await host.close(), await rm(dataDir, { recursive: true, force: true })) };
}

describe('an instance Simulate put in its package stub mode', () => {
  it('is refused to jobs by a profile that does not let them use simulated adapters, naming the setting and the stub mode', async () => {
    const l = await lab(false);
    try {
      const job = await l.runJob();
      expect(job.status).toBe('error');
      expect(job.error).toEqual([expect.objectContaining({ message: expect.stringMatching(/simulationProps\.allowJobs.*stub mode|stub mode.*simulationProps\.allowJobs/) })]);
    } finally {
      await l.close();
    }
  });

  it('answers a job of a profile that allows it, the job and its task run marked simulated', async () => {
    const l = await lab(true);
    try {
      const job = await l.runJob();
      expect(job.status).toBe('complete');
      expect(job.simulated).toBe(true);
      expect(job.taskRuns.find((t: { taskId: string }) => t.taskId === 'get')).toMatchObject({ simulated: 'inv-east' });
      const list = await l.api('/operations-manager/jobs');
      expect(list.body.data.find((j: { _id: string }) => j._id === job._id).simulated).toBe(true);
    } finally {
      await l.close();
    }
  });
});
