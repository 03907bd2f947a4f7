import { test, expect } from './fixtures';

test('the served console shows its status bar and overview', async ({ consolePage: page }) => {
  const bar = page.getByRole('status', { name: 'Status bar' });
  await expect(bar).toContainText('Release 2022.1');
  await expect(bar).toContainText('Profile default');
  await expect(bar).toContainText('Store embedded: running');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  // The token left the address bar once it was taken.
  expect(page.url()).not.toContain('token=');
});

test('without a token the status bar says the console refused, instead of hanging', async ({ page, host }) => {
  await page.goto(`${host.url}/`);
  await expect(page.getByRole('status', { name: 'Status bar' })).toContainText('Console unreachable: missing or wrong token');
});
