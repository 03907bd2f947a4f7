// The work queue over HTTP: claim and release (Operations Manager's routes), the "mine" and
// "unassigned" views, and the history of finished tasks with who finished them; jobs and
// finishes are recorded under the desktop user, never the caller's user agent.
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { APPROVAL, seedCockpit, type Seeded } from '../support/cockpit';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

describe('the work queue: claims, views and history', () => {
  let host: TestHost;
  let seeded: Seeded;
  const me = userInfo().username;
  beforeAll(async () => {
    host = await startTestHost();
    seeded = await seedCockpit(host, { errored: 0, waiting: 2 });
  }, 60_000);
  afterAll(() => host?.dispose());
  const get = async (path: string) => (await (await host.api(path, { headers: { 'user-agent': BROWSER } })).json());
  const post = (path: string, json?: unknown) => host.api(path, { method: 'POST', headers: { 'user-agent': BROWSER }, ...(json ? { json } : {}) });

  it('records the desktop user as the initiator of a job started from a browser', async () => {
    const job = await get(`/operations-manager/jobs/${seeded.waiting[0]}`);
    expect(job.data.metrics.user).toBe(me);
    expect(job.data.metrics.user).not.toContain('Mozilla');
  });

  it('claims a task for the operator, shows it under mine, and releases it back to unassigned', async () => {
    const before = await get('/operations-manager/tasks/worklist');
    expect(before.operator).toBe(me);
    expect(before.counts).toEqual({ all: 2, mine: 0, unassigned: 2 });
    const id = before.results[0]._id;

    const claimed = await post(`/operations-manager/tasks/${encodeURIComponent(id)}/claim`);
    expect(claimed.status).toBe(200);
    expect((await claimed.json()).data).toMatchObject({ _id: id, assignee: me });
    const mine = await get('/operations-manager/tasks/worklist?view=mine');
    expect(mine.results.map((i: any) => i._id)).toEqual([id]);
    expect(mine.results[0].assignee).toBe(me);
    expect((await get('/operations-manager/tasks/worklist?view=unassigned')).total).toBe(1);

    expect((await post(`/operations-manager/tasks/${encodeURIComponent(id)}/release`)).status).toBe(200);
    expect((await get('/operations-manager/tasks/worklist')).counts).toEqual({ all: 2, mine: 0, unassigned: 2 });
  });

  it('refuses to claim a task another operator holds (409 naming them) or one that is not waiting (404)', async () => {
    const [item] = (await get('/operations-manager/tasks/worklist')).results;
    await host.state.runtime.store.collection('task_claims').insertOne({ _id: item._id, assignee: 'someone-else', claimedAt: 1 });
    const held = await post(`/operations-manager/tasks/${encodeURIComponent(item._id)}/claim`);
    expect(held.status).toBe(409);
    expect((await held.json()).message).toContain('claimed by someone-else');
    await host.state.runtime.store.collection('task_claims').deleteMany({ _id: item._id });
    const none = await post('/operations-manager/tasks/no-such-job%3Aask%3A0/claim');
    expect(none.status).toBe(404);
  });

  it('lists a finished task in the history with who finished it, how and when', async () => {
    const jobId = seeded.waiting[1];
    const finished = await post(`/operations-manager/jobs/${jobId}/tasks/ask/finish`, { values: { decision: 'go' }, state: 'success' });
    expect(finished.status).toBe(200);
    const history = await get('/operations-manager/tasks/worklist/history');
    expect(history.results[0]).toMatchObject({ jobId, taskId: 'ask', name: 'approve', summary: 'Approve the change', workflow: APPROVAL, state: 'success', operator: me });
    expect(history.results[0].finishedAt).toBeGreaterThan(0);
    const job = await get(`/operations-manager/jobs/${jobId}`);
    expect(JSON.stringify(job.data)).toContain(`task ask finished in success by ${me}`);
  });
});
