// A job's secret variables over the API: answered in clear as the service answers them (its clients
// read them), named in `secretVariables` for the job page, and revealed there through jobs.reveal,
// which the console log records (job, names, operator); a name that is not a secret variable is a 400.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { workflow } from '../queue/support';
import { waitFor } from '../../adapters/support';

let dataDir: string;
let host: TestHost;
const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
  const response = await host.api(pathname, init);
  return { status: response.status, body: await response.json() };
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-reveal-'));
  host = await startTestHost({ dataDir });
  const flow = workflow('Log in', { s: { name: 'stub', variables: { incoming: { type: 'success', delay: '', response: 'ok' }, outgoing: { response: null } } } }, [['workflow_start', 's'], ['s', 'workflow_end']]);
  expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a job's secret variables", () => {
  it('are answered in clear, named in secretVariables, and a reveal is logged naming the job, the names and the operator', async () => {
    const variables = { device: 'edge-1', password: 'pw-Planted-1', session: { id: 7, cookie: 'SESSION=abc123' }, url: 'https://op:urlpw-9@h.example/x', note: 'plain text' };
    const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Log in', options: { variables } } });
    expect(started.status).toBe(200);
    const id: string = started.body.data._id;
    const job = await waitFor(async () => {
      const { body } = await api(`/operations-manager/jobs/${id}`);
      return body.data.status === 'complete' && body.data;
    }, 'the job to end');
    expect(job.variables).toMatchObject(variables);
    expect([...job.secretVariables].sort()).toEqual(['password', 'session', 'url']);

    const revealed = await api(`/console/jobs/${id}/reveal`, { method: 'POST', json: { variables: ['password'] } });
    expect(revealed).toMatchObject({ status: 200, body: { data: { _id: id, variables: ['password'] } } });
    const logs = await api(`/logs?job=${id}&limit=50`);
    const line = logs.body.results.find((entry: { msg: string }) => entry.msg.includes('revealed the secret variables'));
    expect(line?.msg).toContain(`password of job ${id}`);
    expect(line?.fields).toMatchObject({ jobId: id, variables: ['password'] });
    // The log never carries the value itself.
    expect(JSON.stringify(logs.body)).not.toContain('pw-Planted-1');

    const plain = await api(`/console/jobs/${id}/reveal`, { method: 'POST', json: { variables: ['device'] } });
    expect(plain.status).toBe(400);
    expect(plain.body.message).toContain('body.variables');
    expect(plain.body.message).toContain('"device"');
    expect((await api(`/console/jobs/${id}/reveal`, { method: 'POST', json: { variables: [] } })).status).toBe(400);
    expect((await api('/console/jobs/no-such-job/reveal', { method: 'POST', json: { variables: ['password'] } })).status).toBe(404);
  });
});
