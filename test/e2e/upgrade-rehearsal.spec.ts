// The Upgrade page's rehearsal: the console's own workflows run under 2021.2 and 2022.1; the one
// calling codePointAt out of range is listed with both values side by side, the one-task one is not.
import { test, expect } from './fixtures';
import { workflow } from '../engine/queue/support';

test('the Upgrade page rehearses this console\'s workflows and lists the one that differs', async ({ consolePage: page, host }) => {
  const firstChar = workflow(
    'first-char',
    { cp: { name: 'codePointAt', variables: { incoming: { str: 'abc', pos: 7 }, outgoing: { codePointValue: '$var.job.code' } } } },
    [['workflow_start', 'cp'], ['cp', 'workflow_end']],
  );
  const shout = workflow('shout', { up: { name: 'toUpperCase', variables: { incoming: { str: 'abc' }, outgoing: { uppercaseString: null } } } }, [
    ['workflow_start', 'up'],
    ['up', 'workflow_end'],
  ]);
  for (const wf of [firstChar, shout]) expect((await host.api('/workflows', { method: 'POST', json: wf })).status).toBeLessThan(300);

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Upgrade' }).click();
  await page.getByLabel('Upgrading from').selectOption('2021.2');
  await page.getByRole('button', { name: "Rehearse on this console's workflows" }).click();
  await expect(page.getByRole('status', { name: 'Rehearsal summary' })).toContainText('2 workflows rehearsed from 2021.2 to 2022.1: 1 the same, 1 differs.');
  const rows = page.getByRole('table', { name: 'Workflows that differ' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  const row = rows.filter({ hasText: 'first-char' });
  await expect(row).toContainText('task cp');
  await expect(row.getByRole('cell').nth(2)).toContainText('"codePointValue": ""');
  await expect(row.getByRole('cell').nth(3)).toContainText('out of range');
  await expect(page.getByRole('table', { name: 'Workflows that differ' })).not.toContainText('shout');

  // The task is marked on the workflow's diagram.
  await row.getByRole('button', { name: 'Show on the diagram' }).click();
  const diagram = page.getByRole('figure', { name: 'Diagram of workflow first-char, first divergence at task cp' });
  await expect(diagram).toContainText('diverges here');
});
