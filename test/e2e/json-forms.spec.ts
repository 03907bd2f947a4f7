// The JsonForms ShowJsonForm manual task, as the F5 BIG-IQ upgrade pre-built asks for license keys:
// the job waits; the operator opens the work queue, fills the form its form_id names (a real
// form of a pre-built: the project's own (test/fixtures/iap), and the Kentik pre-built's, imported
// from ../shared/corpus/iap at run time when it is there) and submits it; what they entered is the
// task's outgoing `export`, and the job goes on.
import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { CORPUS_TAG, corpus, fixtures, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('the JSON form of the real Kentik pre-built');

const cases = [
  {
    tag: FIXTURES_TAG,
    folder: fixtures.prebuilt('Instance-Check-Example'),
    form: 'Device Onboarding - Example',
    instanceData: { site: 'lab' },
    prefilled: ['Site', 'lab'],
    first: ['Device name', 'core-7'],
    required: '',
    rest: [] as (readonly [string, string])[],
    result: { deviceName: 'core-7', site: 'lab' },
  },
  {
    tag: CORPUS_TAG,
    folder: corpus.prebuilt('Kentik-REST-Example'),
    form: 'Device Onboarding - Kentik - Example',
    instanceData: { iapUrl: 'https://iap.example' },
    prefilled: ['IAP URL', 'https://iap.example'],
    first: ['Device', 'ios-edge-1'],
    required: 'Required: ServiceNow URL, ServiceNow Adapter, NetBox Adapter, MS Teams Adapter, Kentik Adapter, Device Onboarding Webhook URL',
    rest: [
      ['ServiceNow URL', 'https://sn.example'],
      ['ServiceNow Adapter', 'servicenow'],
      ['NetBox Adapter', 'netbox'],
      ['MS Teams Adapter', 'teams'],
      ['Kentik Adapter', 'kentik'],
      ['Device Onboarding Webhook URL', 'https://hooks.example/onboard'],
    ] as const,
    result: { deviceName: 'ios-edge-1', iapUrl: 'https://iap.example', kentikAdapter: 'kentik' },
  },
];

for (const c of cases) test.describe(c.tag, () => {
  test.skip(!existsSync(c.folder), `no pre-built at ${c.folder} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`);
  const FORM = c.form;

  test(`a ShowJsonForm task is filled in the work queue from its imported form, and the job completes with what was entered ${c.tag}`, async ({ consolePage: page, host }) => {
    const imported = await (await host.api('/projects/imports/path', { method: 'POST', json: { path: c.folder } })).json();
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
          variables: { incoming: { form_id: FORM, instance_data: c.instanceData }, outgoing: { export: '$var.job.onboarding' } },
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
    await expect(form.getByLabel(c.prefilled[0]!)).toHaveValue(c.prefilled[1]!);
    const serious = (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
    expect(serious).toEqual([]);
    if (!c.required) {
      // Nothing entered yet: the form's own required field is named.
      await form.getByRole('button', { name: 'Submit the form' }).click();
      await expect(form.getByRole('alert', { name: 'Form problems' })).toContainText(`Required: ${c.first[0]}`);
      // The empty field says so under itself, too.
      await expect(form.getByLabel(c.first[0]!, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    }
    await form.getByLabel(c.first[0]!, { exact: true }).fill(c.first[1]!);
    if (c.required) {
      await form.getByRole('button', { name: 'Submit the form' }).click();
      await expect(form.getByRole('alert', { name: 'Form problems' })).toContainText(c.required);
    }
    for (const [label, value] of c.rest) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Submit the form' }).click();
    await expect(page.getByText('No task is waiting for an operator.')).toBeVisible();

    await page.goto(`${host.url}/#/jobs/${job._id}`);
    await expect(page.getByLabel('Job status').first()).toContainText('complete');
    const done = await (await host.api(`/operations-manager/jobs/${job._id}`)).json();
    expect(done.data.variables.onboarding).toMatchObject(c.result);
  });
});
