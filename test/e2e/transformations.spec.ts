// An operator imports a JST document from a file as the service exports it, finds it, reads its
// steps, and runs it from the Try it panel: outgoing values, then a run that fails naming the step.
// The document is the project's own fixture, and the real one of the corpus when it is there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';

import { CORPUS_TAG, corpus, fixtures, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('the Try it panel on a real JST document');

const cases = [
  {
    tag: FIXTURES_TAG,
    file: path.join(fixtures.prebuilt('Instance-Check-Example'), 'bundles/transformations/Build Change Update Payload - Example.json'),
    name: 'Build Change Update Payload - Example',
    search: 'change update',
    incoming: 'changeRequest',
    id: 'changeId',
    payload: 'updatePayload',
    currentState: '1',
    scheduled: 4,
  },
  {
    tag: CORPUS_TAG,
    file: path.join(corpus.prebuilt('Kentik-REST-Example'), 'bundles/transformations/Build CR Update Payload - ServiceNow.json'),
    name: 'Build CR Update Payload - ServiceNow',
    search: 'servicenow',
    incoming: 'changeRequestResponse',
    id: 'crSysId',
    payload: 'crUpdatePayload',
    currentState: '-5',
    scheduled: -2,
  },
];

for (const c of cases) {
  test.describe(c.tag, () => {
    test.skip(!existsSync(c.file), `no export at ${c.file} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`);
    test(`import a transformation file, find it, and run it from the Try it panel ${c.tag}`, async ({ consolePage: page }) => {
      const { file } = c;
      await page.getByRole('link', { name: 'Transformations' }).click();
      await expect(page.getByRole('heading', { name: 'Transformations', exact: true })).toBeVisible();
      await expect(page.getByText('No transformations yet')).toBeVisible();

      await page.getByLabel('Import transformation files').setInputFiles({ name: 'cr.json', mimeType: 'application/json', buffer: readFileSync(file) });
      await expect(page.getByRole('status', { name: 'Import result' })).toContainText(`Imported “${c.name}”`);

      await page.getByLabel('Search transformations').fill('nothing like it');
      await expect(page.getByText('No transformation matches “nothing like it”.')).toBeVisible();
      await page.getByLabel('Search transformations').fill(c.search);
      const row = page.getByRole('table', { name: 'Transformations' }).getByRole('row').filter({ hasText: c.name });
      await expect(row).toContainText(`${c.incoming}, comments, state`);
      const listAxe = await new AxeBuilder({ page }).include('main').analyze();
      expect(listAxe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await row.getByRole('link', { name: c.name }).click();

      await expect(page.getByRole('heading', { name: c.name })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Incoming' })).toContainText(c.incoming);
      await expect(page.getByRole('list', { name: 'Outgoing' })).toContainText(c.payload);
      const steps = page.getByRole('table', { name: 'Steps' });
      await expect(steps.getByRole('row').filter({ hasText: 'Object.optional chaining' })).toBeVisible();
      await expect(steps.getByRole('row').filter({ hasText: 'incoming state → step 5 /args/0/value' })).toBeVisible();

      // The form is generated from the incoming schemas.
      const tryIt = page.getByRole('region', { name: 'Try it' });
      await tryIt.getByLabel(c.incoming).fill(JSON.stringify({ response: [{ id: 'cr-42', current_state: c.currentState }] }));
      await tryIt.getByLabel('comments').fill('scheduled for tonight');
      await tryIt.getByLabel('state').fill('Scheduled');
      await tryIt.getByRole('button', { name: 'Run' }).click();
      const outgoing = tryIt.getByLabel('Outgoing values');
      await expect(outgoing).toContainText(`"${c.id}": "cr-42"`);
      await expect(outgoing).toContainText(`"state": ${c.scheduled}`);
      await expect(outgoing).toContainText('"comments": "scheduled for tonight"');

      // A value that does not fit its schema is named.
      await tryIt.getByLabel(c.incoming).fill('{ "response": "not a list" }');
      await tryIt.getByRole('button', { name: 'Run' }).click();
      await expect(tryIt.getByRole('alert', { name: 'Run error' })).toContainText(`incoming.${c.incoming}.response: must be array`);

      // Raw JSON, unchecked: the step that fails is named and marked in the list.
      await tryIt.getByLabel('Validate incoming').uncheck();
      await tryIt.getByLabel('Raw JSON').check();
      await tryIt.getByLabel('Incoming values (JSON, by $id)').fill(JSON.stringify({ [c.incoming]: { response: null }, comments: 'x', state: 'new' }));
      await tryIt.getByRole('button', { name: 'Run' }).click();
      const failure = tryIt.getByRole('alert', { name: 'Run error' });
      await expect(failure).toContainText('The run failed at step 24.');
      await expect(failure).toContainText('step 24 (Array.getIndex), at pointer "/args/0/value": Array.getIndex needs an array as its first argument, got null');
      await expect(steps.locator('tr[aria-current="step"]')).toContainText('Array.getIndex');

      // The page's own content has no accessibility violations axe can find.
      const axe = await new AxeBuilder({ page }).include('main').analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  });
}
