// Rehearsing a workflow without its devices, as an operator does it: import the project's own
// pre-built, open a workflow that needs an adapter the profile lacks, "Simulate what is missing",
// start a job and see it complete, the job, its task and the adapter marked SIMULATED.
import { test, expect } from './fixtures';
import { fixtures } from '../support/iap';

const WORKFLOW = 'Wait for Device Sync - Example';

test('simulate what is missing on the workflow page, start, and the job completes marked SIMULATED', async ({ consolePage: page, host }) => {
  await page.getByRole('link', { name: 'Import' }).click();
  await page.getByLabel('Pre-built folder').setInputFiles(fixtures.prebuilt('Instance-Check-Example'));
  await expect(page.getByRole('status', { name: 'Import summary' })).toContainText('13 imported');
  // The import summary offers it too, for every imported workflow that lacks a part.
  await expect(page.getByRole('button', { name: 'Simulate what is missing' })).toBeVisible();

  await page.goto(`${host.url}/#/workflows/${encodeURIComponent(WORKFLOW)}`);
  const needs = page.getByRole('region', { name: `What ${WORKFLOW} needs` });
  await expect(needs).toContainText('Inventory');
  await needs.getByRole('button', { name: 'Simulate what is missing' }).click();
  // Nothing is missing any more: the needs give way to Start.
  await expect(page.getByLabel(`State of ${WORKFLOW}`)).toContainText('Ready');

  await page.getByRole('button', { name: 'Start job' }).click();
  const form = page.getByRole('form', { name: `Start a job of ${WORKFLOW}` });
  await form.getByLabel('deviceName').fill('edge-1');
  await form.getByRole('button', { name: 'Start', exact: true }).click();
  await form.getByRole('status').getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1 })).toContainText('SIMULATED');
  await expect(page.getByLabel('Job status')).toContainText(/complete/i);
  await expect(page.getByLabel('s101 answered by a simulated adapter')).toBeVisible();

  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: WORKFLOW }).getByText('SIMULATED', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Adapters' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Inventory' }).getByText('SIMULATED', { exact: true })).toBeVisible();
});

test('record a real instance\'s calls on its page, then replay them from a simulated instance', async ({ consolePage: page, host }) => {
  const sample = await (await host.api('/adapter-packages/sample?package=%40automation%2Fadapter-example&name=example')).json();
  expect((await host.api('/adapters', { method: 'POST', json: { properties: sample.data } })).status).toBe(200);
  const flow = {
    name: 'Echo once',
    tasks: {
      workflow_start: { name: 'workflow_start' },
      workflow_end: { name: 'workflow_end' },
      e1: { name: 'echo', app: 'example', type: 'automatic', variables: { incoming: { message: 'ping' }, outgoing: { result: null } } },
    },
    transitions: { workflow_start: { e1: { type: 'standard', state: 'success' } }, e1: { workflow_end: { type: 'standard', state: 'success' } } },
  };
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);

  await page.goto(`${host.url}/#/adapters/example`);
  await page.getByLabel('Calls to record').fill('1');
  await page.getByRole('button', { name: 'Record calls' }).click();
  await expect(page.getByText(/recording [0-9a-f-]{36}/)).toBeVisible();
  expect((await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Echo once' } })).status).toBe(200);

  const recordings = page.getByRole('table', { name: 'Recordings' });
  await expect(recordings.getByRole('row').filter({ hasText: 'example' })).toContainText('1');
  page.once('dialog', (dialog) => void dialog.accept('example-replay'));
  await recordings.getByRole('button', { name: 'Make a simulated instance' }).click();
  await expect(page.getByText('simulated adapter "example-replay" made from recording')).toBeVisible();
  await expect(page.getByRole('row', { name: 'example-replay' }).getByText('SIMULATED', { exact: true })).toBeVisible();
});
