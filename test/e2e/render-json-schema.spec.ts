// JsonForms' RenderJsonSchema: a manual task whose form is made from the jsonSchema it is
// given (no stored form), prefilled with formData; the operator fills it in the work queue and
// what they enter is the task's outgoing `export`.
import { test, expect } from './fixtures';

const workflow = {
  name: 'Ask with a schema',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    a1: {
      name: 'RenderJsonSchema',
      app: 'JsonForms',
      type: 'manual',
      location: 'Application',
      summary: 'Which site and device',
      variables: {
        incoming: {
          jsonSchema: {
            title: 'Site and device',
            type: 'object',
            required: ['device'],
            properties: { site: { type: 'string', title: 'Site' }, device: { type: 'string', title: 'Device' } },
          },
          uiSchema: {},
          bindingSchema: {},
          validationSchema: {},
          formData: { site: 'lab' },
        },
        outgoing: { export: '$var.job.answers' },
      },
    },
  },
  transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
};

test('a RenderJsonSchema task is filled from the schema it is given, and the job completes with what was entered', async ({ consolePage: page, host }) => {
  expect((await host.api('/workflows', { method: 'POST', json: workflow })).status).toBe(201);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: workflow.name } });
  expect(started.status).toBe(200);
  const job = (await started.json()).data as { _id: string };

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Work queue' }).click();
  await page.getByRole('table', { name: 'Tasks waiting for an operator' }).getByRole('row').filter({ hasText: workflow.name }).getByRole('button', { name: /^Which site and device/ }).click();
  const form = page.getByRole('form', { name: 'Form Site and device of a1' });
  await expect(form.getByLabel(/^Site/)).toHaveValue('lab');
  await form.getByRole('button', { name: 'Submit the form' }).click();
  await expect(form.getByRole('alert', { name: 'Form problems' })).toContainText('Required: Device');
  await expect(form.getByLabel(/^Device/)).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel(/^Device/).fill('core-9');
  await form.getByRole('button', { name: 'Submit the form' }).click();
  await expect(page.getByText('No task is waiting for an operator.')).toBeVisible();

  await expect.poll(async () => (await (await host.api(`/operations-manager/jobs/${job._id}`)).json()).data.status).toBe('complete');
  const done = await (await host.api(`/operations-manager/jobs/${job._id}`)).json();
  expect(done.data.variables.answers).toEqual({ site: 'lab', device: 'core-9' });
});
