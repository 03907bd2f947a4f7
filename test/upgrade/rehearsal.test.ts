// POST /upgrade/rehearsals: the console's workflows run under the release a site upgrades from and
// under 2022.1, in a scratch store; the report names each workflow whose run changes.
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

let host: TestHost;

const codePointAt = workflow(
  'first-char',
  { cp: { name: 'codePointAt', variables: { incoming: { str: '$var.job.text', pos: 5 }, outgoing: { codePointValue: '$var.job.code' } } } },
  [['workflow_start', 'cp'], ['cp', 'workflow_end']],
);
const oneTask = workflow(
  'shout',
  { up: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.out' } } } },
  [['workflow_start', 'up'], ['up', 'workflow_end']],
);
const child = workflow('child-echo', { up: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: { uppercaseString: null } } } }, [
  ['workflow_start', 'up'],
  ['up', 'workflow_end'],
]);
const parent = workflow(
  'parent-undefined',
  { start: { name: 'childJob', variables: { incoming: { workflow: 'child-echo', variables: { given: '$var.job.absent' } }, outgoing: { job_details: null } } } },
  [['workflow_start', 'start'], ['start', 'workflow_end']],
);
const storesUndefined = workflow(
  'keeps-undefined',
  { keep: { name: 'newVariable', variables: { incoming: { name: 'kept', value: '$var.job.absent' }, outgoing: { value: null } } } },
  [['workflow_start', 'keep'], ['keep', 'workflow_end']],
);

const rehearse = (body: unknown) => host.api('/upgrade/rehearsals', { method: 'POST', json: body });
const scratchFolders = async () => (await readdir(os.tmpdir())).filter((f) => f.startsWith('console-rehearsal-'));

beforeAll(async () => {
  host = await startTestHost();
  for (const wf of [codePointAt, oneTask, child, parent, storesUndefined]) {
    const response = await host.api('/workflows', { method: 'POST', json: wf });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
  }
});
afterAll(async () => {
  await host.dispose();
});

async function jobsTotal(): Promise<number> {
  const total = ((await (await host.api('/operations-manager/jobs?limit=1')).json()) as { metadata: { total: number } }).metadata.total;
  expect(typeof total).toBe('number');
  return total;
}

describe('POST /upgrade/rehearsals', () => {
  it('from 2021.2: codePointAt out of range differs at that task, a one-task workflow is the same, the profile store is unchanged', async () => {
    const jobsBefore = await jobsTotal();
    const foldersBefore = await scratchFolders();
    const response = await rehearse({ workflows: ['first-char', 'shout'], from: '2021.2', variables: { 'first-char': { text: 'abc' }, shout: { text: 'abc' } } });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report).toMatchObject({ from: '2021.2', to: '2022.1', workflows: 2, same: 1, couldNotRun: [], inputsBuilt: [] });
    expect(report.differ).toHaveLength(1);
    const [differ] = report.differ;
    expect(differ.workflow).toBe('first-char');
    expect(differ.firstDivergence.task).toBe('cp');
    expect(differ.firstDivergence.before).toMatchObject({ reached: true, status: 'complete', outgoing: { codePointValue: '', status: 204 } });
    expect(differ.firstDivergence.after).toMatchObject({ reached: true, status: 'error' });
    expect(differ.firstDivergence.after.error).toContain('out of range');
    expect(differ.outcome.before.status).toBe('complete');
    expect(differ.outcome.after.status).not.toBe('complete');
    // Nothing ran in the profile's store, and the scratch folder is gone.
    expect(await jobsTotal()).toBe(jobsBefore);
    expect(await scratchFolders()).toEqual(foldersBefore);
  });

  it('from 2021.2: a child given an undefined variable receives undefined before, null after', async () => {
    const report = await (await rehearse({ workflows: ['parent-undefined'], from: '2021.2' })).json();
    expect(report.inputsBuilt).toEqual(['parent-undefined']);
    expect(report.differ).toHaveLength(1);
    const { firstDivergence } = report.differ[0];
    expect(firstDivergence.task).toBe('start');
    expect(firstDivergence.differs).toEqual(['outgoing']);
    expect(firstDivergence.before.outgoing.job_details.given).toBe('~4undefined');
    expect(firstDivergence.after.outgoing.job_details.given).toBeNull();
  });

  it('from 2021.1: a value stored undefined reads back as null before, undefined after; 2021.2 to 2022.1 keeps it', async () => {
    const from211 = await (await rehearse({ workflows: ['keeps-undefined'], from: '2021.1' })).json();
    expect(from211.differ).toHaveLength(1);
    expect(from211.differ[0].firstDivergence).toMatchObject({ task: 'keep', before: { outgoing: { value: null } }, after: { outgoing: { value: '~4undefined' } } });
    const from212 = await (await rehearse({ workflows: ['keeps-undefined'], from: '2021.2' })).json();
    expect(from212).toMatchObject({ workflows: 1, same: 1, differ: [] });
  });

  it('a long rehearsal answers 202 with its progress, and a cancel stops it and removes its scratch store', async () => {
    const slow = workflow('slow', { wait: { name: 'delay', variables: { incoming: { time: 60 }, outgoing: { time_in_milliseconds: null } } } }, [
      ['workflow_start', 'wait'],
      ['wait', 'workflow_end'],
    ]);
    expect((await host.api('/workflows', { method: 'POST', json: slow })).status).toBeLessThan(300);
    const foldersBefore = await scratchFolders();
    const response = await rehearse({ workflows: ['slow'], from: '2021.2' });
    expect(response.status).toBe(202);
    const run = await response.json();
    expect(response.headers.get('location')).toBe(`/upgrade/rehearsals/${run.id}`);
    expect(await (await host.api(`/upgrade/rehearsals/${run.id}`)).json()).toMatchObject({ id: run.id, state: 'running', done: 0, total: 1, workflow: 'slow' });
    const canceled = await (await host.api(`/upgrade/rehearsals/${run.id}/cancel`, { method: 'POST' })).json();
    expect(canceled.state).toBe('canceled');
    expect(await scratchFolders()).toEqual(foldersBefore);
    expect((await host.api('/upgrade/rehearsals/no-such-run')).status).toBe(404);
  });

  it('a workflow whose adapter task no simulated instance answers could not run, naming the app', async () => {
    const adapterTask = workflow('string-methods', { cp: { name: 'codePointAt', app: 'StringMethods', variables: { incoming: { str: 'abc', pos: 9 }, outgoing: { codePointValue: null } } } }, [
      ['workflow_start', 'cp'],
      ['cp', 'workflow_end'],
    ]);
    expect((await host.api('/workflows', { method: 'POST', json: adapterTask })).status).toBeLessThan(300);
    const report = await (await rehearse({ workflows: ['string-methods'], from: '2021.2' })).json();
    expect(report).toMatchObject({ workflows: 1, same: 0, differ: [] });
    expect(report.couldNotRun).toEqual([{ workflow: 'string-methods', why: expect.stringContaining('"StringMethods"') }]);
  });

  it('answers 400 naming the field for an unknown workflow, a bad release, or no workflows', async () => {
    const cases: [unknown, string][] = [
      [{ workflows: ['nope'], from: '2021.2' }, 'no workflow named "nope"'],
      [{ all: true, from: '2020.2' }, 'from'],
      [{ from: '2021.2' }, 'workflows'],
    ];
    for (const [body, text] of cases) {
      const response = await rehearse(body);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(text);
    }
  });
});
