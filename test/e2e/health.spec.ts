import { test, expect } from './fixtures';

test('the Applications tab lists the built-in applications as running', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Health' }).click();
  const table = page.getByRole('table', { name: 'Applications' });
  for (const name of ['WorkFlowEngine', 'OperationsManager', 'AutomationCatalog', 'AdminEssentials', 'MOP', 'ServiceCatalog', 'JsonForms']) {
    await expect(table.getByRole('row', { name })).toContainText('RUNNING');
  }
  await page.getByRole('textbox', { name: 'Filter applications' }).fill('flow');
  await expect(table.getByRole('row')).toHaveCount(2); // header + WorkFlowEngine
  await expect(table.getByRole('row', { name: 'WorkFlowEngine' })).toBeVisible();
});

async function createShipped(host: { api(path: string, init?: RequestInit & { json?: unknown }): Promise<Response> }, pkg: string, name: string) {
  const sample = await (await host.api(`/adapter-packages/sample?package=${encodeURIComponent(pkg)}&name=${name}`)).json();
  expect((await host.api('/adapters', { method: 'POST', json: { properties: sample.data } })).status).toBe(200);
}

test('stop Operations Manager from the Health page: job starts are refused until it is started', async ({ consolePage: page, host }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Health' }).click();
  const row = page.getByRole('table', { name: 'Applications' }).getByRole('row', { name: 'OperationsManager' });
  await row.getByRole('button', { name: 'Stop OperationsManager' }).click();
  // It asks first, naming what stopping refuses; nothing is stopped until the operator says yes.
  const ask = page.getByRole('dialog', { name: 'Stop the application OperationsManager?' });
  await expect(ask).toContainText('Job starts are refused');
  await expect(row).toContainText('RUNNING');
  await ask.getByRole('button', { name: 'Yes, stop OperationsManager' }).click();
  await expect(row).toContainText('STOPPED');
  const refused = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'any' } });
  expect(refused.status).toBe(503);
  expect((await refused.json()).message).toContain('OperationsManager is STOPPED');
  // Its own figures count the refusal; memory and pid are said to be the console process's.
  await expect(row).toContainText('refused: 1');
  await expect(page.getByRole('columnheader', { name: 'Memory (RSS, console process)' })).toBeVisible();
  await row.getByRole('button', { name: 'Start OperationsManager', exact: true }).click();
  await expect(row).toContainText('RUNNING');
});

test('stop an adapter, see it reported, restart it, see it ONLINE again', async ({ consolePage: page, host }) => {
  await createShipped(host, '@automation/adapter-example', 'example');
  await page.goto(`${host.url}/#/health/adapters`);
  const row = page.getByRole('table', { name: 'Adapters' }).getByRole('row', { name: 'example' });
  await expect(row).toContainText('ONLINE');
  await expect(row.getByRole('img', { name: /Unhealthy/ })).toHaveCount(0);

  await row.getByRole('button', { name: 'Stop example' }).click();
  await page.getByRole('dialog', { name: 'Stop the adapter example?' }).getByRole('button', { name: 'Yes, stop example' }).click();
  await expect(row).toContainText('STOPPED');
  await expect(row).toContainText('OFFLINE');
  await expect(row.getByRole('img', { name: 'Unhealthy: OFFLINE: the adapter is stopped' })).toBeVisible();
  const reported = await (await host.api('/health/adapters/example')).json();
  expect(reported.results[0]).toMatchObject({ state: 'STOPPED', connection: { state: 'OFFLINE' } });

  await row.getByRole('button', { name: 'Restart example' }).click();
  await expect(row).toContainText('RUNNING');
  await expect(row).toContainText('ONLINE');
  await expect(row.getByRole('img', { name: /Unhealthy/ })).toHaveCount(0);
});

test('the unconfigured http-request adapter is marked unhealthy with the reason', async ({ consolePage: page, host }) => {
  await createShipped(host, '@automation/adapter-http_request', 'http-request');
  await page.goto(`${host.url}/#/health/adapters`);
  const row = page.getByRole('table', { name: 'Adapters' }).getByRole('row', { name: 'http-request' });
  await expect(row.getByRole('img', { name: /Unhealthy: OFFLINE: no allowed base URLs/ })).toBeVisible();
});

test('the deprecated API callers list shows who still calls GET /admin/services/health', async ({ consolePage: page, host }) => {
  const legacy = await host.api('/admin/services/health', { headers: { 'x-caller': 'inventory-app/1.4' } });
  expect(legacy.headers.get('deprecation')).toBe('true');
  await page.goto(`${host.url}/#/health/deprecated`);
  const row = page.getByRole('table', { name: 'Callers of deprecated APIs' }).getByRole('row', { name: /inventory-app\/1\.4/ });
  await expect(row).toContainText('GET /admin/services/health');
  await expect(row).toContainText('deprecated');
  await expect(row).toContainText('GET /health/adapters or GET /health/applications');
});

test('the Server tab shows the release the service’s clients read, the console process and its machine', async ({ consolePage: page }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Health' }).click();
  await page.getByRole('tab', { name: 'Server' }).click();
  const process = page.getByLabel('Console process');
  await expect(process).toContainText('2022.1 (build 2022.1.0)');
  await expect(process).toContainText(/Applications\s*running/);
  await expect(page.getByLabel('Machine')).toContainText('Load (1, 5, 15 min)');
});
