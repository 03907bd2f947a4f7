// Readers of job and task documents outside the engine (issue 46): a value over 1 MiB is kept in
// job_data, and every reader the composition root builds (the runtime's store itself, the work
// queue, attention, the jobs routes) shows the value whole, never the `~4largeData` reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { APPROVAL, approvalFlow, waitUntil } from '../support/cockpit';
import { LARGE_DATA, LARGE_DATA_BYTES } from '../../core/store/large-data/large-data';

describe('large values read whole by every reader of jobs and tasks', () => {
  let host: TestHost;
  let jobId: string;
  // Over the 1 MiB threshold: kept in job_data, the documents holding its reference.
  const change = 'CR-large '.repeat(Math.ceil(LARGE_DATA_BYTES / 9) + 10);

  beforeAll(async () => {
    host = await startTestHost();
    const imported = await host.api('/workflows', { method: 'POST', json: approvalFlow });
    expect(imported.status).toBeLessThan(300);
    // Started in process: a request body over 1 MiB is over the HTTP body limit.
    const { engine } = host.state.runtime;
    const job = await engine.runner.start(APPROVAL, { description: 'large change', variables: { change } });
    engine.worker.poke();
    jobId = job._id;
    await waitUntil('the approval task to wait for an operator', async () => (await host.state.runtime.engine.runner.tasks.count({ jobId, status: 'waiting' })) > 0);
  }, 60_000);
  afterAll(() => host?.dispose());

  it('keeps the value in job_data, and the runtime store reads the job and its task whole', async () => {
    const { store } = host.state.runtime;
    const data = await store.collection('job_data').find({ job_id: jobId });
    expect(data.map((d) => d.variable)).toContain('variables.change');
    const job = await store.collection('jobs').findOne({ _id: jobId });
    expect((job?.variables as Record<string, unknown>).change).toBe(change);
    const [task] = await store.collection('tasks').find({ jobId, status: 'waiting' });
    expect((task?.incoming as Record<string, unknown>).change).toBe(change);
  });

  it('shows the waiting task in the work queue with its incoming value whole', async () => {
    const list = await (await host.api('/operations-manager/tasks/worklist')).json();
    const item = list.results.find((i: { jobId: string }) => i.jobId === jobId);
    expect(item?.incoming.change).toBe(change);
    expect(JSON.stringify(item)).not.toContain(LARGE_DATA);
  });

  it('counts the waiting task on the attention card (it reads ids and statuses, never a value)', async () => {
    const body = await (await host.api('/console/attention')).json();
    const card = body.items.find((i: { id: string }) => i.id === 'operator-tasks');
    expect(card).toMatchObject({ level: 'warn', count: 1, summary: '1 task waiting for an operator' });
    expect(JSON.stringify(body)).not.toContain(LARGE_DATA);
  });

  it('answers the job over the jobs route with its variable whole', async () => {
    const job = await (await host.api(`/operations-manager/jobs/${jobId}`)).json();
    expect(job.data.variables.change).toBe(change);
    expect(JSON.stringify(job.data.variables)).not.toContain(LARGE_DATA);
  });
});
