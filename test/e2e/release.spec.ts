import { test, expect } from './fixtures';

test('the Release page shows the deprecation table and the policy finding on npm run index', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Release' }).click();
  await expect(page.getByRole('heading', { name: 'Release', exact: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Deprecation and removal table' });
  const health = table.getByRole('row').filter({ hasText: 'GET /admin/services/health' });
  await expect(health).toContainText('2021.2');
  await expect(health).toContainText('2023.1 (stated as the actual removal release)');
  await expect(health).toContainText('GET /health/adapters or GET /health/applications');
  await expect(health).toContainText('deprecated');
  await expect(table.getByRole('row').filter({ hasText: 'activate (service_config property)' })).toContainText('removed');
  const findings = page.getByRole('list', { name: 'Policy findings' });
  await expect(findings.getByRole('listitem')).toHaveCount(1);
  await expect(findings).toContainText('npm run index (indexing script) is removed in 2022.1 with no deprecation release');
});

test('the Release page answers where an API stands at a release, and names a malformed release', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Release' }).click();
  const lookup = page.getByRole('region', { name: 'API lifecycle' });
  await lookup.getByLabel('Path').fill('/admin/services/health');
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(lookup.getByRole('status', { name: 'Lifecycle answer' })).toContainText(
    'deprecated GET /admin/services/health is deprecated at 2022.1 (since 2021.2) and is removed in 2023.1',
  );
  await lookup.getByLabel('At release').fill('2023.1');
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(lookup.getByRole('status', { name: 'Lifecycle answer' })).toContainText('removed');
  await lookup.getByLabel('At release').fill('2023');
  await lookup.getByRole('button', { name: 'Look up' }).click();
  await expect(lookup.getByRole('alert')).toContainText('malformed release label "2023"');
});
