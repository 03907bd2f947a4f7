import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';

/** A 2022.1 properties.json as operators keep them: many fields the console does not know. */
const siteB = {
  id: 'site-b',
  serverName: 'site-b-01',
  processTasksOnStart: true,
  mongoProps: {
    db: 'pronghorn',
    credentials: { user: 'itential', passwd: 'hunter2', dbAuth: false },
    ssl: { enabled: false, acceptInvalidCerts: false, sslCA: '' },
  },
  pathProps: { description: 'File Path Variables', sdk_dir: '/opt/automation/apps', encrypted: false },
  vaultProps: { url: 'https://vault.example:8200', secretsEngine: 'kv', readOnly: true },
  redisProps: { host: 'redis.example', port: 6379, db: 0 },
  loggerProps: { log_level: 'info', log_max_files: 100 },
};

const jsonFile = (name: string, value: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(value, null, 2)) });

test('the operator round trip: import, edit processTasksOnStart, activate, export', async ({ consolePage: page }) => {
  await page.getByRole('link', { name: 'Profiles' }).click();
  await expect(page.getByRole('table', { name: 'Profiles' })).toContainText('default');

  await page.getByLabel('Import a properties.json file').setInputFiles(jsonFile('site-b.properties.json', siteB));
  const detail = page.getByRole('article', { name: 'Profile site-b' });
  await expect(detail.getByRole('heading', { name: 'site-b' })).toBeVisible();
  await expect(page).toHaveURL(/#\/profiles\/site-b\/properties$/);
  await expect(detail.getByText('Other fields of this file, kept as they are')).toContainText('vaultProps');
  // The password is never shown.
  await expect(detail.getByLabel('Password', { exact: true })).toHaveValue('********');
  expect(await page.content()).not.toContain('hunter2');

  const works = detail.getByLabel('Work tasks at startup (processTasksOnStart)');
  await expect(works).toBeChecked();
  await works.uncheck();
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect(detail.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /site-b/ })).toContainText('no');

  await detail.getByRole('button', { name: 'Activate…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Activate profile site-b?' });
  await expect(dialog).toContainText('task worker stays stopped');
  await dialog.getByRole('button', { name: 'Activate' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByText('Active', { exact: true })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Status bar' })).toContainText('Profile site-b');
  // The active profile shows the tabs of the running profile after Properties.
  const tabs = detail.getByRole('tablist');
  await expect(tabs.getByRole('tab').first()).toHaveText('Properties');
  await expect(tabs.getByRole('tab', { name: 'Indexing' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await detail.getByRole('button', { name: 'Export' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('site-b.properties.json');
  const exported = JSON.parse(await readFile((await download.path()), 'utf8'));
  expect(exported.processTasksOnStart).toBe(false);
  expect(exported.vaultProps).toEqual(siteB.vaultProps);
  expect(exported.redisProps).toEqual(siteB.redisProps);
  expect(exported.loggerProps).toEqual(siteB.loggerProps);
  expect(exported.serverName).toBe('site-b-01');
  expect(exported.pathProps).toEqual(siteB.pathProps);
  expect(exported.mongoProps.credentials.passwd).toBe('********');
});

test('the form checks fields as they are typed and names the server refusal', async ({ consolePage: page, host }) => {
  await page.goto(`${host.url}/#/profiles/new`);
  const form = page.getByRole('form', { name: 'Profile properties' });
  await form.getByLabel('Profile id').fill('lab');
  await form.getByLabel('MongoDB URL').fill('http://db.example:27017');
  await expect(form.getByText('must be a mongodb:// or mongodb+srv:// URL')).toBeVisible();
  await form.getByLabel('MongoDB URL').fill('');
  await expect(form.getByText('must be a mongodb:// or mongodb+srv:// URL')).toBeHidden();
  await form.getByLabel('Profile id').fill('../lab');
  await expect(form.getByText(/must be a safe name/)).toBeVisible();
  await form.getByLabel('Profile id').fill('default');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'Not created' })).toContainText('a profile "default" exists already');
  await form.getByLabel('Profile id').fill('lab');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/#\/profiles\/lab\/properties$/);
  await expect(page.getByRole('table', { name: 'Profiles' })).toContainText('lab');
  // The new profile's embedded store answers the connection test.
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status', { name: 'Connection test of lab' })).toContainText('Connected');
});

test('an imported file with a legacy activate shows a banner leading to the migration', async ({ consolePage: page, host }) => {
  await page.goto(`${host.url}/#/profiles`);
  await page.getByLabel('Import a properties.json file').setInputFiles(
    jsonFile('old.json', { id: 'old-site', processTasksOnStart: true, activate: false }),
  );
  const detail = page.getByRole('article', { name: 'Profile old-site' });
  await expect(detail).toBeVisible();
  // The same file again: its id is taken, so the page offers to import it under another id.
  await page.getByLabel('Import a properties.json file').setInputFiles(
    jsonFile('old.json', { id: 'old-site', processTasksOnStart: true, activate: false }),
  );
  await expect(page.getByRole('alert').filter({ hasText: 'Cannot import old.json' })).toContainText('exists already');
  await page.getByLabel('Import as id').fill('old-site-2');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('article', { name: 'Profile old-site-2' })).toBeVisible();
  await page.getByRole('link', { name: 'old-site', exact: true }).click();
  await expect(detail.getByRole('region', { name: 'Legacy activate setting' })).toContainText('processTasksOnStart wins');
  await detail.getByRole('button', { name: 'Review the migration' }).click();
  const change = detail.getByRole('table', { name: 'Before and after' });
  await expect(change).toContainText('processTasksOnStart');
  await expect(change.getByRole('row', { name: /processTasksOnStart/ })).toContainText('truefalse');
  await detail.getByRole('button', { name: 'Write processTasksOnStart = false' }).click();
  await expect(detail.getByRole('status').filter({ hasText: 'processTasksOnStart is now false' })).toContainText('.bak');
  await expect(detail.getByRole('region', { name: 'Legacy activate setting' })).toBeHidden();
  await expect(detail.getByLabel('Work tasks at startup (processTasksOnStart)')).not.toBeChecked();
});

test('deleting asks first, and the active profile cannot be deleted', async ({ consolePage: page, host }) => {
  await host.api('/profiles', { method: 'POST', json: { id: 'scratch' } });
  await page.goto(`${host.url}/#/profiles/scratch/properties`);
  const detail = page.getByRole('article', { name: 'Profile scratch' });
  await detail.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete profile scratch?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('table', { name: 'Profiles' })).toContainText('scratch');
  await detail.getByRole('button', { name: 'Delete…' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('table', { name: 'Profiles' })).not.toContainText('scratch');

  const active = (await (await host.api('/health/status')).json()).profile as string;
  await page.goto(`${host.url}/#/profiles/${active}/json`);
  await expect(page.getByRole('article', { name: `Profile ${active}` }).getByRole('button', { name: 'Delete…' })).toBeDisabled();
  await expect(page.getByRole('textbox', { name: 'Raw JSON' })).toHaveValue(new RegExp(`"id": "${active}"`));
});
