// A real console host per test file, serving the built UI, and a page already signed in with its token.
import { test as base, expect } from '@playwright/test';
import { startTestHost, UI_DIR, type TestHost } from '../support/host';

export const test = base.extend<{ consolePage: import('@playwright/test').Page }, { host: TestHost }>({
  host: [
    async ({}, use) => {
      const host = await startTestHost({ uiDir: UI_DIR });
      await use(host);
      await host.dispose();
    },
    { scope: 'worker' },
  ],
  consolePage: async ({ page, host }, use) => {
    await page.goto(`${host.url}/#token=${host.token}`);
    await use(page);
  },
});

export { expect };
