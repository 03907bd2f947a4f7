// One reader of processTasksOnStart, as an operator sees it: saving it off in the Configure tab turns
// every indicator at once (the Configure tab's startup value, the status bar, attention, the profile
// list), while the worker's running state, a separate fact, stays as it was until the operator stops it.
import { test, expect } from './fixtures';

test('saving processTasksOnStart off: the Configure tab, status bar, attention and profile list agree; the worker runs on until stopped', async ({ consolePage: page, host }) => {
  await page.goto(`${host.url}/#/profiles/default/configure`);
  const bar = page.getByRole('status', { name: 'Status bar' });
  const startup = page.getByLabel('Task worker at startup');
  await expect(startup).toHaveText('(at startup: works tasks)');
  await expect(bar).toContainText('Task worker running');
  await expect(bar).toContainText('At startup: works tasks');

  await page.getByLabel(/Work tasks when the server starts/).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved: the task worker does not work tasks at startup.')).toBeVisible();
  // Every reader says the same at once (no wait for a poll: the save reads them again).
  await expect(startup).toHaveText('(at startup: does not work tasks)', { timeout: 1500 });
  await expect(bar).toContainText('At startup: does not work tasks', { timeout: 1500 });
  await expect(bar).toContainText('Standby working tasks', { timeout: 1500 });
  // The running state is its own fact: the save did not stop the worker.
  await expect(page.getByLabel('Task worker state')).toHaveText('running');
  await expect(bar).toContainText('Task worker running');
  const api = await (await host.api('/workflow_engine/workers/status')).json();
  expect(api.taskWorker).toMatchObject({ running: true, startupValue: false });

  await page.getByRole('button', { name: 'Stop the task worker' }).click();
  await page.getByRole('dialog', { name: 'Stop the task worker on this server?' }).getByRole('button', { name: 'Yes, stop it' }).click();
  await expect(page.getByLabel('Task worker state')).toHaveText('stopped');
  await expect(bar).toContainText('Task worker stopped');
  await expect(bar).not.toContainText('Standby working tasks', { timeout: 1500 });

  await page.goto(`${host.url}/#/profiles`);
  await expect(page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /default/ })).toContainText('no');
  await expect(bar).toContainText('At startup: does not work tasks');
});
