// A retry loop as the service's exports build one: a task, then ViewData asking the
// operator; "Retry" follows a revert transition back to the task, which runs again
// as a new iteration. The operator works it from the job page and sees each iteration.
import { test, expect } from './fixtures';

const retryLoop = {
  name: 'e2e-retry-loop',
  type: 'automation',
  errorHandler: null,
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [], nodeLocation: { x: 0, y: 0 } },
    workflow_end: { name: 'workflow_end', groups: [], nodeLocation: { x: 900, y: 0 } },
    call: {
      name: 'push',
      app: 'WorkFlowEngine',
      type: 'automatic',
      location: 'Application',
      displayName: 'WorkFlowEngine',
      groups: [],
      scheduled: false,
      nodeLocation: { x: 300, y: 0 },
      variables: { incoming: { job_variable: 'attempts', item: { task: 'job', variable: 'device', editable: true } }, outgoing: {}, error: '' },
    },
    ask: {
      name: 'ViewData',
      app: 'WorkFlowEngine',
      type: 'manual',
      location: 'Application',
      groups: [],
      view: '/workflow_engine/task/ViewData',
      nodeLocation: { x: 600, y: 0 },
      variables: {
        incoming: { header: 'Could not configure the device', message: 'Retry the call?', body: '$var.job.attempts', variables: '', btn_success: 'Retry', btn_failure: 'Give up' },
        outgoing: {},
      },
    },
  },
  transitions: {
    workflow_start: { call: { type: 'standard', state: 'success' } },
    call: { ask: { type: 'standard', state: 'success' } },
    ask: { call: { type: 'revert', state: 'success' }, workflow_end: { type: 'standard', state: 'failure' } },
    workflow_end: {},
  },
};

test('a revert retry loop: the operator retries from the job page and sees each iteration', async ({ consolePage: page, host }) => {
  const imported = await host.api('/workflows', { method: 'POST', json: retryLoop });
  expect(imported.status, await imported.text()).toBeLessThan(300);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'e2e-retry-loop', options: { variables: { device: 'r1' } } } });
  expect(started.status).toBeLessThan(300);
  const id = ((await started.json()) as { data: { _id: string } }).data._id;

  await page.goto(`${host.url}/#/jobs/${id}`);
  await expect(page.getByRole('heading', { name: /e2e-retry-loop/ })).toBeVisible();
  const ask = page.getByRole('group', { name: 'View data of ask' });
  await expect(ask.getByRole('heading', { name: 'Could not configure the device' })).toBeVisible();
  await expect(ask.getByLabel('body of ask')).toContainText('"r1"');

  // Retry twice: each time the call runs again, as a new iteration.
  await ask.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('row', { name: 'Task call iteration 2' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'View data of ask' }).getByLabel('body of ask')).toContainText(/"r1",\s*"r1"/);
  await page.getByRole('group', { name: 'View data of ask' }).getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('row', { name: 'Task call iteration 3' })).toBeVisible();

  // Give up: the failure transition ends the job.
  await page.getByRole('group', { name: 'View data of ask' }).getByRole('button', { name: 'Give up' }).click();
  await expect(page.getByLabel('Job status')).toHaveText('complete');
  for (const n of [1, 2, 3]) {
    const row = page.getByRole('row', { name: `Task call iteration ${n}`, exact: true });
    await expect(row.getByLabel('iteration of call')).toHaveText(`iteration ${n} of 3`);
    await expect(row.getByLabel('status of call')).toHaveText('complete');
  }
  await expect(page.getByRole('row', { name: 'Task ask iteration 3', exact: true }).getByLabel('status of ask')).toHaveText('failure');
  await expect(page.getByLabel('Job variables')).toContainText(/"attempts": \[\s*"r1",\s*"r1",\s*"r1"\s*\]/);
});
