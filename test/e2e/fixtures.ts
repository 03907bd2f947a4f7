// A real console host per test (a fresh data directory, so no test sees another's
// profiles or jobs), serving the built UI, and a page already signed in with its token.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { startTestHost, UI_DIR, type TestHost } from '../support/host';

export const test = base.extend<{ host: TestHost; consolePage: Page }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern: none here
  host: async ({}, use) => {
    const host = await startTestHost({ uiDir: UI_DIR });
    await use(host);
    await host.dispose();
  },
  consolePage: async ({ page, host }, use) => {
    await page.goto(`${host.url}/#token=${host.token}`);
    await use(page);
  },
});

export { expect };

/** The serious or critical axe violations (WCAG 2.1 A and AA) of the page as it is. */
export async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
