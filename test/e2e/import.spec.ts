// Importing a pre-built folder from the Import page, the way an operator does: pick the
// folder, watch the progress, read the summary. The folder is the project's own pre-built
// (test/fixtures/iap) and the real Kentik pre-built of ../shared/corpus/iap (read at run time,
// when it is there).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { CORPUS_TAG, corpus, fixtures, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('importing the real Kentik pre-built');

const cases = [
  {
    tag: FIXTURES_TAG,
    folder: fixtures.prebuilt('Instance-Check-Example'),
    summary: 'Pre-built “Instance Check - Example”: 13 imported, 0 replaced, 0 refused, 0 left out.',
    replaced: '0 imported, 13 replaced',
    mop: 'Ping - Example',
    transformation: 'Build Change Update Payload - Example',
    needsServicenow: 'Update Change Request - Example',
    parentOfChild: 'Onboard Device - Example',
    project: { file: 'Instance Check - Example.project.json', summary: 'Project “Instance Check - Example”: 11 imported' },
  },
  {
    tag: CORPUS_TAG,
    folder: corpus.prebuilt('Kentik-REST-Example'),
    summary: 'Pre-built “Kentik - REST - Example”: 35 imported, 0 replaced, 0 refused, 0 left out.',
    replaced: '0 imported, 35 replaced',
    mop: 'Ping - IOS - Kentik - Example',
    transformation: 'Build CR Update Payload - ServiceNow',
    needsServicenow: 'Create Incident - ServiceNow',
    parentOfChild: 'AWS Blocked Traffic Event - Kentik - Example',
    project: { file: 'Kentik - Example - REST.project.json', summary: 'Project “Kentik - Example - REST”: 31 imported' },
  },
];

for (const c of cases) {
  test.describe(c.tag, () => {
    test.skip(!existsSync(c.folder), `no pre-built at ${c.folder} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`);

    test(`importing a pre-built folder shows its summary, what its workflows need, and lists its workflows ${c.tag}`, async ({ consolePage: page }) => {
      await page.getByRole('link', { name: 'Import' }).click();
      await expect(page.getByRole('heading', { name: 'Import a pre-built or a project' })).toBeVisible();

      await page.getByLabel('Pre-built folder').setInputFiles(c.folder);
      const summary = page.getByRole('status', { name: 'Import summary' });
      await expect(summary).toContainText(c.summary);

      const artifacts = page.getByRole('table', { name: 'Artifacts' });
      await expect(artifacts.getByRole('row').filter({ hasText: c.mop })).toContainText('mop_templates');
      await expect(artifacts.getByRole('row').filter({ hasText: c.transformation })).toContainText('transformations');
      const needs = page.getByRole('table', { name: 'What the workflows need' });
      const needy = page.getByRole('link', { name: c.needsServicenow, exact: true });
      await expect(needs.getByRole('row').filter({ has: needy })).toContainText('Needs: Servicenow (1 task)');
      // A workflow that starts child jobs needs what they need too, named by child.
      await expect(needs.getByRole('row').filter({ has: page.getByRole('link', { name: c.parentOfChild, exact: true }) })).toContainText('Servicenow');

      // Importing it again replaces each artifact.
      await page.getByLabel('Pre-built folder').setInputFiles(c.folder);
      await expect(summary).toContainText(c.replaced);

      await page.getByRole('link', { name: 'Workflows' }).click();
      const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ has: page.getByRole('link', { name: c.needsServicenow, exact: true }) });
      await expect(row).toContainText('Needs: Servicenow');
    });

    test(`a project export picked as a file is imported; files that are no bundle are named ${c.tag}`, async ({ consolePage: page }) => {
      await page.getByRole('link', { name: 'Import' }).click();
      const files = page.getByLabel('Or files (project export, or the folder’s JSON files)');
      await files.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
      await expect(page.getByRole('alert')).toContainText('none of the 1 files is a pre-built');

      await files.setInputFiles(path.join(c.folder, c.project.file));
      await expect(page.getByRole('status', { name: 'Import summary' })).toContainText(c.project.summary);

      // The project is kept (Automation Studio's projects), and exported again with each component's document.
      const exported = JSON.parse(readFileSync(path.join(c.folder, c.project.file), 'utf8')) as { name: string; components: { document: { name: string } }[] };
      const row = page.getByRole('table', { name: 'Projects kept' }).getByRole('row').filter({ hasText: exported.name });
      await expect(row.getByRole('cell').nth(2)).toHaveText(String(exported.components.length));
      const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Export ${exported.name}` }).click()]);
      expect(download.suggestedFilename()).toBe(`${exported.name}.project.json`);
      const saved = JSON.parse(readFileSync(await download.path(), 'utf8')) as typeof exported;
      expect(saved.components.map((component) => component.document.name)).toEqual(exported.components.map((component) => component.document.name));
      await expect(page.getByRole('status').filter({ hasText: 'Successfully exported project' })).toBeVisible();
      const violations = (await new AxeBuilder({ page }).include('[aria-label="Projects"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()).violations;
      expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    });

    test(`the Import page and its summary, and the Workflows page with needs, have no serious or critical axe violation ${c.tag}`, async ({ consolePage: page }) => {
      await page.getByRole('link', { name: 'Import' }).click();
      await page.getByLabel('Pre-built folder').setInputFiles(c.folder);
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
  });
}
