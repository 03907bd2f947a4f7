// A person runs a sites drill from the DR Drill page: this console is the active site, a
// headless console the test starts (on the same embedded database file) is the standby, given by
// URL and token; the failure is a stop, with processTasksOnStart persisted and failback.
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { createReadChanges, embeddedFileShared } from '../drills/support';
import { startConsole, type LabSite } from '../../core/drills/lab';

if (!embeddedFileShared) console.warn('[DR Drill page, sites] skipped: this store cannot share an embedded database file between two consoles');
test.skip(!embeddedFileShared, 'no embedded database file two consoles can share here');
test.setTimeout(300_000);

test('runs a sites drill from the page against this console and a standby by URL and token', async ({ consolePage: page, host }) => {
  let standby: LabSite | undefined;
  try {
    const file = path.join(host.dataDir, 'profiles', 'default', 'db', 'console.sqlite');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dr-standby-'));
    standby = await startConsole({ name: 'standby', dataDir: dir, profile: { id: 'standby', serverName: 'standby-e2e', processTasksOnStart: false, embeddedProps: { file } }, options: { dir, ledgerUrl: '' } });
    // Prepared by the operator as the Manual Failover procedure asks.
    for (const app of ['OperationsManager', 'AutomationCatalog']) await standby.site.call('PUT', `/applications/${app}/stop`);

    await page.getByRole('link', { name: 'DR Drill' }).click();
    await page.getByRole('radio', { name: /Sites: this console or others/ }).check();
    const form = page.getByRole('form', { name: 'Sites drill' });
    await expect(form.getByRole('checkbox', { name: 'This console' }).first()).toBeChecked();
    // The Sites form holds up to axe (WCAG 2.1 A and AA): no serious or critical violation.
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    // A standby with no token is refused, naming the field.
    await form.getByLabel('Standby URL').fill(standby.site.ref.url);
    await form.getByLabel('Jobs').fill('10');
    await form.getByRole('button', { name: 'Run sites drill' }).click();
    await expect(form).toContainText('Standby site:');
    await form.getByLabel('Standby API token').fill(standby.site.ref.token);
    await form.getByRole('checkbox', { name: /Persist processTasksOnStart/ }).check();
    await form.getByRole('button', { name: 'Run sites drill' }).click();

    const report = page.getByRole('region', { name: 'Drill report' });
    await expect(report.getByText('Passed', { exact: true })).toBeVisible({ timeout: 240_000 });
    const timeline = report.getByRole('list', { name: 'Timeline' });
    await expect(timeline).toContainText('Failure: stop the task worker and applications of the active site');
    await expect(timeline).toContainText('processTasksOnStart false → true in profile "standby"');
    await expect(timeline).toContainText('Failback');
    await expect(report.getByRole('list', { name: 'Readiness checklist' })).toContainText('Standby can run workflow "DR drill ledger"');
    await expect(report).toContainText('10 / 10');
    await report.getByText(/^standby: standby-e2e/).click();
    await expect(report.getByRole('list', { name: 'Changes to standby' })).toContainText('processTasksOnStart true → false in profile "standby" (failback)');
    // Saving a PDF is for the desktop app only.
    await expect(report.getByRole('button', { name: 'Save as PDF' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Drill history' }).getByRole('row').nth(1)).toContainText('sites');
  } finally {
    await standby?.kill('SIGTERM');
  }
});

test('runs a sites drill of a workflow of this console named on the page, on simulated instances', async ({ consolePage: page, host }) => {
  let standby: LabSite | undefined;
  try {
    // A workflow of this console's profile whose one task calls an adapter neither site has (Servicenow).
    await createReadChanges(host);
    const file = path.join(host.dataDir, 'profiles', 'default', 'db', 'console.sqlite');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dr-standby-'));
    standby = await startConsole({ name: 'standby', dataDir: dir, profile: { id: 'standby', serverName: 'standby-e2e', processTasksOnStart: false, embeddedProps: { file } }, options: { dir, ledgerUrl: '' } });
    for (const app of ['OperationsManager', 'AutomationCatalog']) await standby.site.call('PUT', `/applications/${app}/stop`);

    await page.getByRole('link', { name: 'DR Drill' }).click();
    await expect(page.getByRole('heading', { name: 'DR Drill' })).toBeVisible();
    await page.getByRole('radio', { name: /Sites: this console or others/ }).check();
    const form = page.getByRole('form', { name: 'Sites drill' });
    await form.getByLabel('Standby URL').fill(standby.site.ref.url);
    await form.getByLabel('Standby API token').fill(standby.site.ref.token);
    await form.getByLabel('Jobs').fill('6');
    await form.getByLabel(/Critical workflows/).fill('Read Changes');
    await form.getByRole('checkbox', { name: /Run these workflows/ }).check();
    await form.getByRole('button', { name: 'Run sites drill' }).click();

    const report = page.getByRole('region', { name: 'Drill report' });
    await expect(report.getByText('Passed', { exact: true })).toBeVisible({ timeout: 240_000 });
    const timeline = report.getByRole('list', { name: 'Timeline' });
    await expect(timeline).toContainText('Check: the chosen workflows call simulated adapter instances only');
    // The workflow is in the database both sites share: nothing to copy; Servicenow is simulated.
    await expect(timeline).toContainText('copied where missing (active had them already, standby had them already)');
    await expect(timeline).toContainText('Load: 6 jobs of "Read Changes" (round-robin, on simulated instances)');
    await expect(timeline).toContainText('simulated calls: Servicenow.getChangeRequests 6');
    await expect(report).toContainText('"Read Changes" on simulated instances; simulated calls: Servicenow.getChangeRequests 6');
    await expect(report).toContainText('6 / 6');
  } finally {
    await standby?.kill('SIGTERM');
  }
});
