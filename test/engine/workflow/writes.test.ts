// The workflow writes a job runner's workflow cache follows belong to one container (one
// profile's store): a write in one console's store does not make another reread its workflows,
// and a write through a container is seen by its own runner at once.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RecentWorkflows } from '../../../core/engine/jobs/recent';
import { WorkflowWrites } from '../../../core/engine/workflow/writes';
import { startTestHost, type TestHost } from '../../support/host';

const workflow = (description: string) => ({
  name: 'cached',
  description,
  tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } },
  transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } },
});

describe('the workflow cache of a job runner', () => {
  afterEach(() => vi.useRealTimers());

  it('is read again after a write of its own container, not after one of another', async () => {
    // The clock stands still: only the writes decide whether a kept workflow is read again.
    vi.useFakeTimers({ toFake: ['Date'] });
    const mine = new WorkflowWrites();
    const other = new WorkflowWrites();
    let loads = 0;
    const recent = new RecentWorkflows(async (name) => ({ name, load: ++loads }), mine);

    expect(await recent.get('cached')).toEqual({ name: 'cached', load: 1 });
    other.note();
    expect(await recent.get('cached')).toEqual({ name: 'cached', load: 1 });
    mine.note();
    expect(await recent.get('cached')).toEqual({ name: 'cached', load: 2 });
  });

  it('reads a workflow once for starts asking while it is read, again for one asking after a write', async () => {
    const writes = new WorkflowWrites();
    let loads = 0;
    const pending: (() => void)[] = [];
    // Each load waits until the test lets it finish, so the gets below all ask while it is under way.
    const recent = new RecentWorkflows(async (name) => {
      const load = ++loads;
      await new Promise<void>((resolve) => pending.push(resolve));
      return { name, load };
    }, writes);

    const burst = Array.from({ length: 50 }, () => Promise.resolve(recent.get('cached')));
    expect(loads).toBe(1);
    // A write of the workflow while it is read: a start asking now reads it again, not the read begun before.
    writes.note();
    const after = Promise.resolve(recent.get('cached'));
    expect(loads).toBe(2);
    for (const resolve of pending.splice(0)) resolve();
    const results = await Promise.all(burst);
    expect(new Set(results)).toEqual(new Set([{ name: 'cached', load: 1 }]));
    // One object for the whole burst: their jobs share its frozen tasks and transitions.
    expect(results.every((r) => r === results[0])).toBe(true);
    expect(await after).toEqual({ name: 'cached', load: 2 });
  });

  it('reads again after a read that failed, and gives the failure to every start that shared it', async () => {
    let loads = 0;
    const recent = new RecentWorkflows(async (name) => {
      loads++;
      if (loads === 1) throw new Error('the store is unreachable');
      return { name };
    }, new WorkflowWrites());
    const shared = await Promise.allSettled([Promise.resolve(recent.get('cached')), Promise.resolve(recent.get('cached'))]);
    expect(shared.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['Error: the store is unreachable', 'Error: the store is unreachable']);
    expect(loads).toBe(1);
    expect(await recent.get('cached')).toEqual({ name: 'cached' });
    expect(loads).toBe(2);
  });
});

describe('two consoles in one process', () => {
  let first: TestHost;
  let second: TestHost;
  beforeAll(async () => {
    [first, second] = await Promise.all([startTestHost(), startTestHost()]);
  });
  afterAll(() => Promise.all([first?.dispose(), second?.dispose()]));

  it('count their workflow writes apart', async () => {
    const writes = (host: TestHost) => host.state.runtime.engine.workflowWrites.value;
    const before = { first: writes(first), second: writes(second) };
    expect((await first.api('/workflows', { method: 'POST', json: workflow('v1') })).status).toBe(201);
    expect((await first.api('/workflows/cached', { method: 'DELETE' })).status).toBeLessThan(300);
    expect(writes(first)).toBe(before.first + 2);
    expect(writes(second)).toBe(before.second);
  });

  it('start a job on a workflow replaced a moment before with the new one', async () => {
    const start = async () => {
      const response = await first.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'cached' } });
      expect(response.status).toBe(200);
      const { data } = await response.json();
      const job = await (await first.api(`/operations-manager/jobs/${data._id}`)).json();
      return job.data.description;
    };
    expect((await first.api('/workflows?overwrite=true', { method: 'POST', json: workflow('v1') })).status).toBeLessThan(300);
    expect(await start()).toBe('v1');
    expect((await first.api('/workflows?overwrite=true', { method: 'POST', json: workflow('v2') })).status).toBeLessThan(300);
    expect(await start()).toBe('v2');
  });
});
