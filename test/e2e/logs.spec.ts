// The Logs page as an operator uses it: the live tail shows a job's entries as it runs,
// filtered by level, job and text, and downloads what it shows.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';

const failing = {
  name: 'e2e-log-failing',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    cp: { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'abc', pos: -1 }, outgoing: {} } },
  },
  transitions: {
    workflow_start: { cp: { type: 'standard', state: 'success' } },
    cp: { workflow_end: { type: 'standard', state: 'success' } },
  },
};

test('follow a job in the Logs page, filter by level and job, and download the entries', async ({ consolePage: page, host }) => {
  await page.getByRole('link', { name: 'Logs' }).click();
  await expect(page.getByRole('heading', { name: 'Logs' })).toBeVisible();
  const entries = page.getByRole('table', { name: 'Log entries' });
  await expect(entries).toContainText('console started');

  // A job started now shows up in the live tail without reloading.
  expect((await host.api('/workflows', { method: 'POST', json: failing })).status).toBe(201);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'e2e-log-failing' } });
  const id = ((await started.json()) as { data: { _id: string } }).data._id;
  await expect(entries).toContainText('job of workflow "e2e-log-failing" started');
  await expect(entries).toContainText('task cp (codePointAt) ended in error');

  // Errors only: the job's start (info) goes, its task error stays.
  await page.getByLabel('Level').selectOption('error');
  await expect(entries).toContainText('task cp (codePointAt) ended in error');
  await expect(entries).not.toContainText('console started');
  await expect(entries).not.toContainText('job of workflow "e2e-log-failing" started');

  // One job's entries, at any level.
  await page.getByLabel('Level').selectOption('');
  await page.getByLabel('Job').fill(id);
  await expect(entries).toContainText('job of workflow "e2e-log-failing" started');
  await expect(entries).not.toContainText('console started');
  await expect(entries.getByRole('link', { name: id }).first()).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Download/ }).click()]);
  const lines = (await readFile((await download.path()), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { jobId?: string; msg: string });
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.every((line) => line.jobId === id)).toBe(true);
  expect(lines.some((line) => line.msg.startsWith('task cp (codePointAt) ended in error'))).toBe(true);
});
