// Edit and retry over HTTP: a task that failed on bad input runs again with the operator's changed
// incoming values or job variables, and the job's history says who changed what.
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { FAILING, failingFlow, waitUntil } from '../../support/cockpit';

describe('edit and retry a task in error', () => {
  let host: TestHost;
  const me = userInfo().username;
  beforeAll(async () => {
    host = await startTestHost();
    expect((await host.api('/workflows', { method: 'POST', json: failingFlow })).status).toBe(201);
  }, 60_000);
  afterAll(() => host?.dispose());

  const job = async (id: string) => ((await (await host.api(`/operations-manager/jobs/${id}`)).json()) as { data: any }).data;
  async function erroredJob(s: string): Promise<string> {
    const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: FAILING, options: { variables: { s } } } });
    const id = ((await started.json()) as { data: { _id: string } }).data._id;
    await waitUntil('the job to stop in error', async () => (await job(id)).status === 'error');
    return id;
  }
  const retry = (id: string, body?: unknown) => host.api(`/operations-manager/jobs/${id}/tasks/cp/retry`, { method: 'POST', ...(body ? { json: body } : {}) });

  it('retries with a changed job variable: the task resolves it again and the job completes', async () => {
    const id = await erroredJob('x');
    const answer = await retry(id, { variables: { s: 'xy' } });
    expect(answer.status).toBe(200);
    await waitUntil('the job to complete', async () => (await job(id)).status === 'complete');
    const done = await job(id);
    expect(done.variables).toMatchObject({ s: 'xy', cp: 121 });
    const entry = done.history.find((h: any) => h.event === 'task-retry-changed');
    expect(entry.message).toBe(`${me} changed job variable s from "x" to "xy" and retried task cp`);
    // Who, which task and each change on their own, for the Job page's history.
    expect(entry).toMatchObject({ operator: me, taskId: 'cp', changes: ['job variable s from "x" to "xy"'] });
  });

  it('retries with changed incoming values, used as given', async () => {
    const id = await erroredJob('x');
    expect((await retry(id, { incoming: { str: 'abc', pos: 1 } })).status).toBe(200);
    await waitUntil('the job to complete', async () => (await job(id)).status === 'complete');
    const done = await job(id);
    expect(done.variables.cp).toBe(98);
    const runs = done.taskRuns.filter((r: any) => r.taskId === 'cp');
    expect(runs.at(-1).incoming).toEqual({ str: 'abc', pos: 1 });
    expect(done.history.find((h: any) => h.event === 'task-retry-changed').message).toBe(`${me} changed incoming str of cp from "x" to "abc" and retried task cp`);
  });

  it('a plain retry (no body) still works, and changes to a task not in error are refused with 409 and leave the job as it was', async () => {
    const id = await erroredJob('x');
    expect((await retry(id)).status).toBe(200);
    await waitUntil('the job to stop in error again', async () => (await job(id)).status === 'error');
    const refused = await host.api(`/operations-manager/jobs/${id}/tasks/workflow_start/retry`, { method: 'POST', json: { variables: { s: 'zz' } } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect((await job(id)).variables.s).toBe('x');
    const badName = await retry(id, { variables: { 'a.b': 1 } });
    expect(badName.status).toBe(400);
    expect((await badName.json()).message).toContain('body.variables');
  });
});
