// The job and worker operations over HTTP, on a real host.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../../core/files/atomic';
import { propertiesFile } from '../../../core/profiles/directory';
import { startTestHost, type TestHost } from '../../support/host';
import { waitFor, workflow } from '../queue/support';

const manualFlow = workflow(
  'approve-change',
  {
    ask: { name: 'approve', type: 'manual', variables: { incoming: { change: '$var.job.change' }, outgoing: { decision: '$var.job.decision' } } },
    shout: { name: 'toUpperCase', variables: { incoming: { str: '$var.ask.decision' }, outgoing: { uppercaseString: '$var.job.loud' } } },
  },
  [['workflow_start', 'ask'], ['ask', 'shout'], ['shout', 'workflow_end']],
  { inputSchema: { type: 'object', required: ['change'], properties: { change: { type: 'string' } } } },
);

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) };
}

describe('jobs over HTTP', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
    expect((await host.api('/workflows', { method: 'POST', json: manualFlow })).status).toBeLessThan(300);
  });
  afterAll(() => host.dispose());

  const start = (body: unknown) => host.api('/operations-manager/jobs/start', { method: 'POST', json: body }).then(json);
  const get = (id: string) => host.api(`/operations-manager/jobs/${id}`).then(json);

  it('GET /operations-manager/large-data/:id: a 400 naming the id that is not 24 hex digits, a 404 naming one no job_data holds', async () => {
    const bad = await host.api('/operations-manager/large-data/not-an-id').then(json);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('params.id');
    const unknown = await host.api(`/operations-manager/large-data/${'b'.repeat(24)}`).then(json);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('b'.repeat(24));
  });

  it('starts a job (reference shape), runs it to a manual task, and finishes it with the operator values', async () => {
    const started = await start({ workflow: 'approve-change', options: { description: 'CR-1', variables: { change: 'CR-1', note: null } } });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ message: expect.any(String), data: { _id: expect.any(String), status: 'running' } });
    const id = started.body.data._id;

    const waiting = await waitFor('the manual task', async () => {
      const { body } = await get(id);
      return body.data.taskRuns.find((t: any) => t.taskId === 'ask' && t.status === 'waiting') && body.data;
    });
    expect(waiting).toMatchObject({ _id: id, name: 'approve-change', description: 'CR-1', status: 'running', variables: { change: 'CR-1', note: null } });
    expect(waiting.tasks.ask).toMatchObject({ name: 'approve', type: 'manual' });
    // Each task's state in the job, as the service's clients read it (data.tasks.<id>.status): a manual
    // task waiting for an operator is running; one not reached yet is incomplete.
    expect(waiting.tasks.ask.status).toBe('running');
    expect(waiting.tasks.shout.status).toBe('incomplete');
    expect(waiting.tasks.workflow_start).toMatchObject({ status: 'complete', metrics: { finish_state: 'success' } });

    const finished = await host.api(`/operations-manager/jobs/${id}/tasks/ask/finish`, { method: 'POST', json: { values: { decision: 'approved' } } }).then(json);
    expect(finished.status).toBe(200);
    const done = await waitFor('the job to complete', async () => {
      const { body } = await get(id);
      return body.data.status === 'complete' && body.data;
    });
    // The service's own variables are there as GET /operations-manager/jobs/:id answers them (_id, initiator).
    expect(done.variables).toEqual({ _id: done._id, initiator: 'root', change: 'CR-1', note: null, decision: 'approved', loud: 'APPROVED' });
    expect(done.tasks.shout).toMatchObject({ status: 'complete', metrics: { finish_state: 'success' }, iterations: [expect.stringContaining(':shout:')] });
    expect(done.tasks.ask.metrics.finish_state).toBe('success');
    expect(done.tasks.workflow_end.status).toBe('complete');
    const shout = done.taskRuns.find((t: any) => t.taskId === 'shout');
    expect(shout).toMatchObject({ status: 'complete', incoming: { str: 'approved' }, outgoing: { uppercaseString: 'APPROVED' } });
    expect(shout.metrics.end_time).toBeGreaterThanOrEqual(shout.metrics.start_time);
  });

  it('says what is wrong: unknown workflow, variables against the inputSchema, the marker string, unknown job', async () => {
    expect(await start({ workflow: 'nope' })).toMatchObject({ status: 404, body: { message: 'no workflow named "nope"' } });
    const bad = await start({ workflow: 'approve-change', options: { variables: { change: 5 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/variables\.change must be string/);
    const marker = await start({ workflow: 'approve-change', options: { variables: { change: '~4undefined' } } });
    expect(marker.status).toBe(400);
    expect(marker.body.message).toMatch(/options\.variables\.change is the reserved string "~4undefined"/);
    expect((await start({})).body.issues[0].path).toBe('body.workflow');
    expect(await get('missing')).toMatchObject({ status: 404, body: { message: 'no job with id "missing"' } });
  });

  it('operator actions answer per the job state', async () => {
    const { body } = await start({ workflow: 'approve-change', options: { variables: { change: 'CR-2' } } });
    const id = body.data._id;
    const action = (what: string) => host.api(`/operations-manager/jobs/${id}/${what}`, { method: 'POST' }).then(json);
    expect(await action('pause')).toMatchObject({ status: 200, body: { data: { status: 'paused' } } });
    expect(await action('pause')).toMatchObject({ status: 409 });
    expect(await action('resume')).toMatchObject({ status: 200, body: { data: { status: 'running' } } });
    expect((await action('tasks/shout/retry')).status).toBe(409);
    expect(await action('cancel')).toMatchObject({ status: 200, body: { data: { status: 'canceled' } } });
    const after = (await get(id)).body.data;
    expect(after.taskRuns.find((t: any) => t.taskId === 'ask').status).toBe('canceled');
    expect((await action('tasks/ask/finish')).status).toBe(409);
  });

  it('lists jobs newest first with filters and paging', async () => {
    // Two jobs so far: the completed one and the canceled one (the refused starts made none).
    const all = await host.api('/operations-manager/jobs').then(json);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ message: expect.any(String), metadata: { total: 2, skip: 0, limit: 50 } });
    expect(all.body.data.map((j: any) => j.status)).toEqual(['canceled', 'complete']);
    const page2 = await host.api('/operations-manager/jobs?limit=1&skip=1').then(json);
    expect(page2.body).toMatchObject({ metadata: { total: 2, skip: 1, limit: 1 }, data: [{ status: 'complete' }] });
    const canceled = await host.api('/operations-manager/jobs?status=canceled').then(json);
    expect(canceled.body.data.map((j: any) => j.status)).toEqual(['canceled']);
    expect((await host.api('/operations-manager/jobs?workflow=other').then(json)).body.metadata.total).toBe(0);
    const future = Date.now() + 60_000;
    expect((await host.api(`/operations-manager/jobs?from=${future}`).then(json)).body.metadata.total).toBe(0);
    expect((await host.api('/operations-manager/jobs?status=done').then(json)).status).toBe(400);
  });

  it('shows undefined apart from null: absent keys, listed in undefinedPaths', async () => {
    await host.api('/workflows', { method: 'POST', json: workflow('noop', {}, [['workflow_start', 'workflow_end']]) });
    // Over HTTP a client cannot send undefined; the engine can hold it (childJob, tasks). Start one in-process.
    const job = await host.state.runtime.engine.runner.start('noop', { variables: { gone: undefined, none: null, list: [undefined, 1] } });
    const { body } = await get(job._id);
    expect('gone' in body.data.variables).toBe(false);
    expect(body.data.variables.none).toBeNull();
    expect(body.data.undefinedPaths).toEqual(['variables.gone', 'variables.list[0]']);
  });

  it('reports the task worker and the servers working tasks, and starts and stops the worker now', async () => {
    const status = await host.api('/workflow_engine/workers/status').then(json);
    expect(status.body.taskWorker).toEqual({ running: true, clusterValue: 'not defined', localValue: 'enabled', startupValue: true, workerId: expect.any(String) });
    expect(status.body.jobWorker).toMatchObject({ running: true });
    expect(status.body.servers).toEqual([expect.objectContaining({ serverId: host.state.serverId, taskWorker: true, alive: true, self: true })]);

    const stopped = await host.api('/workflow_engine/taskWorker/deactivate', { method: 'POST' }).then(json);
    expect(stopped.body.taskWorker).toEqual({ running: false, clusterValue: 'not defined', localValue: 'enabled', startupValue: true });
    expect(stopped.body.servers[0].taskWorker).toBe(false);
    expect((await host.api('/health/status').then(json)).body.taskWorker.running).toBe(false);
    const started = await host.api('/workflow_engine/taskWorker/activate', { method: 'POST' }).then(json);
    expect(started.body.taskWorker.running).toBe(true);
    expect((await host.api('/health/status').then(json)).body.taskWorker.running).toBe(true);
  });
});

