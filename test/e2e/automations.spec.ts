// Operations Manager automations end to end: an endpoint trigger called the way a webhook
// calls it (an HTTP POST with a JSON body, no UI) starts a job the operator then sees in the
// UI; an automation and a manual trigger made on the Automations page run from there; and a
// pre-built's automations (the project's own, and the real Kentik one when ../shared is there)
// are listed with their triggers after an import.
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { CORPUS_TAG, corpus, fixtures, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';
import type { TestHost } from '../support/host';

noteCorpusSkip("listing the real Kentik pre-built's automations");

/** A workflow whose one task copies the job variable `device` into `seen`. */
const workflow = {
  name: 'Remember Device',
  type: 'automation',
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [] },
    a1: {
      name: 'newVariable',
      app: 'WorkFlowEngine',
      type: 'operation',
      location: 'Application',
      summary: 'Remember the device',
      variables: { incoming: { name: 'seen', value: '$var.job.device' }, outgoing: { value: null } },
      groups: [],
      actor: 'Pronghorn',
    },
    workflow_end: { name: 'workflow_end', groups: [] },
  },
  transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
};

async function post(host: TestHost, path: string, json: unknown) {
  const res = await host.api(path, { method: 'POST', json });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return ((await res.json()) as { data: { _id: string } }).data;
}

test('a webhook POST to an endpoint trigger starts a job the operator sees in the UI', async ({ host, consolePage: page }) => {
  await host.api('/workflows', { method: 'POST', json: workflow });
  const automation = await post(host, '/operations-manager/automations', { name: 'Alert intake', componentType: 'workflows', componentName: 'Remember Device' });
  await post(host, '/operations-manager/triggers', {
    name: 'Monitoring alert',
    type: 'endpoint',
    actionId: automation._id,
    routeName: 'alert-hook',
    verb: 'POST',
    schema: { type: 'object', required: ['device'], properties: { device: { type: 'string' } } },
  });

  // The monitoring system's webhook: a plain HTTP POST with a JSON body.
  const hook = `${host.url}/operations-manager/triggers/endpoint/alert-hook`;
  const headers = { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' };
  const refused = await fetch(hook, { method: 'POST', headers, body: JSON.stringify({ host: 'core-1' }) });
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { message: string }).message).toContain('body.device');
  const answer = await fetch(hook, { method: 'POST', headers, body: JSON.stringify({ device: 'core-1', severity: 'major' }) });
  expect(answer.status).toBe(200);
  const job = ((await answer.json()) as { data: { _id: string; name: string } }).data;
  expect(job.name).toBe('Remember Device');

  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  const row = page.getByRole('row', { name: new RegExp(`Remember Device complete ${job._id}`) });
  await expect(row).toBeVisible();
  await row.getByRole('link', { name: 'Remember Device' }).click();
  await expect(page.getByText('core-1').first()).toBeVisible();

  await page.getByRole('link', { name: 'Automations' }).click();
  const automationRow = page.getByRole('table', { name: 'Automations' }).getByRole('row', { name: 'Alert intake' });
  await expect(automationRow).toContainText('POST /operations-manager/triggers/endpoint/alert-hook');
  // When the trigger last ran its automation, as the service keeps it (lastExecuted).
  await expect(automationRow.getByRole('listitem', { name: 'Trigger Monitoring alert' })).toContainText(/last ran \S/);
  await expect(automationRow.getByRole('list', { name: 'Recent jobs of Alert intake' })).toContainText('complete');
});

