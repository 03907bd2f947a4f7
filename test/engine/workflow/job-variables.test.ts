// The job's own variables: the service supplies `_id` (the job's id) and `initiator` to
// every job it starts, so a workflow's inputSchema may require `_id` (34 of 180 real
// workflows do) and `$var.job._id` reads it, for a job started over the API and for a
// child job alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobStartVariables } from '../../../core/engine/workflow/job-variables';
import { startTestHost, type TestHost } from '../../support/host';
import { waitFor, workflow } from '../queue/support';

// As real exports write it (the F5 BIG-IQ workflows): `_id` required, titled job_id.
const needsJobId = workflow(
  'Needs its job id',
  { remember: { name: 'newVariable', variables: { incoming: { name: 'seenId', value: '$var.job._id' }, outgoing: { value: null } } } },
  [['workflow_start', 'remember'], ['remember', 'workflow_end']],
  {
    inputSchema: {
      type: 'object',
      properties: { _id: { title: 'job_id', type: 'string', examples: ['test'] }, name: { type: 'string' } },
      required: ['_id', 'name'],
    },
  },
);

const parent = workflow(
  'Starts a child that needs its job id',
  { child: { name: 'childJob', type: 'operation', variables: { incoming: { task: '', workflow: 'Needs its job id', variables: { name: 'kid' } }, outgoing: { job_details: null } } } },
  [['workflow_start', 'child'], ['child', 'workflow_end']],
);

interface Answer {
  message: string;
  data: { _id: string; status: string; variables: Record<string, unknown>; children?: (string | { _id?: string; id?: string })[] };
}

async function json(response: Response): Promise<{ status: number; body: Answer }> {
  return { status: response.status, body: (await response.json()) as Answer };
}

describe("the job's own variables", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
    for (const wf of [needsJobId, parent]) expect((await host.api('/workflows', { method: 'POST', json: wf })).status).toBe(201);
  });
  afterAll(() => host?.dispose());

  const start = (body: unknown) => host.api('/operations-manager/jobs/start', { method: 'POST', json: body }).then(json);
  const get = (id: string) => host.api(`/operations-manager/jobs/${id}`).then(json);
  const done = (id: string) =>
    waitFor(`job ${id} to end`, async () => {
      const { body } = await get(id);
      return ['complete', 'error', 'canceled'].includes(body.data.status) && body.data;
    });

  it('starts over the API a workflow whose inputSchema requires _id, and $var.job._id reads the job id', async () => {
    const started = await start({ workflow: 'Needs its job id', options: { variables: { name: 'r1' } } });
    expect(started.status).toBe(200);
    const job = await done(started.body.data._id);
    expect(job.status).toBe('complete');
    expect(job.variables.seenId).toBe(started.body.data._id);
  });

  it('the job id wins over an _id the caller gives', async () => {
    const started = await start({ workflow: 'Needs its job id', options: { variables: { name: 'r1', _id: 'test' } } });
    expect(started.status).toBe(200);
    const job = await done(started.body.data._id);
    expect(job.variables.seenId).toBe(started.body.data._id);
  });

  it('still refuses a start that lacks a variable the caller must give, naming it', async () => {
    const refused = await start({ workflow: 'Needs its job id', options: { variables: {} } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('variables.name is required');
    expect(refused.body.message).not.toContain('_id');
  });

  it('runs it as a child job: the child gets its own id as _id', async () => {
    const started = await start({ workflow: 'Starts a child that needs its job id', options: { variables: {} } });
    expect(started.status).toBe(200);
    const job = await done(started.body.data._id);
    expect(job.status).toBe('complete');
    const childIds = (job.children ?? []).map((c) => (typeof c === 'string' ? c : (c._id ?? c.id ?? '')));
    expect(childIds).toHaveLength(1);
    const child = await done(childIds[0]!);
    expect(child.status).toBe('complete');
    expect(child.variables.seenId).toBe(childIds[0]);
    expect(child.variables.seenId).not.toBe(job._id);
  });
});

describe('jobStartVariables', () => {
  it('adds _id and initiator over the given variables, keeping the rest', () => {
    expect(jobStartVariables({ name: 'r1', _id: 'given' }, { id: 'j1', initiator: 'admin' })).toEqual({ name: 'r1', _id: 'j1', initiator: 'admin' });
  });
});
