// Jobs in the browser: import a workflow (API), start a job, finish its manual task
// on the job page, and see the job complete with the expected variables; the
// Jobs list; the Configure tab's worker control and servers.
import { test, expect } from './fixtures';

const approval = {
  name: 'e2e-approval',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    ask: { name: 'approve', app: 'WorkFlowEngine', type: 'manual', variables: { incoming: { change: '$var.job.change' }, outgoing: { decision: '$var.job.decision' } } },
    shout: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.ask.decision' }, outgoing: { uppercaseString: '$var.job.loud' } } },
  },
  transitions: {
    workflow_start: { ask: { type: 'standard', state: 'success' } },
    ask: { shout: { type: 'standard', state: 'success' } },
    shout: { workflow_end: { type: 'standard', state: 'success' } },
  },
};

test('start a job, finish its manual task in the UI, and see it complete with the expected variables', async ({ consolePage: page, host }) => {
  expect((await host.api('/workflows', { method: 'POST', json: approval })).status).toBeLessThan(300);
  const started = await host.api('/operations-manager/jobs/start', {
    method: 'POST',
    json: { workflow: 'e2e-approval', options: { description: 'CR-42', variables: { change: 'CR-42', ticket: null } } },
  });
  const id = ((await started.json()) as { data: { _id: string } }).data._id;

  // The Jobs list shows it; its row opens the job page.
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.getByRole('row', { name: new RegExp(`^e2e-approval (running|waiting for an operator) ${id}$`) }).click();
  await expect(page.getByRole('heading', { name: /e2e-approval/ })).toBeVisible();
  await expect(page.getByLabel('Job status')).toHaveText('waiting for an operator');

  const ask = page.getByRole('row', { name: 'Task ask' });
  await expect(ask.getByLabel('status of ask')).toHaveText('waiting for an operator');
  await ask.getByRole('button', { name: 'Finish…' }).click();
  const form = page.getByRole('form', { name: 'Finish task ask' });
  await expect(page.getByLabel('incoming of ask')).toContainText('"change": "CR-42"');
  await form.getByLabel('decision').fill('approved');
  await form.getByRole('button', { name: 'Finish task' }).click();

  await expect(page.getByLabel('Job status')).toHaveText('complete');
  await expect(page.getByRole('row', { name: 'Task shout' }).getByLabel('status of shout')).toHaveText('complete');
  const variables = page.getByLabel('Job variables');
  await expect(variables).toContainText('"decision": "approved"');
  await expect(variables).toContainText('"loud": "APPROVED"');
  await expect(variables).toContainText('"ticket": null');
});

test('undefined values read undefined, apart from null', async ({ consolePage: page, host }) => {
  await host.api('/workflows', { method: 'POST', json: { name: 'e2e-noop', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } } });
  const job = await host.state.runtime.engine.runner.start('e2e-noop', { variables: { gone: undefined, none: null } });
  await page.goto(`${host.url}/#/jobs/${job._id}`);
  const variables = page.getByLabel('Job variables');
  await expect(variables).toContainText('"gone": undefined');
  await expect(variables).toContainText('"none": null');
});

test('the Configure tab stops and starts the task worker now and lists the servers working tasks', async ({ consolePage: page, host }) => {
  await page.goto(`${host.url}/#/profiles/default/configure`);
  await expect(page.getByLabel('Task worker state')).toHaveText('running');
  const servers = page.getByRole('table', { name: 'Servers working tasks' });
  await expect(servers).toContainText('this server');
  await expect(servers).toContainText('working tasks');
  await page.getByRole('button', { name: 'Stop the task worker' }).click();
  await page.getByRole('dialog', { name: 'Stop the task worker on this server?' }).getByRole('button', { name: 'Yes, stop it' }).click();
  await expect(page.getByLabel('Task worker state')).toHaveText('stopped');
  await expect(servers).toContainText('not working tasks');
  await expect(page.getByRole('status', { name: 'Status bar' })).toContainText('Task worker stopped');
  await page.getByRole('button', { name: 'Start the task worker' }).click();
  await expect(page.getByLabel('Task worker state')).toHaveText('running');

  // processTasksOnStart is saved in properties.json: the startup value (test/e2e/startup-value.spec.ts has every indicator).
  const box = page.getByLabel(/Work tasks when the server starts/);
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved: the task worker does not work tasks at startup.')).toBeVisible();
  const { readProperties } = await import('../../core/profiles/directory');
  expect((await readProperties(host.dataDir, 'default')).processTasksOnStart).toBe(false);
  // The worker keeps running until the next start.
  await expect(page.getByLabel('Task worker state')).toHaveText('running');
});

test('the Configure tab warns when two servers work tasks on the same database', async ({ consolePage: page, host }) => {
  // Another server (a DR standby started by mistake) beats on the same database.
  await host.state.runtime.store.collection('wfe_workers').insertOne({ _id: 'dr-standby-id', serverName: 'dr-standby-01', taskWorker: true, heartbeatAt: Date.now() });
  await page.goto(`${host.url}/#/profiles/default/configure`);
  await expect(page.getByRole('alert')).toContainText('2 servers are working tasks on this database');
  await expect(page.getByRole('table', { name: 'Servers working tasks' }).getByRole('row', { name: /dr-standby-01/ })).toContainText('working tasks');
  await host.state.runtime.store.collection('wfe_workers').deleteOne({ _id: 'dr-standby-id' });
});
