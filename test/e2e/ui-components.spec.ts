// The shared components as an operator meets them (issue #42 items 1, 4, 6, 11): "Cancel job"
// clicked once asks and leaves the job running; Escape and the back-out button close the question
// with focus back on the button; "/" focuses the page's search box and typing filters the rows;
// "?" lists the shortcuts; "Took" sorts by duration; "Select all N matching" acts on the filter.
// axe finds no serious issue on the pages touched, the confirmation open.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { APPROVAL, seedCockpit } from '../support/cockpit';
import type { TestHost } from '../support/host';

async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const jobStatus = async (host: TestHost, id: string) => ((await (await host.api(`/operations-manager/jobs/${id}`)).json()) as { data: { status: string } }).data.status;

/** Jobs written straight into the store (no tasks): many, quickly, with the times chosen. */
async function insertJobs(host: TestHost, name: string, jobs: { start: number; took?: number }[]) {
  await host.state.runtime.store.collection('jobs').insertMany(
    jobs.map((job, i) => ({
      _id: `${name}-${String(i).padStart(4, '0')}`,
      name,
      description: `${name} ${i}`,
      status: job.took === undefined ? 'running' : 'complete',
      variables: {},
      metrics: { start_time: job.start, ...(job.took !== undefined ? { end_time: job.start + job.took } : {}), user: 'e2e' },
      children: [],
      tasks: {},
      transitions: {},
    })),
  );
}

test.use({ viewport: { width: 1366, height: 900 } });

