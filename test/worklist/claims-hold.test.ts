// Claims hold, over HTTP: a manual task another operator claimed is finished only by them;
// this console's operator takes it over first (Operations Manager's assign), which the job's
// history records, and may then finish it. Refusals are 409s naming the claimant and change
// nothing.
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { seedCockpit, type Seeded } from '../support/cockpit';

describe('claims hold', () => {
  let host: TestHost;
  let seeded: Seeded;
  const me = userInfo().username;
  beforeAll(async () => {
    host = await startTestHost();
    seeded = await seedCockpit(host, { errored: 0, waiting: 1 });
  }, 60_000);
  afterAll(() => host?.dispose());
  const get = async (path: string) => (await (await host.api(path)).json());
  const post = (path: string, json?: unknown) => host.api(path, { method: 'POST', ...(json ? { json } : {}) });
  const claims = () => host.state.runtime.store.collection('task_claims');

  it("refuses a finish of a task someone else claimed, 409 naming them, and leaves the task waiting and the claim theirs", async () => {
    const jobId = seeded.waiting[0];
    const [item] = (await get('/operations-manager/tasks/worklist')).results;
    expect(item.jobId).toBe(jobId);
    await claims().insertOne({ _id: item._id, assignee: 'someone-else', claimedAt: 1 });

    const finish = await post(`/operations-manager/jobs/${jobId}/tasks/ask/finish`, { values: { decision: 'go' }, state: 'success' });
    expect(finish.status).toBe(409);
    const body = await finish.json();
    expect(body.message).toContain('claimed by someone-else');
    expect(body.assignee).toBe('someone-else');
    const release = await post(`/operations-manager/tasks/${encodeURIComponent(item._id)}/release`);
    expect(release.status).toBe(409);
    expect((await release.json()).message).toContain('claimed by someone-else');

    const after = (await get('/operations-manager/tasks/worklist')).results[0];
    expect(after).toMatchObject({ _id: item._id, assignee: 'someone-else' });
    const job = await get(`/operations-manager/jobs/${jobId}`);
    expect(job.data.status).toBe('running');
    expect(JSON.stringify(job.data.history ?? [])).not.toContain('task-finished');
  });

  it("takes the task over (assign), records it in the job's history, and then finishes it", async () => {
    const jobId = seeded.waiting[0];
    const [item] = (await get('/operations-manager/tasks/worklist')).results;
    const taken = await post(`/operations-manager/tasks/${encodeURIComponent(item._id)}/assign`);
    expect(taken.status).toBe(200);
    expect((await taken.json()).data).toMatchObject({ _id: item._id, assignee: me });
    expect((await get('/operations-manager/tasks/worklist?view=mine')).results.map((i: { _id: string }) => i._id)).toEqual([item._id]);
    const history = (await get(`/operations-manager/jobs/${jobId}`)).data.history;
    expect(history).toContainEqual(expect.objectContaining({ event: 'task-taken-over', message: `${me} took over task ask from someone-else` }));

    const finish = await post(`/operations-manager/jobs/${jobId}/tasks/ask/finish`, { values: { decision: 'go' }, state: 'success' });
    expect(finish.status).toBe(200);
    expect((await claims().find({ _id: item._id }))).toEqual([]);
    const finished = (await get('/operations-manager/tasks/worklist/history')).results[0];
    expect(finished).toMatchObject({ jobId, taskId: 'ask', operator: me });
  });

  it('answers 404 to an assign of a task that is not waiting, and 400 to an empty userId', async () => {
    expect((await post('/operations-manager/tasks/no-such-job%3Aask%3A0/assign')).status).toBe(404);
    const [item] = (await get('/operations-manager/tasks/worklist')).results;
    expect(item).toBeUndefined();
    const bad = await post(`/operations-manager/tasks/${encodeURIComponent(`${seeded.waiting[0]}:ask:0`)}/assign`, { userId: '' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('userId');
  });
});
