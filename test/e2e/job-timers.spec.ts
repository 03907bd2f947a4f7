// A job waiting on a delay (a durable timer): the job page says until when, on the task's row
// and for the job, and so does its row in the Jobs list; the wait holds no worker slot.
import { test, expect } from './fixtures';

const waits = {
  name: 'e2e-waits',
  type: 'automation',
  errorHandler: null,
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [], nodeLocation: { x: 0, y: 0 } },
    workflow_end: { name: 'workflow_end', groups: [], nodeLocation: { x: 600, y: 0 } },
    wait: {
      name: 'delay',
      app: 'WorkFlowEngine',
      type: 'automatic',
      location: 'Application',
      summary: 'Wait for the device to reboot',
      groups: [],
      nodeLocation: { x: 300, y: 0 },
      variables: { incoming: { time: 600 }, outgoing: { time_in_milliseconds: null }, error: '' },
    },
  },
  transitions: {
    workflow_start: { wait: { type: 'standard', state: 'success' } },
    wait: { workflow_end: { type: 'standard', state: 'success' } },
    workflow_end: {},
  },
};

test('a job waiting on a delay shows "waiting until HH:MM:SS" on its page and in the Jobs list', async ({ consolePage: page, host }) => {
  const imported = await host.api('/workflows', { method: 'POST', json: waits });
  expect(imported.status, await imported.text()).toBeLessThan(300);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'e2e-waits', options: {} } });
  expect(started.status).toBeLessThan(300);
  const id = ((await started.json()) as { data: { _id: string } }).data._id;

  await page.goto(`${host.url}/#/jobs/${id}`);
  await expect(page.getByRole('heading', { name: /e2e-waits/ })).toBeVisible();
  const row = page.getByRole('row', { name: 'Task wait' });
  await expect(row.getByLabel('timer of wait')).toHaveText(/^\s*waiting until \d\d:\d\d:\d\d$/);
  await expect(page.getByLabel('job timer')).toContainText(/waiting until \d\d:\d\d:\d\d \(wait; no worker slot is held meanwhile\)/);
  // About ten minutes from now, as the delay asked.
  const shown = ((await row.getByLabel('timer of wait').textContent()) ?? '').trim().slice('waiting until '.length);
  const [h, m, s] = shown.split(':').map(Number) as [number, number, number];
  const due = new Date();
  due.setHours(h, m, s, 0);
  if (due.getTime() < Date.now() - 60_000) due.setDate(due.getDate() + 1);
  expect(Math.abs(due.getTime() - (Date.now() + 600_000))).toBeLessThan(60_000);

  await page.goto(`${host.url}/#/jobs`);
  await expect(page.getByLabel(`timer of ${id}`)).toHaveText(/^waiting until \d\d:\d\d:\d\d$/);
  await expect(page.getByLabel(`current task of ${id}`)).toHaveText('at Wait for the device to reboot');

  const canceled = await host.api(`/operations-manager/jobs/${id}/cancel`, { method: 'POST', json: {} });
  expect(canceled.status, await canceled.text()).toBeLessThan(300);
});