test('an automation and a manual trigger made on the Automations page run from there, and are deleted there', async ({ host, consolePage: page }) => {
  await host.api('/workflows', { method: 'POST', json: workflow });
  await page.getByRole('link', { name: 'Automations' }).click();
  await expect(page.getByText('No automation yet')).toBeVisible();
  await page.getByRole('button', { name: 'New automation' }).click();
  const form = page.getByRole('form', { name: 'New automation' });
  await form.getByLabel('Name').fill('By hand');
  await form.getByLabel('Workflow').selectOption('Remember Device');
  await form.getByRole('button', { name: 'Create' }).click();

  const row = page.getByRole('table', { name: 'Automations' }).getByRole('row', { name: 'By hand' });
  await expect(row).toContainText('Remember Device');
  await row.getByRole('button', { name: 'Add trigger to By hand' }).click();
  const trigger = row.getByRole('form', { name: 'New trigger' });
  await trigger.getByLabel('Trigger name').fill('Operator');
  await trigger.getByRole('button', { name: 'Add trigger' }).click();
  await row.getByRole('button', { name: 'Run By hand by Operator' }).click();
  await expect(row.getByRole('status')).toContainText('Started job');
  await expect(row.getByRole('list', { name: 'Recent jobs of By hand' }).getByRole('link')).toHaveCount(1);

  await row.getByRole('button', { name: 'Edit By hand' }).click();
  const edit = row.getByRole('form', { name: 'Edit automation By hand' });
  await edit.getByLabel('Description').fill('started by the operator');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('started by the operator');

  await row.getByRole('button', { name: 'Delete By hand' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByText('No automation yet')).toBeVisible();
});

test('a schedule trigger made on the Automations page says when it runs next; one due runs its job by itself', async ({ host, consolePage: page }) => {
  await host.api('/workflows', { method: 'POST', json: workflow });
  const automation = await post(host, '/operations-manager/automations', { name: 'Nightly', componentType: 'workflows', componentName: 'Remember Device' });
  await page.getByRole('link', { name: 'Automations' }).click();
  const row = page.getByRole('table', { name: 'Automations' }).getByRole('row', { name: 'Nightly' });
  await row.getByRole('button', { name: 'Add trigger to Nightly' }).click();
  const form = row.getByRole('form', { name: 'New trigger' });
  await form.getByLabel('Trigger name').fill('Every day');
  await form.getByLabel('Type').selectOption('schedule');
  // Tomorrow at 09:00 local time, every day.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const local = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}T09:00`;
  await form.getByLabel('First run').fill(local);
  await form.getByLabel('Repeat every').fill('1');
  await form.getByLabel('Repeat unit').selectOption('day');
  await form.getByRole('button', { name: 'Add trigger' }).click();
  const line = row.getByRole('listitem', { name: 'Trigger Every day' });
  await expect(line).toContainText('every 1 day · next run');
  await expect(line).toContainText(new Date(`${local}:00`).toLocaleString());
  await expect(line).toContainText('never ran');

  // A schedule due now (made over the API, as the vendor's operator guide makes one) runs its job without anyone.
  await post(host, '/operations-manager/triggers', { name: 'Right away', type: 'schedule', actionId: automation._id, firstRunAt: Date.now() + 500, repeatInterval: 3_600_000, formData: { device: 'core-7' }, legacyWrapper: false });
  await expect(row.getByRole('list', { name: 'Recent jobs of Nightly' }).getByRole('link')).toHaveCount(1, { timeout: 15_000 });
  await expect(row.getByRole('listitem', { name: 'Trigger Right away' })).toContainText(/every 1 hour · next run .*last ran/);
});

const prebuilts = [
  {
    tag: FIXTURES_TAG,
    folder: fixtures.prebuilt('Instance-Check-Example'),
    automations: { 'Change Request Webhook - Example': 'POST /operations-manager/triggers/endpoint/change-request-webhook', 'Onboard Device - Example': 'Onboard with the form' },
  },
  {
    tag: CORPUS_TAG,
    folder: corpus.prebuilt('Kentik-REST-Example'),
    automations: {
      'AWS Blocked Traffic - Kentik - Example': 'POST /operations-manager/triggers/endpoint/test-webhook',
      'AWS Blocked Traffic - Reset - Kentik - Example': 'manual',
      'Device Onboarding - Kentik - Example': 'Start Device Onboarding - Kentik with Form',
      'Device Onboarding - Reset - Kentik - Example': 'manual',
    },
  },
];

for (const c of prebuilts) {
  test.describe(c.tag, () => {
    test.skip(!existsSync(c.folder), `no pre-built at ${c.folder} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`);

    test(`an imported pre-built's automations are listed with their triggers ${c.tag}`, async ({ consolePage: page }) => {
      await page.getByRole('link', { name: 'Import' }).click();
      await page.getByLabel('Pre-built folder').setInputFiles(c.folder);
      await expect(page.getByRole('status', { name: 'Import summary' })).toContainText('0 refused');

      await page.getByRole('link', { name: 'Automations' }).click();
      const table = page.getByRole('table', { name: 'Automations' });
      for (const [name, trigger] of Object.entries(c.automations)) await expect(table.getByRole('row', { name, exact: true })).toContainText(trigger);
      await expect(table.getByRole('row')).toHaveCount(Object.keys(c.automations).length + 1);
      if (c.tag === FIXTURES_TAG) {
        // A manual trigger with a form asks for it; a start the console refuses (the workflow needs an adapter it lacks) says why.
        const onboard = table.getByRole('row', { name: 'Onboard Device - Example', exact: true });
        await onboard.getByRole('button', { name: 'Run Onboard Device - Example by Onboard with the form' }).click();
        const form = onboard.getByRole('form', { name: 'Form Device Onboarding - Example' });
        await form.getByRole('button', { name: 'Run with these values' }).click();
        await expect(form.getByRole('alert')).toContainText('Required: deviceName');
        await form.getByLabel('Device name').fill('edge-7');
        await form.getByRole('button', { name: 'Run with these values' }).click();
        await expect(onboard.getByRole('alert')).toContainText('Cannot run: workflow "Onboard Device - Example" cannot start: it needs Servicenow');
      }
      // The page full of automations, triggers and a form open holds no serious or critical WCAG 2.1 AA violation.
      await table.getByRole('button', { name: /^Add trigger to / }).first().click();
      const serious = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
      expect(serious).toEqual([]);
    });
  });
}
