// The JsonForms ShowJsonForm manual task, as the F5 BIG-IQ upgrade pre-built asks for license keys:
// the job waits; the operator opens the work queue, fills the form its form_id names (a real
// form of the Kentik pre-built, imported from ../shared/corpus/iap at run time) and submits it;
// what they entered is the task's outgoing `export`, and the job goes on.
import { existsSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';

const KENTIK = path.resolve(import.meta.dirname, '../..', '../shared/corpus/iap/prebuilts/Kentik-REST-Example');
const present = existsSync(KENTIK);
if (!present) console.warn(`JSON forms e2e skipped: no Kentik pre-built at ${KENTIK}`);
test.skip(!present, `no Kentik pre-built at ${KENTIK}`);

const FORM = 'Device Onboarding - Kentik - Example';

test('a ShowJsonForm task is filled in the work queue from its imported form, and the job completes with what was entered', async ({ consolePage: page, host }) => {
  const imported = await (await host.api('/projects/imports/path', { method: 'POST', json: { path: KENTIK } })).json();
  await expect.poll(async () => (await (await host.api(`/projects/imports/${imported.id}`)).json()).state, { timeout: 30_000 }).toBe('done');
  const workflow = {
    name: 'Onboard with a form',
    tasks: {
      workflow_start: { name: 'workflow_start' },
      workflow_end: { name: 'workflow_end' },
      fb1b: {
        name: 'ShowJsonForm',
        app: 'JsonForms',
        type: 'manual',
        location: 'Application',
        summary: 'Ask for the device to onboard',
        variables: { incoming: { form_id: FORM, instance_data: { iapUrl: 'https://iap.example' } }, outgoing: { export: '$var.job.onboarding' } },
      },
    },
    transitions: { workflow_start: { fb1b: { type: 'standard', state: 'success' } }, fb1b: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
  };
  expect((await host.api('/workflows', { method: 'POST', json: workflow })).status).toBe(201);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: workflow.name } });
  const answer = await started.json();
  expect(started.status, JSON.stringify(answer)).toBe(200);
  const job = answer.data as { _id: string };

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Work queue' }).click();
  await page.getByRole('table', { name: 'Tasks waiting for an operator' }).getByRole('row').filter({ hasText: workflow.name }).getByRole('button', { name: /^Ask for the device to onboard/ }).click();
  const form = page.getByRole('form', { name: `Form ${FORM} of fb1b` });
  // Fields are the form's titles; instance_data prefills them.
  await expect(form.getByLabel('IAP URL')).toHaveValue('https://iap.example');
  const serious = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  expect(serious).toEqual([]);
  await form.getByLabel('Device', { exact: true }).fill('ios-edge-1');
  await form.getByRole('button', { name: 'Submit the form' }).click();
  await expect(form.getByRole('alert')).toContainText('Required: ServiceNow URL, ServiceNow Adapter, NetBox Adapter, MS Teams Adapter, Kentik Adapter, Device Onboarding Webhook URL');
  for (const [label, value] of [
    ['ServiceNow URL', 'https://sn.example'],
    ['ServiceNow Adapter', 'servicenow'],
    ['NetBox Adapter', 'netbox'],
    ['MS Teams Adapter', 'teams'],
    ['Kentik Adapter', 'kentik'],
    ['Device Onboarding Webhook URL', 'https://hooks.example/onboard'],
  ] as const) {
    await form.getByLabel(label, { exact: true }).fill(value);
  }
  await form.getByRole('button', { name: 'Submit the form' }).click();
  await expect(page.getByText('No task is waiting for an operator.')).toBeVisible();

  await page.goto(`${host.url}/#/jobs/${job._id}`);
  await expect(page.getByLabel('Job status').first()).toContainText('complete');
  const done = await (await host.api(`/operations-manager/jobs/${job._id}`)).json();
  expect(done.data.variables.onboarding).toMatchObject({ deviceName: 'ios-edge-1', iapUrl: 'https://iap.example', kentikAdapter: 'kentik' });
});
