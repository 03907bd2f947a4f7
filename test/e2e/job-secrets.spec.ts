// A job's secret variables in the browser: masked on the job page until Reveal, which the console
// log records (the Logs API shows the line naming the job and the variable) before the value shows.
import { test, expect } from './fixtures';

test("a job's password variable is masked on its page until revealed, and the reveal is logged", async ({ consolePage: page, host }) => {
  await host.api('/workflows', { method: 'POST', json: { name: 'e2e-secret', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } } });
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'e2e-secret', options: { variables: { device: 'edge-1', password: 'pw-E2e-Planted' } } } });
  const id = ((await started.json()) as { data: { _id: string } }).data._id;

  await page.goto(`${host.url}/#/jobs/${id}`);
  const variables = page.getByLabel('Job variables');
  await expect(variables).toContainText('"device": "edge-1"');
  await expect(variables).toContainText('"password": "********"');
  await expect(page.locator('body')).not.toContainText('pw-E2e-Planted');

  await page.getByRole('button', { name: 'Reveal secrets' }).click();
  await expect(variables).toContainText('"password": "pw-E2e-Planted"');
  const logs = (await (await host.api(`/logs?job=${id}`)).json()) as { results: { msg: string }[] };
  expect(logs.results.map((entry) => entry.msg)).toContainEqual(expect.stringContaining(`revealed the secret variables password of job ${id}`));
});
