// Hardening as an operator meets it: secrets stay masked on the page and sealed on disk, a
// writable sdk_dir is flagged, and a long upgrade check can be canceled.
import { chmod, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';

const URL_PASSWORD = 'url-Pass@word-91';
const QUERY_PASSWORD = 'query-Pass-92';
const PASSWD = 'db-Passwd-93';
const CLEAR = [URL_PASSWORD, QUERY_PASSWORD, PASSWD];

test('an imported file with secrets in its URL: masked on the page, sealed with its backup, sdk_dir flagged', async ({ consolePage: page, host }) => {
  const sdk = await mkdtemp(path.join(os.tmpdir(), 'console-e2e-sdk-'));
  await mkdir(path.join(sdk, 'adapters'));
  await chmod(path.join(sdk, 'adapters'), 0o777);
  const site = {
    id: 'site-c',
    mongoProps: {
      url: `mongodb://ops:${URL_PASSWORD}@127.0.0.1:9/automation?password=${QUERY_PASSWORD}`,
      db: 'automation',
      credentials: { user: 'ops', passwd: PASSWD, dbAuth: true },
    },
    pathProps: { description: 'File Path Variables', sdk_dir: sdk, encrypted: false },
  };
  try {
    await page.getByRole('link', { name: 'Profiles' }).click();
    await page
      .getByLabel('Import a properties.json file')
      .setInputFiles({ name: 'site-c.properties.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(site, null, 2)) });
    const detail = page.getByRole('article', { name: 'Profile site-c' });
    await expect(detail.getByRole('heading', { name: 'site-c' })).toBeVisible();
    await expect(detail.getByRole('region', { name: 'Warnings' })).toContainText('can be written by every user');
    await expect(detail.getByLabel('MongoDB URL')).toHaveValue('mongodb://ops:********@127.0.0.1:9/automation?password=********');
    await expect(detail.getByLabel('Password', { exact: true })).toHaveValue('********');

    await detail.getByLabel('Store passwords encrypted (encrypted)').check();
    await detail.getByRole('button', { name: 'Save' }).click();
    await expect(detail.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();

    const folder = path.join(host.dataDir, 'profiles', 'site-c');
    const saved = JSON.parse(await readFile(path.join(folder, 'properties.json'), 'utf8'));
    expect(saved.mongoProps.url).toMatch(/^mongodb:\/\/ops:enc:v1:[\w-]+:[\w-]+@127\.0\.0\.1:9\/automation\?password=enc:v1:/);
    for (const file of await readdir(folder)) {
      if (!file.startsWith('properties.json')) continue;
      const text = await readFile(path.join(folder, file), 'utf8');
      for (const secret of CLEAR) expect(text, `${file} keeps ${secret}`).not.toContain(secret);
    }
    const html = await page.content();
    for (const secret of CLEAR) expect(html).not.toContain(secret);
  } finally {
    await rm(sdk, { recursive: true, force: true });
  }
});

test('a long upgrade check shows its progress and can be canceled', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Upgrade' }).click();
  await page.getByLabel("Folder on the console's machine").fill('/usr');
  await page.getByRole('button', { name: 'Run check' }).click();
  await expect(page.getByRole('status', { name: 'Check progress' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The check of /usr was canceled.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run check' })).toBeEnabled();
});