test('"Cancel job" clicked once asks and leaves the job running; Escape and Back return focus; Yes cancels it', async ({ consolePage: page, host }) => {
  const seeded = await seedCockpit(host, { errored: 0, waiting: 1 });
  const id = seeded.waiting[0]!;
  await page.goto(`${host.url}/#/jobs/${id}`);
  const cancel = page.getByRole('button', { name: 'Cancel job' });
  await cancel.click();
  const ask = page.getByRole('dialog', { name: `Cancel the job of “${APPROVAL}”?` });
  await expect(ask).toContainText('cannot be undone');
  await expect(ask).toContainText('a paused job can be resumed');
  await expect(ask.getByRole('button', { name: 'Keep it running' })).toBeFocused();
  expect(await jobStatus(host, id)).toBe('running');
  expect(await seriousAxe(page)).toEqual([]);

  // Tab stays inside the question.
  await page.keyboard.press('Tab');
  await expect(ask.getByRole('button', { name: 'Yes, cancel the job' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(ask.getByRole('button', { name: 'Keep it running' })).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(cancel).toBeFocused();
  await cancel.click();
  await ask.getByRole('button', { name: 'Keep it running' }).click();
  await expect(cancel).toBeFocused();
  expect(await jobStatus(host, id)).toBe('running');

  await cancel.click();
  await ask.getByRole('button', { name: 'Yes, cancel the job' }).click();
  await expect(page.getByLabel('Job status')).toContainText('canceled');
  expect(await jobStatus(host, id)).toBe('canceled');
});

test('"/" focuses the Workflows search and typing filters the rows; "?" lists the shortcuts', async ({ consolePage: page, host }) => {
  await seedCockpit(host, { errored: 0, waiting: 0 });
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Workflows' }).click();
  const table = page.getByRole('table', { name: 'Workflows' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await page.keyboard.press('/');
  const search = page.getByLabel('Search workflows');
  await expect(search).toBeFocused();
  await page.keyboard.type('approval');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(APPROVAL);
  await expect(page.getByText('1 of 2 shown')).toBeVisible();
  await expect(page).toHaveURL(/q=approval/);
  // Typed into the box, "/" and "?" are text.
  await page.keyboard.type('/?');
  await expect(search).toHaveValue('approval/?');
  await expect(page.getByText(/No workflow matches/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(search).toHaveValue('');
  await expect(table.getByRole('row')).toHaveCount(3);

  // Sorted by name, then the other way.
  await table.getByRole('button', { name: /^Name/ }).click();
  await expect(table.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('heading', { name: 'Workflows', exact: true }).click();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('table', { name: 'Keyboard shortcuts' })).toContainText("Focus the page's search box");
  expect(await seriousAxe(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // Back to the Workflows page (its list read already) and "/" at once: the search box keeps the focus,
  // the move to the heading on navigation does not take it back.
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Workflows' }).click();
  await expect(search).toBeVisible();
  await page.keyboard.press('/');
  await page.keyboard.type('appr');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue('appr');

  // Every list has its search box for "/": Transformations, Adapters, Jobs, Logs.
  for (const [area, label] of [
    ['transformations', 'Search transformations'],
    ['adapters', 'Search adapters'],
    ['jobs', 'Search description, id or variables'],
    ['logs', 'Text'],
  ] as const) {
    await page.goto(`${host.url}/#/${area}`);
    const box = page.getByLabel(label, { exact: area === 'logs' });
    await expect(box).toBeVisible();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('/');
    await expect(box).toBeFocused();
  }
});

test('below 1400 px, where "Took" gives its room, the Sort choice orders the jobs longest first', async ({ consolePage: page, host }) => {
  const now = Date.now();
  await insertJobs(host, 'timed', [
    { start: now - 50_000_000, took: 2_000 },
    { start: now - 40_000_000, took: 7_200_000 },
    { start: now - 30_000_000, took: 500 },
  ]);
  await page.goto(`${host.url}/#/jobs?workflow=timed`);
  const list = page.getByRole('table', { name: 'Jobs list' });
  await expect(list.getByRole('row', { name: /^timed/ })).toHaveCount(3);
  await expect(list.getByRole('button', { name: /^Took/ })).toBeHidden();
  await page.getByLabel('Sort').selectOption({ label: 'longest first' });
  await expect(page).toHaveURL(/sort=duration&order=desc/);
  await expect(list.getByRole('row').nth(1)).toHaveAccessibleName(/timed-0001$/);
  await expect(list.getByRole('row').nth(3)).toHaveAccessibleName(/timed-0002$/);
});

test.describe('at 1920 px, where the Jobs list has its "Took" column', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

test('"Took" sorts by duration, and "Select all N matching" cancels every matching job, not the first 100', async ({ consolePage: page, host }) => {
  const now = Date.now();
  // Started later is not shorter: the longest ran third.
  await insertJobs(host, 'timed', [
    { start: now - 50_000_000, took: 2_000 },
    { start: now - 40_000_000, took: 30_000 },
    { start: now - 30_000_000, took: 7_200_000 },
    { start: now - 20_000_000, took: 500 },
  ]);
  await insertJobs(host, 'many', Array.from({ length: 150 }, (_v, i) => ({ start: now - 1_000_000 + i * 1000 })));

  await page.goto(`${host.url}/#/jobs?workflow=timed`);
  const list = page.getByRole('table', { name: 'Jobs list' });
  await expect(list.getByRole('row', { name: /^timed/ })).toHaveCount(4);
  await list.getByRole('button', { name: /^Took/ }).click();
  await expect(list.getByRole('columnheader', { name: /Took/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/sort=duration&order=desc/);
  await expect(list.getByRole('row').nth(1)).toHaveAccessibleName(/timed-0002$/);
  await expect(list.getByRole('row').nth(2)).toHaveAccessibleName(/timed-0001$/);
  await list.getByRole('button', { name: /^Took/ }).click();
  await expect(list.getByRole('row').nth(1)).toHaveAccessibleName(/timed-0003$/);

  await page.goto(`${host.url}/#/jobs?workflow=many&status=running`);
  await expect(page.getByText('150 jobs', { exact: true })).toBeVisible();
  await page.getByLabel('Select the jobs shown').check();
  const bar = page.getByRole('toolbar', { name: 'Selected jobs' });
  await expect(bar).toContainText(/^\d+ jobs selected/);
  await bar.getByRole('button', { name: 'Select all 150 jobs matching' }).click();
  await expect(bar).toContainText('All 150 jobs matching selected');
  await bar.getByRole('button', { name: 'Cancel…' }).click();
  const ask = page.getByRole('dialog', { name: 'Cancel 150 jobs?' });
  await expect(ask).toContainText('not only the rows loaded');
  await ask.getByRole('button', { name: 'Cancel 150 jobs' }).click();
  await expect(page.getByRole('status', { name: 'Bulk action result' })).toContainText('150 of 150 jobs canceled');
  const left = (await (await host.api('/operations-manager/jobs?workflow=many&status=running&limit=1')).json()) as { metadata: { total: number } };
  expect(left.metadata.total).toBe(0);
  expect(await jobStatus(host, 'many-0000')).toBe('canceled');
});
});
