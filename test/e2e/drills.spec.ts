// A person runs a lab drill from the DR Drill page, follows its timeline, and opens its report
// from the history.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';
import { createReadChanges, embeddedFileShared } from '../drills/support';
import { jongodbBinary, startJongodb, type TestMongo } from '../store/jongodb';

const found = jongodbBinary();
const cannot = !embeddedFileShared && 'unavailable' in found;
if (cannot) console.warn(`[DR Drill page] skipped: this store cannot share an embedded file and ${(found).unavailable}`);

test.skip(cannot, 'no database both lab sites can share here');
test.setTimeout(300_000);

test('runs a lab drill from the page and opens its report', async ({ consolePage: page }) => {
  let mongo: TestMongo | undefined;
  try {
    if (!embeddedFileShared) mongo = await startJongodb();
    await page.getByRole('link', { name: 'DR Drill' }).click();
    await expect(page.getByRole('heading', { name: 'DR Drill' })).toBeVisible();
    await page.getByLabel('Jobs').fill('10');
    if (mongo) await page.getByLabel('MongoDB URL (optional)').fill(mongo.url);
    await page.getByRole('button', { name: 'Run lab drill' }).click();

    const report = page.getByRole('region', { name: 'Drill report' });
    await expect(report.getByRole('status')).toHaveText('running…');
    await expect(report.getByRole('list', { name: 'Timeline' })).toContainText('Start the lab: two consoles on one database');
    await expect(report.getByText('Passed', { exact: true })).toBeVisible({ timeout: 240_000 });
    await expect(report.getByRole('list', { name: 'Readiness checklist' })).toContainText('Standby: processTasksOnStart false and task worker stopped');
    await expect(report.getByRole('list', { name: 'Timeline' })).toContainText('Failure: kill -9 of the active site');
    await expect(report).toContainText('10 / 10');
    // The timeline as a chart: the failure, failover, RTO and drain against their targets.
    await expect(report.getByRole('img', { name: /^Drill timeline: Failure at \d+\.\d\d s: kill -9 of the active site\. Failover: .* RTO: \d+\.\d\d s, target / })).toBeVisible();

    // The history lists it (it is read again every 5 s, so allow more than one read); its report opens from there.
    const history = page.getByRole('region', { name: 'Drill history' });
    await expect(history.getByRole('row').nth(1)).toContainText('passed', { timeout: 15_000 });
    await page.reload();
    await page.getByRole('region', { name: 'Drill history' }).getByRole('button', { name: 'Open report' }).first().click();
    await expect(page.getByRole('region', { name: 'Drill report' }).getByText('Passed', { exact: true })).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export HTML' }).click();
    expect((await download).suggestedFilename()).toMatch(/^dr-drill-.*\.html$/);
    // The export carries the same chart, as SVG (no script, nothing fetched).
    const html = await readFile((await (await download).path()), 'utf8');
    expect(html).toMatch(/<svg [^>]*role="img" aria-label="Drill timeline: Failure at /);

    // The Overview says how the last drill went, and its link opens that report.
    await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Overview' }).click();
    const card = page.getByRole('article', { name: 'Last DR drill' });
    await expect(card).toContainText(/Last DR drill passed, RTO \d+\.\d s/);
    await card.getByRole('link', { name: 'Open the drill report' }).click();
    await expect(page.getByRole('region', { name: 'Drill report' }).getByText('Passed', { exact: true })).toBeVisible();
  } finally {
    await mongo?.stop();
  }
});

test('runs a lab drill of a workflow of the profile picked on the page, on a simulated instance', async ({ host, consolePage: page }) => {
  let mongo: TestMongo | undefined;
  try {
    if (!embeddedFileShared) mongo = await startJongodb();
    // A workflow of the profile whose one task calls an adapter the profile lacks (Servicenow).
    await createReadChanges(host);
    await page.getByRole('link', { name: 'DR Drill' }).click();
    await expect(page.getByRole('heading', { name: 'DR Drill' })).toBeVisible();
    await page.getByLabel('Jobs').fill('6');
    if (mongo) await page.getByLabel('MongoDB URL (optional)').fill(mongo.url);
    await page.getByLabel('Workflows to run').selectOption(['Read Changes']);
    await page.getByRole('button', { name: 'Run lab drill' }).click();

    const report = page.getByRole('region', { name: 'Drill report' });
    await expect(report.getByText('Passed', { exact: true })).toBeVisible({ timeout: 240_000 });
    const timeline = report.getByRole('list', { name: 'Timeline' });
    await expect(timeline).toContainText('Load: 6 jobs of "Read Changes" (round-robin, on simulated instances)');
    await expect(timeline).toContainText('simulated calls: Servicenow.getChangeRequests 6');
    await expect(report).toContainText('6 / 6');
  } finally {
    await mongo?.stop();
  }
});
