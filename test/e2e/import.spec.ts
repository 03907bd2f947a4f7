// Importing a pre-built folder from the Import page, the way an operator does: pick the
// folder, watch the progress, read the summary. The folder is the real Kentik pre-built of
// ../shared/corpus/iap (read at run time).
import { existsSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';

const KENTIK = path.resolve(import.meta.dirname, '../..', '../shared/corpus/iap/prebuilts/Kentik-REST-Example');
const present = existsSync(KENTIK);
if (!present) console.warn(`import e2e skipped: no Kentik pre-built at ${KENTIK}`);

test.skip(!present, `no Kentik pre-built at ${KENTIK}`);

test('importing the Kentik pre-built folder shows its summary, what its workflows need, and lists its workflows', async ({ consolePage: page }) => {
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Import a pre-built or a project' })).toBeVisible();

  await page.getByLabel('Pre-built folder').setInputFiles(KENTIK);
  const summary = page.getByRole('status', { name: 'Import summary' });
  await expect(summary).toContainText('Pre-built “Kentik - REST - Example”: 35 imported, 0 replaced, 0 refused, 0 left out.');

  const artifacts = page.getByRole('table', { name: 'Artifacts' });
  await expect(artifacts.getByRole('row').filter({ hasText: 'Ping - IOS - Kentik - Example' })).toContainText('mop_templates');
  await expect(artifacts.getByRole('row').filter({ hasText: 'Build CR Update Payload - ServiceNow' })).toContainText('transformations');
  const needs = page.getByRole('table', { name: 'What the workflows need' });
  const incident = page.getByRole('link', { name: 'Create Incident - ServiceNow', exact: true });
  await expect(needs.getByRole('row').filter({ has: incident })).toContainText('Needs: Servicenow (1 task)');
  // A workflow that starts child jobs needs what they need too, named by child.
  await expect(needs.getByRole('row').filter({ has: page.getByRole('link', { name: 'AWS Blocked Traffic Event - Kentik - Example', exact: true }) })).toContainText('Servicenow');

  // Importing it again replaces each artifact.
  await page.getByLabel('Pre-built folder').setInputFiles(KENTIK);
  await expect(summary).toContainText('0 imported, 35 replaced');

  await page.getByRole('link', { name: 'Workflows' }).click();
  const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ has: page.getByRole('link', { name: 'Create Incident - ServiceNow', exact: true }) });
  await expect(row).toContainText('Needs: Servicenow');
});

test('a project export picked as a file is imported; files that are no bundle are named', async ({ consolePage: page }) => {
  await page.getByRole('link', { name: 'Import' }).click();
  const files = page.getByLabel('Or files (project export, or the folder’s JSON files)');
  await files.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
  await expect(page.getByRole('alert')).toContainText('none of the 1 files is a pre-built');

  await files.setInputFiles(path.join(KENTIK, 'Kentik - Example - REST.project.json'));
  await expect(page.getByRole('status', { name: 'Import summary' })).toContainText('Project “Kentik - Example - REST”: 31 imported');
});

test('the Import page and its summary, and the Workflows page with needs, have no serious or critical axe violation', async ({ consolePage: page }) => {
  await page.getByRole('link', { name: 'Import' }).click();
  await page.getByLabel('Pre-built folder').setInputFiles(KENTIK);
  await expect(page.getByRole('status', { name: 'Import summary' })).toBeVisible();
  const serious = async () =>
    (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
  expect(await serious()).toEqual([]);
  await page.getByRole('link', { name: 'Workflows' }).click();
  await expect(page.getByRole('table', { name: 'Workflows' })).toBeVisible();
  expect(await serious()).toEqual([]);
});
