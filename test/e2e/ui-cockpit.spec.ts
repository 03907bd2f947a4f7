// The operator's cockpit in the browser, on a console seeded with a bad day (jobs in
// error, tasks waiting for an operator, a stopped adapter, a missing index), at 1024
// and 1920 px. Screenshots of the main pages are saved under test-results/screens/.
import { test, expect } from './fixtures';
import { APPROVAL, FAILING, seedCockpit } from '../support/cockpit';
import type { Page } from '@playwright/test';

const WIDTHS = [1024, 1920] as const;
const shot = (page: Page, name: string, width: number) => page.screenshot({ path: `test-results/screens/${name}-${width}.png` });

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 1024 ? 768 : 1080 } });

    test('the Overview puts what needs an operator first, and the status bar says which', async ({ consolePage: page, host }) => {
      const seeded = await seedCockpit(host, { errored: 3, waiting: 2 });
      // The page opened before the seeding; a reload shows it now rather than at the next poll.
      await page.reload();
      const board = page.getByRole('region', { name: 'Needs attention' });
      await expect(board.getByLabel('Jobs in error: count')).toHaveText('3');
      await expect(board.getByLabel('Tasks waiting for an operator: count')).toHaveText('2');
      await expect(board.getByLabel('Collections not indexed: count')).toHaveText('1');
      if (seeded.stoppedAdapter) {
        await expect(board.getByRole('list', { name: 'Adapters not ONLINE: details' })).toContainText(`${seeded.stoppedAdapter} STOPPED`);
      } else console.log('[skip] no adapter in this console to stop: the adapters card is not checked');
      const bar = page.getByRole('status', { name: 'Status bar' });
      await expect(bar).toContainText('3 jobs in error');
      await expect(bar).toContainText('2 tasks waiting for an operator');
      await expect(bar).toHaveClass(/status-bar--bad/);
      await shot(page, 'overview', width);

      // Each concern links to the list filtered to it.
      await board.getByRole('list', { name: 'Jobs in error: details' }).getByRole('link', { name: FAILING }).click();
      await expect(page).toHaveURL(new RegExp(`#/jobs\\?status=error&workflow=${FAILING}`));
      await expect(page.getByRole('heading', { name: 'Jobs' })).toBeFocused();
      const rows = page.getByRole('table', { name: 'Jobs list' }).getByRole('row', { name: new RegExp(`^${FAILING} error`) });
      await expect(rows).toHaveCount(3);
      await expect(rows.first()).toContainText('failed with no error transition');
      await shot(page, 'jobs-errors', width);

      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('link', { name: 'Open the indexing tab' }).click();
      await expect(page).toHaveURL(/#\/profiles\/default\/indexing/);
    });

    test('the work queue lists every waiting task with its job and age, and finishes one in place', async ({ consolePage: page, host }) => {
      await seedCockpit(host, { errored: 0, waiting: 2 });
      await page.getByRole('link', { name: 'Work queue' }).click();
      const table = page.getByRole('table', { name: 'Tasks waiting for an operator' });
      await expect(table.getByRole('row')).toHaveCount(3);
      await expect(table).toContainText(APPROVAL);
      await expect(table).toContainText('CR-1');
      await expect(table).toContainText(/\d+ (s|min) ago/);
      await table.getByRole('button', { name: 'Approve the change: task ask of CR-2' }).click();
      const detail = page.getByRole('region', { name: /^Task ask of job/ });
      await expect(detail.getByLabel('incoming of ask')).toContainText('"change": "CR-2"');
      await shot(page, 'worklist', width);
      const form = detail.getByRole('form', { name: /^Finish task ask/ });
      await form.getByLabel('decision').fill('approved');
      await form.getByRole('button', { name: 'Finish task' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'task ask finished' })).toBeVisible();
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table).not.toContainText('CR-2');
    });
  });
}