describe('processTasksOnStart', () => {
  it('false: the worker does not start; jobs start and their tasks wait until the worker is activated', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-standby-'));
    await writeJsonAtomic(propertiesFile(dataDir, 'standby'), { id: 'standby', serverName: 'dr-standby-01', processTasksOnStart: false, mongoProps: { db: 'automation' } });
    const host = await startTestHost({ dataDir });
    try {
      const status = await host.api('/workflow_engine/workers/status').then(json);
      expect(status.body.taskWorker).toEqual({ running: false, clusterValue: 'not defined', localValue: 'disabled', startupValue: false });
      expect(status.body.servers[0]).toMatchObject({ serverName: 'dr-standby-01', taskWorker: false });

      await host.api('/workflows', { method: 'POST', json: workflow('up', { u: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: { uppercaseString: '$var.job.r' } } } }, [['workflow_start', 'u'], ['u', 'workflow_end']]) });
      const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'up' } }).then(json);
      expect(started.status).toBe(200);
      const id = started.body.data._id;
      await new Promise((r) => setTimeout(r, 500));
      const waiting = (await host.api(`/operations-manager/jobs/${id}`).then(json)).body.data;
      expect(waiting.status).toBe('running');
      expect(waiting.taskRuns.find((t: any) => t.taskId === 'u').status).toBe('queued');

      await host.api('/workflow_engine/taskWorker/activate', { method: 'POST' });
      const done = await waitFor('the job to complete', async () => {
        const { body } = await host.api(`/operations-manager/jobs/${id}`).then(json);
        return body.data.status === 'complete' && body.data;
      });
      expect(done.variables.r).toBe('X');
      // processTasksOnStart is unchanged by activating now.
      expect((await host.api('/workflow_engine/workers/status').then(json)).body.taskWorker).toMatchObject({ running: true, startupValue: false });
    } finally {
      await host.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a manual task finished as the service's clients finish it", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
    expect((await host.api('/workflows', { method: 'POST', json: manualFlow })).status).toBeLessThan(300);
  });
  afterAll(() => host.dispose());
  const startJob = (body: unknown) => host.api('/operations-manager/jobs/start', { method: 'POST', json: body }).then(json);
  const getJob = (id: string) => host.api(`/operations-manager/jobs/${id}`).then(json);

  it("finishes a manual task as the service's clients do, { taskData: { finish_state, variables } }: a failure is a failure", async () => {
    const id = (await startJob({ workflow: 'approve-change', options: { variables: { change: 'CR-4' } } })).body.data._id;
    await waitFor('the manual task', async () => (await getJob(id)).body.data.taskRuns.find((t: any) => t.taskId === 'ask' && t.status === 'waiting'));
    const url = `/operations-manager/jobs/${id}/tasks/ask/finish`;
    const both = await host.api(url, { method: 'POST', json: { taskData: { finish_state: 'failure' }, state: 'success' } }).then(json);
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('body.taskData: give taskData (finish_state, variables) or values and state, not both');
    const badState = await host.api(url, { method: 'POST', json: { taskData: { finish_state: 'rejected' } } }).then(json);
    expect(badState.status).toBe(400);
    expect(badState.body.message).toContain('body.taskData.finish_state');
    const finished = await host.api(url, { method: 'POST', json: { taskData: { finish_state: 'failure', variables: { decision: 'rejected' } } } }).then(json);
    expect(finished.status).toBe(200);
    const ask = await waitFor('the finish', async () => (await getJob(id)).body.data.taskRuns.find((t: any) => t.taskId === 'ask' && t.status !== 'waiting'));
    expect(ask).toMatchObject({ finishState: 'failure', outgoing: { decision: 'rejected' } });
    expect((await getJob(id)).body.data.tasks.ask.metrics.finish_state).toBe('failure');
  });
});
