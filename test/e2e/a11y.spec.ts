// Accessibility on every page, at 1024 and 1920 px, on a seeded console: axe-core finds
// no serious or critical violation (WCAG 2.1 A and AA, colour contrast included); a skip
// link leads to the content; focus moves to the page heading on navigation and is visible.
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './fixtures';
import { APPROVAL, seedCockpit, waitUntil } from '../support/cockpit';
import type { Page } from '@playwright/test';

async function axe(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help}\n${v.nodes.slice(0, 5).map((n) => `  ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`);
  return report;
}

for (const width of [1024, 1920]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 1024 ? 768 : 1080 } });

    test('no serious or critical axe violation on any page', async ({ consolePage: page, host }) => {
      test.setTimeout(180_000);
      const seeded = await seedCockpit(host, { errored: 2, waiting: 2 });
      // A ViewData task too, to be judged open in the work queue (its heading, message, body and buttons).
      const end = { type: 'standard', state: 'success' };
      const viewData = {
        name: 'a11y-view-data',
        tasks: {
          show: {
            name: 'ViewData',
            app: 'WorkFlowEngine',
            type: 'manual',
            variables: { incoming: { header: 'Check the routers', message: 'Three routers change.', body: { routers: ['r1', 'r2', 'r3'] }, btn_success: 'Approve', btn_failure: 'Reject' }, outgoing: {} },
          },
        },
        transitions: { workflow_start: { show: end }, show: { workflow_end: end } },
      };
      expect((await host.api('/workflows', { method: 'POST', json: viewData })).status).toBe(201);
      const shown = ((await (await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: viewData.name } })).json()) as { data: { _id: string } }).data._id;
      const viewDataTask = await waitUntil('the ViewData task to wait', async () => {
        const queue = (await (await host.api('/operations-manager/tasks/worklist')).json()) as { results: { _id: string; jobId: string }[] };
        return queue.results.find((item) => item.jobId === shown)?._id;
      });
      const pages: [string, string | RegExp][] = [
        ['#/overview', 'Overview'],
        ['#/worklist', 'Work queue'],
        [`#/worklist?task=${encodeURIComponent(viewDataTask)}`, 'Work queue'],
        ['#/jobs', 'Jobs'],
        ['#/jobs?status=error', 'Jobs'],
        ['#/logs', 'Logs'],
        [`#/jobs/${seeded.errored[0]}`, /cockpit-codepoint/],
        [`#/jobs/${seeded.waiting[0]}`, /cockpit-approval/],
        ['#/workflows', 'Workflows'],
        [`#/workflows/${encodeURIComponent(APPROVAL)}`, /cockpit-approval/],
        ['#/profiles', 'Profiles'],
        ['#/profiles/default', 'Profiles'],
        ['#/profiles/default/configure', 'Profiles'],
        ['#/profiles/default/indexing', 'Profiles'],
        ['#/profiles/default/json', 'Profiles'],
        ['#/profiles/new', 'Profiles'],
        ['#/health/applications', 'Health'],
        ['#/health/adapters', 'Health'],
        ['#/health/server', 'Health'],
        ['#/health/deprecated', 'Health'],
        ['#/adapters', 'Adapters'],
        ['#/adapters/example', 'Adapters'],
        ['#/import', /Import/],
        ['#/automations', 'Automations'],
        ['#/transformations', 'Transformations'],
        ['#/release', /Release/],
        ['#/upgrade', /Upgrade/],
      ];
      const found: string[] = [];
      for (const [hash, heading] of pages) {
        await page.goto(`${host.url}/${hash}`);
        await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
        // Let the page's data arrive before judging it.
        await page.waitForLoadState('networkidle');
        found.push(...(await axe(page, hash)));
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  });
}

test('a skip link leads to the content; navigation moves focus to the heading; focus is visible', async ({ consolePage: page }) => {
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeFocused();

  const nav = page.getByRole('navigation', { name: 'Console areas' });
  await nav.getByRole('link', { name: 'Jobs' }).focus();
  const ring = await nav.getByRole('link', { name: 'Jobs' }).evaluate((el) => {
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor };
  });
  expect(ring.style).not.toBe('none');
  expect(ring.width).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeFocused();
  await nav.getByRole('link', { name: 'Work queue' }).click();
  await expect(page.getByRole('heading', { name: 'Work queue', level: 1 })).toBeFocused();
});
