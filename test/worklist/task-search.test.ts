// GET /operations-manager/tasks as the vendor's operator guide uses it in its daily check: the manual
// tasks waiting for an operator (equals[type]=manual&equals[status]=running; the service shows them as
// running), each naming its job and task, then claimed by its _id and finished as the guide finishes it
// ({ taskData: { finish_state } } at /operations-manager/jobs/:id/tasks/:taskId/finish), having read what it shows
// and collects (its manual-controller).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { seedCockpit, type Seeded } from '../support/cockpit';

describe('the service task search', () => {
  let host: TestHost;
  let seeded: Seeded;
  beforeAll(async () => {
    host = await startTestHost();
    seeded = await seedCockpit(host, { errored: 1, waiting: 3 });
  }, 60_000);
  afterAll(() => host?.dispose());
  const get = async (path: string) => {
    const res = await host.api(path);
    return { status: res.status, body: await res.json() };
  };

  it('lists the approvals waiting as the guide asks, each with its job and task, and finishes one as the guide does', async () => {
    const { status, body } = await get('/operations-manager/tasks?equals[type]=manual&equals[status]=running&limit=100');
    expect(status).toBe(200);
    expect(body.metadata).toEqual({ skip: 0, limit: 100, total: 3 });
    for (const task of body.data) {
      expect(task).toMatchObject({ type: 'manual', status: 'running', job: { _id: expect.any(String), task: 'ask', name: expect.any(String) } });
      expect(seeded.waiting).toContain(task.job._id);
    }
    const first = body.data[0];
    // One task read by its _id is the task the search shows.
    const one = await get(`/operations-manager/tasks/${encodeURIComponent(first._id)}`);
    expect([one.status, one.body.data]).toEqual([200, first]);
    const none = await get('/operations-manager/tasks/no-such-task');
    expect([none.status, none.body.message]).toEqual([404, 'no task has the _id "no-such-task"']);
    expect((await host.api(`/operations-manager/tasks/${encodeURIComponent(first._id)}/claim`, { method: 'POST' })).status).toBe(200);
    // The guide's second step: what the task shows and what its form collects (the names its finish's variables fill).
    const controllerPath = `/operations-manager/jobs/${first.job._id}/tasks/${first.job.task}/manual-controller`;
    const controller = await get(controllerPath);
    expect(controller.status).toBe(200);
    expect(controller.body.data).toEqual({ variables: { incoming: { change: expect.stringMatching(/^CR-/) }, outgoing: { decision: '$var.job.decision' }, decorators: [] } });
    const finished = await host.api(`/operations-manager/jobs/${first.job._id}/tasks/${first.job.task}/finish`, { method: 'POST', json: { taskData: { finish_state: 'success', variables: { decision: 'go' } } } });
    expect(finished.status).toBe(200);
    expect((await get(controllerPath)).body.data).toMatchObject({ variables: { outgoing: { decision: 'go' } }, finish_state: 'success' });
    // Not a task of the job, and a task no operator finishes: each named.
    const missing = await get(`/operations-manager/jobs/${first.job._id}/tasks/zz99/manual-controller`);
    expect([missing.status, missing.body.message]).toEqual([404, expect.stringContaining('has no task "zz99"')]);
    const automatic = await get(`/operations-manager/jobs/${first.job._id}/tasks/shout/manual-controller`);
    expect([automatic.status, automatic.body.message]).toEqual([409, expect.stringContaining('task shout (toUpperCase)')]);
    const after = await get('/operations-manager/tasks?equals[type]=manual&equals[status]=running');
    expect(after.body.metadata.total).toBe(2);
    // contains reads the documents in hand (the store pages the others): the same tasks either way.
    const byText = await get('/operations-manager/tasks?contains=appro&containsField=name&equals[status]=running');
    expect(byText.body.data.map((t: { _id: string }) => t._id).sort()).toEqual(after.body.data.map((t: { _id: string }) => t._id).sort());
  });

  it('pages, projects and filters as the service lists do, and names a bad parameter', async () => {
    const page = await get('/operations-manager/tasks?equals[type]=manual&equals[status]=running&limit=1&skip=1&include=name,status');
    expect(page.body.data).toHaveLength(1);
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['_id', 'name', 'status']);
    const ofJob = await get(`/operations-manager/tasks?${new URLSearchParams({ 'equals[job._id]': seeded.waiting[1]!, include: 'job' })}`);
    expect(ofJob.body.data.every((t: { job: { _id: string } }) => t.job._id === seeded.waiting[1])).toBe(true);
    expect(ofJob.body.metadata.total).toBeGreaterThan(0);
    expect((await get('/operations-manager/tasks?order=3')).status).toBe(400);
    expect((await get('/operations-manager/tasks?include=name&exclude=status')).body.message).toContain('query.exclude');
  });
});
