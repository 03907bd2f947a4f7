// The operator's cockpit over HTTP on a real host seeded with a bad day: what needs
// attention, the jobs list's filters, counts and sorting, bulk actions, the work queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { APPROVAL, FAILING, seedCockpit, waitUntil, type Seeded } from '../support/cockpit';

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) };
}

describe('the cockpit over HTTP', () => {
  let host: TestHost;
  let seeded: Seeded;
  beforeAll(async () => {
    host = await startTestHost();
    seeded = await seedCockpit(host, { errored: 3, waiting: 2 });
  }, 60_000);
  afterAll(() => host?.dispose());
  const get = (path: string) => host.api(path).then(json);

  it('GET /console/attention names what needs an operator, each with a link to the filtered list', async () => {
    const { status, body } = await get('/console/attention');
    expect(status).toBe(200);
    const byId = Object.fromEntries(body.items.map((i: any) => [i.id, i]));
    expect(byId['jobs-error']).toMatchObject({ level: 'bad', count: 3, summary: '3 jobs in error' });
    expect(byId['jobs-error'].entries).toEqual([{ label: FAILING, count: 3, link: `#/jobs?status=error&workflow=${FAILING}` }]);
    expect(byId['operator-tasks']).toMatchObject({ level: 'warn', count: 2, summary: '2 tasks waiting for an operator', link: '#/worklist' });
    expect(byId['indexes']).toMatchObject({ level: 'warn', count: 1, summary: '1 collection not indexed', link: '#/profiles/default/indexing' });
    expect(byId['indexes'].entries[0]).toMatchObject({ label: 'jobs', detail: '1 index missing' });
    if (seeded.stoppedAdapter) {
      expect(byId['adapters'].count).toBeGreaterThanOrEqual(1);
      expect(byId['adapters'].entries).toContainEqual(expect.objectContaining({ label: seeded.stoppedAdapter, detail: 'STOPPED' }));
    } else console.log('[skip] no adapter in this console to stop: the adapters card is only checked for its shape');
    expect(byId['applications']).toMatchObject({ level: 'ok', count: 0 });
    expect(byId['worker-role']).toMatchObject({ level: 'ok', summary: 'Task worker as the primary role expects (running)' });
    expect(body.level).toBe('bad');
  });

  it('counts the workflows that cannot run, a child workflow\'s missing adapter included, each linking to its page', async () => {
    const card = async () => (await get('/console/attention')).body.items.find((i: any) => i.id === 'workflows-blocked');
    const before = await card();
    const end = { type: 'standard', state: 'success' };
    const child = { name: 'Needs Awsec2', tasks: { vpc: { name: 'createVpc', app: 'Awsec2', type: 'automatic', location: 'Adapter' } }, transitions: { workflow_start: { vpc: end }, vpc: { workflow_end: end } } };
    const parent = {
      name: 'Starts Needs Awsec2',
      tasks: { run: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow: 'Needs Awsec2', variables: {} } } } },
      transitions: { workflow_start: { run: end }, run: { workflow_end: end } },
    };
    for (const doc of [child, parent]) expect((await host.api('/workflows', { method: 'POST', json: doc })).status).toBe(201);
    const after = await card();
    expect(after.level).toBe('warn');
    expect(after.count).toBe(before.count + 2);
    expect(after.summary).toMatch(/^\d+ workflows? of \d+ cannot run$/);
    expect(after.entries).toContainEqual({ label: 'Starts Needs Awsec2', detail: 'needs Awsec2', link: '#/workflows/Starts%20Needs%20Awsec2' });
  });

  it('the worker against the role: a primary whose worker is stopped is named', async () => {
    await host.api('/workflow_engine/taskWorker/deactivate', { method: 'POST' });
    try {
      const { body } = await get('/console/attention');
      expect(body.items.find((i: any) => i.id === 'worker-role')).toMatchObject({ level: 'bad', summary: 'Primary not working tasks' });
    } finally {
      await host.api('/workflow_engine/taskWorker/activate', { method: 'POST' });
    }
  });

  it('the last DR drill: none yet is only said; a drill that did not pass needs the operator and links to its report', async () => {
    const card = async () => (await get('/console/attention')).body.items.find((i: any) => i.id === 'last-drill');
    expect(await card()).toMatchObject({ level: 'ok', count: 0, summary: 'No DR drill run yet', link: '#/drills' });
    // As the drills service keeps its history: one passed, then a later one that missed a target.
    const drills = host.state.runtime.store.collection('drill_reports');
    await drills.insertOne({ _id: 'd-passed', status: 'done', passed: true, startedAt: 1_000, rtoMs: 1_500 });
    expect(await card()).toMatchObject({ level: 'ok', summary: 'Last DR drill passed, RTO 1.5 s', link: '#/drills/d-passed' });
    await drills.insertOne({ _id: 'd-missed', status: 'done', passed: false, startedAt: 2_000, error: 'RTO 45 s is over the 30 s target' });
    const missed = await card();
    expect(missed).toMatchObject({ level: 'warn', count: 1, summary: 'Last DR drill did not pass', link: '#/drills/d-missed' });
    expect(missed.entries[0]).toMatchObject({ label: 'drill d-missed', detail: 'RTO 45 s is over the 30 s target' });
    await drills.deleteMany({});
  });

  it('filters jobs waiting for an operator, by free text over description, id and variables, and counts them', async () => {
    const waiting = await get('/operations-manager/jobs?status=waiting&counts=true');
    expect(waiting.body.metadata.total).toBe(2);
    expect(waiting.body.data.every((j: any) => j.name === APPROVAL && j.operatorTasks === 1)).toBe(true);
    // A job waiting for an operator is counted as waiting, not also as running: the chips add up to the jobs.
    expect(waiting.body.metadata.counts.statuses).toMatchObject({ error: 3, waiting: 2, running: 0, complete: 0 });
    const all = await get('/operations-manager/jobs?counts=true');
    expect(Object.values(all.body.metadata.counts.statuses).reduce((n: number, c: any) => n + c, 0)).toBe(all.body.metadata.total);
    expect(waiting.body.data.every((j: any) => j.currentTask === 'Approve the change')).toBe(true);
    expect((await get('/operations-manager/jobs?status=running')).body.metadata.total).toBe(0);
    expect(waiting.body.metadata.counts.workflows).toEqual(expect.arrayContaining([{ name: APPROVAL, count: 2 }, { name: FAILING, count: 0 }]));

    const byVariable = await get('/operations-manager/jobs?q=inc-101');
    expect(byVariable.body.data.map((j: any) => j.description)).toEqual(['broken 1']);
    const byDescription = await get('/operations-manager/jobs?q=CR-2');
    expect(byDescription.body.data.map((j: any) => j.description)).toEqual(['CR-2']);
    const id = seeded.errored[0]!;
    // Part of the id, not its start: job ids are ObjectIds, whose time and process parts jobs started together share.
    const byId = await get(`/operations-manager/jobs?q=${id.slice(-12)}`);
    expect(byId.body.data.map((j: any) => j._id)).toEqual([id]);
    const errorRow = byId.body.data[0];
    expect(errorRow.error).toEqual([{ task: expect.any(String), message: expect.stringMatching(/codePointAt/), timestamp: expect.any(Number) }]);
  });

  it('sorts by workflow name and by start time either way', async () => {
    const asc = await get('/operations-manager/jobs?sort=name&order=asc');
    expect(asc.body.data.map((j: any) => j.name)).toEqual([APPROVAL, APPROVAL, FAILING, FAILING, FAILING]);
    const oldest = await get('/operations-manager/jobs?sort=start_time&order=asc');
    const newest = await get('/operations-manager/jobs');
    expect(oldest.body.data.map((j: any) => j._id)).toEqual([...newest.body.data.map((j: any) => j._id)].reverse());
  });

  it('refuses a bad filter with a 400 naming the field', async () => {
    const bad = await get('/operations-manager/jobs?status=broken&sort=colour');
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: any) => i.path)).toEqual(expect.arrayContaining(['query.status', 'query.sort']));
    const empty = await host.api('/operations-manager/jobs/cancel', { method: 'POST', json: { jobIds: [] } }).then(json);
    expect(empty.status).toBe(400);
    expect(empty.body.issues[0].path).toBe('body.jobIds');
  });

  it('the work queue lists every manual task waiting, with its job, workflow and form fields', async () => {
    const { status, body } = await get('/operations-manager/tasks/worklist');
    expect(status).toBe(200);
    expect(body.total).toBe(2);
    expect(body.results[0]).toMatchObject({
      taskId: 'ask',
      name: 'approve',
      summary: 'Approve the change',
      outgoing: ['decision'],
      incoming: { change: 'CR-1' },
      job: { name: APPROVAL, description: 'CR-1', status: 'running' },
    });
    expect(seeded.waiting).toContain(body.results[0].jobId);
  });

  it('bulk retry, pause and cancel act on each job and say per job what happened', async () => {
    const retried = await host.api('/operations-manager/jobs/retry', { method: 'POST', json: { jobIds: seeded.errored.slice(0, 2) } }).then(json);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ done: 2, failed: 0 });
    expect(retried.body.message).toBe('2 of 2 jobs retried');

    const paused = await host.api('/operations-manager/jobs/pause', { method: 'POST', json: { jobIds: [seeded.waiting[0], seeded.errored[2]] } }).then(json);
    expect(paused.body.data.done).toBe(1);
    expect(paused.body.data.results[1]).toMatchObject({ _id: seeded.errored[2], ok: false, message: expect.stringMatching(/only a running job can be paused/) });

    const canceled = await host.api('/operations-manager/jobs/cancel', { method: 'POST', json: { jobIds: seeded.waiting } }).then(json);
    expect(canceled.body).toMatchObject({ message: '2 of 2 jobs canceled', data: { done: 2 } });
    await waitUntil('the queue to empty', async () => (await get('/operations-manager/tasks/worklist')).body.total === 0);
  });
});
