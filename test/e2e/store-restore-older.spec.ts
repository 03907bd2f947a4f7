// Any backup restored from the Store card, not only the newest: two backups taken, a job started
// after them; the older backup chosen in the list of all backups (each marked verified), its
// preview names what the restore discards (the later workflow and the job), the operator confirms,
// and the store reopens on the older backup.
import { test, expect } from './fixtures';

const flow = (name: string) => ({
  name,
  tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } },
  transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } },
});

test('restore an older backup from the list of all backups, with its preview', async ({ consolePage: page, host }) => {
  expect((await host.api('/workflows', { method: 'POST', json: flow('in-both') })).status).toBe(201);
  const older = await (await host.api('/store/backups', { method: 'POST' })).json();
  expect((await host.api('/workflows', { method: 'POST', json: flow('in-newer-only') })).status).toBe(201);
  expect((await host.api('/store/backups', { method: 'POST' })).status).toBe(201);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'in-newer-only' } });
  expect(started.status).toBe(200);
  const jobId = (await started.json()).data._id;
  // The card lists the backups as they are now.
  await page.reload();

  const card = page.getByRole('region', { name: 'Store' });
  await card.getByText('All backups (2)').click();
  const table = card.getByRole('table', { name: 'Backups' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('verified');
  await expect(rows.nth(2)).toContainText('verified');
  // The older backup: the last row.
  await rows.nth(2).getByRole('button', { name: /^Restore the backup of .*…$/ }).click();

  const confirm = page.getByRole('dialog', { name: /Restore the backup of/ });
  await expect(confirm).toContainText('The task worker stops');
  await expect(confirm.getByLabel('Unverified backup')).toHaveCount(0);
  const discards = confirm.getByLabel('What the restore discards');
  await expect(discards).toContainText('1 in workflows');
  await expect(discards).toContainText('1 in jobs');
  await expect(discards).toContainText(`Jobs: in-newer-only (${jobId})`);
  await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(card.getByRole('status', { name: 'Backup result' })).toContainText(/Restored; the replaced file is kept as .*console\.sqlite\.replaced-/);

  const names = (await (await host.api('/workflows')).json()).items.map((w: { name: string }) => w.name);
  expect(names).toContain('in-both');
  expect(names).not.toContain('in-newer-only');
  const log = JSON.stringify(await (await host.api('/logs?limit=200')).json());
  expect(log).toContain(`backup ${older.id}`);
  await expect(card.getByText('connected', { exact: true })).toBeVisible();
});
