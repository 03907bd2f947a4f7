import path from 'node:path';
import { test, expect } from './fixtures';

const SITE = path.resolve(import.meta.dirname, '../upgrade/fixtures/site');

test('the Upgrade page checks the fixture site, groups findings by rule with their fixes, and migrates activate', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Upgrade' }).click();
  await expect(page.getByRole('heading', { name: 'Upgrade check' })).toBeVisible();

  // A path that is not a folder is refused, naming the problem beside the field.
  const input = page.getByLabel("Folder on the console's machine");
  await input.fill('/no/such/site');
  await page.getByRole('button', { name: 'Run check' }).click();
  await expect(page.getByRole('alert')).toContainText('"/no/such/site" does not exist');

  await input.fill(SITE);
  await page.getByRole('button', { name: 'Run check' }).click();
  await expect(page.getByRole('status', { name: 'Check summary' })).toContainText('10 findings block the upgrade, 5 warnings.');

  const codePointAt = page.getByRole('region', { name: 'codePointAt tasks without an error transition' });
  await expect(codePointAt.getByRole('row')).toHaveCount(2);
  await expect(codePointAt).toContainText('workflows/first-char.json:5');
  await expect(codePointAt).not.toContainText('checked-char.json');

  const api = page.getByRole('region', { name: 'Calls to deprecated or removed APIs' });
  const healthRow = api.getByRole('row').filter({ hasText: 'apps/app-health-monitor/src/health.js:7' });
  await expect(healthRow).toContainText('Call GET /health/adapters or GET /health/applications instead');

  const uiLib = page.getByRole('region', { name: 'References to removed UI library JavaScript files' });
  await expect(uiLib).toContainText('apps/app-ui/src/index.js:1');
  await expect(uiLib).not.toContainText('.css"');

  // The workflow engine's 2020.1 service config said activate: false; carry it to the active profile.
  const activate = page.getByRole('region', { name: 'Legacy activate setting' });
  const engineRow = activate.getByRole('row').filter({ hasText: 'config/service_configs.json:6' });
  await engineRow.getByRole('button', { name: /Apply to the active profile/ }).click();
  await expect(engineRow.getByLabel('Proposed change')).toContainText('processTasksOnStart');
  await engineRow.getByRole('button', { name: 'Write processTasksOnStart = false' }).click();
  await expect(engineRow.getByRole('status')).toContainText('processTasksOnStart is now false');
});
