// Schedule triggers on a real host, as the vendor's operator guide makes one (firstRunAt, repeatInterval,
// processMissedRuns) and confirms it (nextRunAt): the console fires each run once, as its automation's
// job; a run missed while no console ran is skipped or run once, as processMissedRuns says; two
// consoles on one store fire a run once between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTriggerRunner } from '../../core/automations/run';
import { createAutomationsService } from '../../core/automations/service';
import { callJson, startTestHost, type TestHost } from '../support/host';
import { waitFor, workflow as builtWorkflow } from '../engine/queue/support';

let host: TestHost;
const api = (path: string, init?: RequestInit & { json?: unknown }) => callJson(host, path, init);
/** One task copying the job variable `scope` into `seen`. */
const workflow = builtWorkflow('Nightly Backup', { a1: { name: 'newVariable', type: 'operation', variables: { incoming: { name: 'seen', value: '$var.job.scope' }, outgoing: { value: null } } } }, [['workflow_start', 'a1'], ['a1', 'workflow_end']], { type: 'automation' });
let automationId: string;
const triggers = () => host.state.runtime.store.collection('triggers');
const jobsOf = async () => (await api('/operations-manager/jobs?limit=100')).body.data as { _id: string; description: string }[];

beforeAll(async () => {
  host = await startTestHost();
  expect((await api('/workflows', { method: 'POST', json: workflow })).status).toBe(201);
  automationId = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'Backups', componentName: 'Nightly Backup' } })).body.data._id;
});
afterAll(() => host.dispose());

describe('schedule triggers', () => {
  it('fire at their first run, then wait a repeat: nextRunAt and lastExecuted say so, the job has the form data', async () => {
    const firstRunAt = Date.now() + 300;
    const made = await api('/operations-manager/triggers', {
      method: 'POST',
      json: { name: 'Nightly', type: 'schedule', enabled: true, actionType: 'automations', actionId: automationId, firstRunAt, repeatInterval: 86_400_000, processMissedRuns: 'none', formData: { scope: 'all' }, legacyWrapper: false },
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ type: 'schedule', firstRunAt, nextRunAt: firstRunAt });
    const id = made.body.data._id;
    const job = await waitFor('the scheduled job', async () => (await jobsOf()).find((j) => j.description.includes('schedule trigger "Nightly"')), 15_000);
    const read = (await api(`/operations-manager/triggers/${id}`)).body.data;
    expect(read.nextRunAt).toBe(firstRunAt + 86_400_000);
    expect(read.lastExecuted).toBeGreaterThanOrEqual(firstRunAt);
    const done = await waitFor('the job to end', async () => {
      const { body } = await api(`/operations-manager/jobs/${job._id}`);
      return body.data.status === 'complete' && body.data;
    });
    expect(done.variables).toMatchObject({ scope: 'all', seen: 'all' });
    // One run, not one per look: the next looks find nothing due.
    await host.state.schedules!.tick();
    expect((await jobsOf()).filter((j) => j.description.includes('schedule trigger "Nightly"'))).toHaveLength(1);
  });

  it('a run missed while no console ran is skipped (none) or run once (last)', async () => {
    const make = async (name: string, processMissedRuns: string) =>
      (await api('/operations-manager/triggers', { method: 'POST', json: { name, type: 'schedule', actionId: automationId, firstRunAt: Date.now() - 10 * 86_400_000, repeatInterval: 3_600_000, processMissedRuns } })).body.data._id as string;
    const skip = await make('Missed none', 'none');
    const last = await make('Missed last', 'last');
    // As if the console had been down for five hours: the run each waits for is in the past.
    const fiveHoursAgo = Date.now() - 5 * 3_600_000;
    for (const id of [skip, last]) await triggers().updateOne({ _id: id }, { $set: { nextRunAt: fiveHoursAgo } });
    await host.state.schedules!.tick();
    const jobs = await jobsOf();
    expect(jobs.filter((j) => j.description.includes('"Missed none"'))).toHaveLength(0);
    expect(jobs.filter((j) => j.description.includes('"Missed last"'))).toHaveLength(1);
    for (const id of [skip, last]) expect((await api(`/operations-manager/triggers/${id}`)).body.data.nextRunAt).toBeGreaterThan(Date.now());
  });

  it('two consoles on one store fire a due run once between them', async () => {
    const id = (await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Shared', type: 'schedule', actionId: automationId, firstRunAt: Date.now() + 86_400_000, repeatInterval: 3_600_000 } })).body.data._id;
    await triggers().updateOne({ _id: id }, { $set: { nextRunAt: Date.now() - 1000 } });
    // A second console's runner over the same store (its own services, as another process has).
    const store = host.state.runtime.store;
    const workflowRef = async (ref: { name?: string; id?: string }) => ((await store.collection('workflows').findOne({ name: ref.name })) ? { name: String(ref.name) } : null);
    const started: string[] = [];
    const other = createTriggerRunner(
      {
        triggers: () => store.collection('triggers'),
        workflow: workflowRef,
        transform: async () => null,
        startJob: async (name) => (started.push(name), { _id: 'other-console-job', name, status: 'running' }),
      },
      createAutomationsService({ automations: () => store.collection('automations'), triggers: () => store.collection('triggers'), workflow: workflowRef, hasTransformation: async () => false, user: () => 'other' }),
    );
    const [mine, theirs] = await Promise.all([host.state.schedules!.tick().then(jobsOf), other.fireDueSchedules(Date.now())]);
    const fromMine = mine.filter((j) => j.description.includes('"Shared"')).length;
    expect(fromMine + started.length).toBe(1);
    expect(theirs.filter((r) => r.trigger === 'Shared' && r.jobId).length).toBe(started.length);
  });

  it('names the schedule field that does not fit', async () => {
    const bad = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Too often', type: 'schedule', actionId: automationId, firstRunAt: Date.now(), repeatInterval: 5000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('body.repeatInterval: must be the milliseconds between runs, at least 60000');
    const none = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'No start', type: 'schedule', actionId: automationId } });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('body.firstRunAt');
  });
});
