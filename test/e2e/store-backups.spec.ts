// The Store card's backups: a backup taken from the card, a workflow saved and a job started after
// it, and the newest backup restored: the confirmation names what the restore discards (the job by
// its workflow and id) before the operator confirms; the store reopens on the backup and the later
// workflow is gone.
import { test, expect } from './fixtures';

const flow = (name: string) => ({
  name,
  tasks: { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } },
  transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } },
});

test('take a backup from the Store card, then restore it', async ({ consolePage: page, host }) => {
  expect((await host.api('/workflows', { method: 'POST', json: flow('before-backup') })).status).toBe(201);
  const card = page.getByRole('region', { name: 'Store' });
  await expect(card.getByLabel('Newest backup')).toContainText('none yet');

  await card.getByRole('button', { name: 'Take a backup' }).click();
  await expect(card.getByRole('status', { name: 'Backup result' })).toContainText('Backup taken');
  await expect(card.getByLabel('Newest backup')).toContainText(/s ago .*\(1 kept, one every 60 min\)/);

  expect((await host.api('/workflows', { method: 'POST', json: flow('after-backup') })).status).toBe(201);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'after-backup' } });
  expect(started.status).toBe(200);
  const jobId = (await started.json()).data._id;
  await card.getByRole('button', { name: 'Restore the newest backup…' }).click();
  const confirm = page.getByRole('dialog', { name: /Restore the backup of/ });
  await expect(confirm).toContainText('The task worker stops');
  const discards = confirm.getByLabel('What the restore discards');
  await expect(discards).toContainText(/It discards \d+ documents accepted since the backup: .*1 in jobs/);
  await expect(discards).toContainText('1 in workflows');
  await expect(discards).toContainText(`Jobs: after-backup (${jobId})`);
  await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(card.getByRole('status', { name: 'Backup result' })).toContainText(/Restored; the replaced file is kept as .*console\.sqlite\.replaced-/);

  const names = (await (await host.api('/workflows')).json()).items.map((w: { name: string }) => w.name);
  expect(names).toContain('before-backup');
  expect(names).not.toContain('after-backup');
  await expect(card.getByText('connected', { exact: true })).toBeVisible();
});