test.describe('Jobs', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('filters by status (waiting for an operator), workflow with counts, text; sorts; keeps the filters in the URL', async ({ consolePage: page, host }) => {
    const seeded = await seedCockpit(host, { errored: 2, waiting: 2 });
    await page.getByRole('link', { name: 'Jobs' }).click();
    const status = page.getByRole('group', { name: 'Status' });
    await expect(status.getByRole('button', { name: /waiting for an operator 2/ })).toBeVisible();
    await expect(status.getByRole('button', { name: /error 2/ })).toBeVisible();
    await expect(status.getByRole('button', { name: /^all 4/ })).toBeVisible();
    await status.getByRole('button', { name: /waiting for an operator/ }).click();
    const list = page.getByRole('table', { name: 'Jobs list' });
    await expect(list.getByRole('row', { name: /waiting for an operator/ })).toHaveCount(2);
    await expect(page).toHaveURL(/status=waiting/);

    const workflow = page.getByLabel('Workflow');
    await expect(workflow.locator('option', { hasText: `${APPROVAL} (2)` })).toHaveCount(1);
    await status.getByRole('button', { name: /^all/ }).click();
    await workflow.selectOption(FAILING);
    await expect(list.getByRole('row', { name: new RegExp(`^${FAILING} error`) })).toHaveCount(2);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Search description, id or variables').fill('INC-101');
    await expect(list.getByRole('row', { name: new RegExp(seeded.errored[1]!) })).toBeVisible();
    await expect(list.getByRole('row', { name: new RegExp(FAILING) })).toHaveCount(1);
    await expect(page).toHaveURL(/q=INC-101/);

    // The filter state survives a reload.
    await page.reload();
    await expect(page.getByLabel('Search description, id or variables')).toHaveValue('INC-101');
    await expect(list.getByRole('row', { name: new RegExp(FAILING) })).toHaveCount(1);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('button', { name: /^Workflow/ }).click();
    await expect(page.getByRole('columnheader', { name: /Workflow/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(list.getByRole('row').nth(1)).toHaveAccessibleName(new RegExp(`^${APPROVAL}`));
    await page.getByRole('button', { name: /^Workflow/ }).click();
    await expect(list.getByRole('row').nth(1)).toHaveAccessibleName(new RegExp(`^${FAILING}`));
  });

  test('bulk cancel and retry ask first, naming the count, and say what was done', async ({ consolePage: page, host }) => {
    const seeded = await seedCockpit(host, { errored: 2, waiting: 2 });
    await page.goto(`${host.url}/#/jobs?status=waiting`);
    const list = page.getByRole('table', { name: 'Jobs list' });
    await expect(list.getByRole('row', { name: /waiting for an operator/ })).toHaveCount(2);
    await page.getByLabel('Select the jobs shown').check();
    const bar = page.getByRole('toolbar', { name: 'Selected jobs' });
    await expect(bar).toContainText('2 jobs selected');
    await bar.getByRole('button', { name: 'Cancel…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel 2 jobs?' });
    await expect(dialog).toContainText('cannot be undone');
    await shot(page, 'jobs-bulk-confirm', 1366);
    await dialog.getByRole('button', { name: 'Back' }).click();
    await expect(dialog).toBeHidden();
    await bar.getByRole('button', { name: 'Cancel…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel 2 jobs' }).click();
    await expect(page.getByRole('status', { name: 'Bulk action result' })).toContainText('2 of 2 jobs canceled');
    await expect(page.getByText('No jobs match these filters.')).toBeVisible();

    await page.goto(`${host.url}/#/jobs?status=error`);
    await list.getByLabel(`Select job ${seeded.errored[0]}`).check();
    await page.getByRole('toolbar', { name: 'Selected jobs' }).getByRole('button', { name: 'Retry…' }).click();
    await page.getByRole('dialog', { name: 'Retry 1 job?' }).getByRole('button', { name: 'Retry 1 job' }).click();
    await expect(page.getByRole('status', { name: 'Bulk action result' })).toContainText('1 of 1 job retried');
  });
});

test.describe('Diagrams', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  const looping = {
    name: 'cockpit-retry-loop',
    tasks: {
      workflow_start: { name: 'workflow_start' },
      workflow_end: { name: 'workflow_end' },
      check: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', summary: 'Check the device', variables: { incoming: { str: 'ok' }, outgoing: { uppercaseString: '$var.job.state' } } },
      wait: { name: 'approve', app: 'WorkFlowEngine', type: 'manual', summary: 'Wait for the device', variables: { incoming: {}, outgoing: {} } },
    },
    transitions: {
      workflow_start: { check: { type: 'standard', state: 'success' } },
      check: { workflow_end: { type: 'standard', state: 'success' }, wait: { type: 'standard', state: 'failure' } },
      wait: { check: { type: 'revert', state: 'success' } },
    },
  };

  test('a workflow is drawn from its document: canvas positions kept, revert transitions drawn apart, state labels', async ({ consolePage: page, host }) => {
    const imported = await host.api('/workflows', { method: 'POST', json: looping });
    const refused = imported.status >= 300 ? `${imported.status} ${await imported.text()}` : '';
    if (refused) console.log(`[skip] this console refuses revert transitions on import (${refused}): the revert drawing is not checked`);
    test.skip(!!refused, 'revert transitions are refused on import by this console');
    await page.goto(`${host.url}/#/workflows/${encodeURIComponent(looping.name)}`);
    const diagram = page.getByRole('figure', { name: `Diagram of workflow ${looping.name}` });
    await expect(diagram.getByText('Check the device')).toBeVisible();
    await expect(diagram).toContainText('laid out automatically');
    await expect(diagram.locator('.diagram-edge--revert')).toHaveCount(1);
    await expect(diagram.locator('.diagram-edge--standard')).toHaveCount(3);
    await expect(diagram.locator('.react-flow__edge-text', { hasText: 'revert · success' })).toHaveCount(1);
    await expect(diagram.locator('.react-flow__edge-text', { hasText: 'failure' })).toHaveCount(1);
    await shot(page, 'workflow-diagram', 1366);
  });

  test('the job page overlays each task status and highlights the path taken; a click opens the task', async ({ consolePage: page, host }) => {
    const seeded = await seedCockpit(host, { errored: 1, waiting: 1 });
    await page.goto(`${host.url}/#/jobs/${seeded.waiting[0]}`);
    const diagram = page.getByRole('figure', { name: `Diagram of job ${seeded.waiting[0]}` });
    await expect(diagram).toContainText('placed as in the designer');
    await expect(page.getByLabel('Job status')).toHaveText('waiting for an operator');
    await expect(diagram.getByRole('button', { name: /^Task ask: Approve the change.*waiting for an operator$/ })).toBeVisible();
    await expect(diagram.locator('.diagram-edge--taken')).toHaveCount(1);
    await shot(page, 'job-diagram', 1366);
    await diagram.getByRole('button', { name: /Task ask/ }).click();
    const detail = page.getByRole('region', { name: 'Task ask detail' });
    await expect(detail.getByLabel('status of ask iteration 1')).toHaveText('waiting for an operator');
    await expect(detail.getByLabel('incoming of ask iteration 1')).toContainText('"change": "CR-1"');

    await page.goto(`${host.url}/#/jobs/${seeded.errored[0]}`);
    const failed = page.getByRole('figure', { name: `Diagram of job ${seeded.errored[0]}` });
    await expect(failed.getByRole('button', { name: /^Task cp: codePointAt.* error$/ })).toBeVisible();
    await expect(page.getByLabel('Job status')).toHaveText('error');
  });
});
