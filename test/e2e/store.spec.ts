import { test, expect } from './fixtures';

test('the overview shows the embedded store, connected, and tests its connection', async ({ consolePage: page, host }) => {
  const card = page.getByRole('region', { name: 'Store' });
  await expect(card).toContainText('Embedded store');
  await expect(card).toContainText(`embedded store in ${host.dataDir}/profiles/default/db/console.sqlite`);
  await expect(card.getByText('connected', { exact: true })).toBeVisible();
  // The SQLite file's integrity check, as SQLite reported it.
  await expect(card.getByText(/^Integrity check:/)).toHaveText('Integrity check: ok');

  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByRole('status', { name: 'Connection test of default' })).toContainText(/Connected to embedded store in .* in [\d.]+ ms/);
});
