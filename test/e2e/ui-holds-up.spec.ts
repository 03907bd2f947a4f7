// The console holds up: long unicode names in routes, the width from 1024 to 1920 px,
// the unsaved-changes guard, the offline state, the DR standby's migration banner, the favicon.
import { test, expect } from './fixtures';
import { seedCockpit } from '../support/cockpit';

const LONG_NAME = `Provisión de red — 東京 / データセンター 🚀 ${'Ω'.repeat(60)} ${'x'.repeat(200)}`.slice(0, 200);

test('a workflow with a 200-character unicode name (slash included) opens from the list and its route', async ({ consolePage: page, host }) => {
  expect([...LONG_NAME].length).toBeLessThanOrEqual(200);
  const flow = { name: LONG_NAME, tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } };
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const api = await host.api(`/workflows/${encodeURIComponent(LONG_NAME)}`);
  expect(api.status).toBe(200);
  expect(((await api.json()) as { name: string }).name).toBe(LONG_NAME);

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Workflows' }).click();
  await page.getByRole('link', { name: LONG_NAME }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(LONG_NAME.slice(0, 40));
  await expect(page.getByRole('figure', { name: `Diagram of workflow ${LONG_NAME}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('東京 / データセンター 🚀');
});

test.describe('at 1024 px', () => {
  test.use({ viewport: { width: 1024, height: 768 } });

  test("the sidebar starts collapsed at 1024 px, the operator's choice is kept, the work queue keeps its detail beside the list", async ({ consolePage: page, host }) => {
    await seedCockpit(host, { errored: 0, waiting: 2 });
    const nav = page.getByRole('navigation', { name: 'Console areas' });
    await expect(page.getByRole('button', { name: 'Expand navigation' })).toHaveAttribute('aria-expanded', 'false');
    const narrow = (await nav.boundingBox())!.width;
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect(page.getByRole('button', { name: 'Collapse navigation' })).toHaveAttribute('aria-expanded', 'true');
    expect((await nav.boundingBox())!.width).toBeGreaterThan(narrow * 2);
    // Expanded by the operator, it stays so after a reload; collapsed again, likewise.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeVisible();
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await expect(page.getByRole('button', { name: 'Expand navigation' })).toHaveAttribute('aria-expanded', 'false');
    // Each entry keeps its name while only its initials show.
    await nav.getByRole('link', { name: 'Work queue' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Expand navigation' })).toBeVisible();
    const list = (await page.getByRole('table', { name: 'Tasks waiting for an operator' }).boundingBox())!;
    const detail = (await page.getByRole('region', { name: /^Task ask of job/ }).boundingBox())!;
    expect(detail.x).toBeGreaterThanOrEqual(list.x + list.width - 1);
    expect(detail.x + detail.width).toBeLessThanOrEqual(1024);
    await page.screenshot({ path: 'test-results/screens/worklist-collapsed-1024.png' });
  });

  test('the Jobs list shows its action column and error at 1024 px without cutting them off', async ({ consolePage: page, host }) => {
    await seedCockpit(host, { errored: 2, waiting: 0 });
    await page.goto(`${host.url}/#/jobs?status=error`);
    const row = page.getByRole('table', { name: 'Jobs list' }).getByRole('row', { name: /cockpit-codepoint error/ }).first();
    const error = row.getByRole('cell').nth(5);
    await expect(error).toContainText('codePointAt');
    const box = (await error.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
  });
});

test('a form with unsaved edits asks before leaving, and keeps them when the operator stays', async ({ consolePage: page, host }) => {
  await seedCockpit(host, { errored: 0, waiting: 1 });
  await page.goto(`${host.url}/#/worklist`);
  const form = page.getByRole('form', { name: /^Finish task ask/ });
  await form.getByLabel('decision').fill('half-typed');
  const nav = page.getByRole('navigation', { name: 'Console areas' });

  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await nav.getByRole('link', { name: 'Jobs' }).click();
  await expect.poll(() => asked).toContain('unsaved changes in the form of task ask');
  await expect(page).toHaveURL(/#\/worklist/);
  await expect(form.getByLabel('decision')).toHaveValue('half-typed');

  page.once('dialog', (dialog) => void dialog.accept());
  await nav.getByRole('link', { name: 'Jobs' }).click();
  await expect(page.getByRole('heading', { name: 'Jobs' })).toBeVisible();
});

test('when the console does not answer, every live indicator turns grey "not answering since", and recovers by itself', async ({ consolePage: page, host }) => {
  await seedCockpit(host, { errored: 1, waiting: 0 });
  // The page opened before the seeding; a reload shows it now rather than at the next poll.
  await page.reload();
  const bar = page.getByRole('status', { name: 'Status bar' });
  await expect(bar).toContainText('Store embedded: running');
  await expect(page.getByLabel('Jobs in error: count')).toHaveText('1');

  await page.route(/\/(health\/status|console\/attention|store\/status)/, (route) => route.abort('connectionrefused'));
  await expect(bar).toContainText(/Store embedded: not answering since \d\d:\d\d:\d\d/, { timeout: 15_000 });
  await expect(bar).toContainText(/Task worker not answering since \d\d:\d\d:\d\d/);
  await expect(bar).toContainText('Console unreachable');
  await expect(bar).toHaveClass(/status-bar--offline/);
  await expect(page.getByLabel('Jobs in error: count')).toHaveText('?');
  await expect(page.getByRole('region', { name: 'Store' }).getByLabel('Store connection')).toHaveText(/not answering since \d\d:\d\d:\d\d/, { timeout: 15_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'The console does not answer' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/offline-1280.png' });

  await page.unroute(/\/(health\/status|console\/attention|store\/status)/);
  await expect(bar).toContainText('Store embedded: running', { timeout: 15_000 });
  await expect(bar).not.toContainText('not answering since');
  await expect(page.getByLabel('Jobs in error: count')).toHaveText('1');
  await expect(page.getByRole('region', { name: 'Store' }).getByText('connected', { exact: true })).toBeVisible({ timeout: 15_000 });
});

test("the DR standby's migration banner proposes false and spells out what each value does", async ({ consolePage: page, host }) => {
  const created = await host.api('/profiles', { method: 'POST', json: { id: 'dr-standby', processTasksOnStart: false, activate: true } });
  expect(created.status).toBeLessThan(300);
  await page.goto(`${host.url}/#/profiles/dr-standby`);
  const banner = page.getByRole('region', { name: 'Legacy activate setting' });
  await banner.getByRole('button', { name: 'Review the migration' }).click();
  const panel = page.getByRole('region', { name: 'Migrate activate to processTasksOnStart' });
  await expect(panel).toContainText('this profile is a standby (processTasksOnStart false): the proposed value keeps it false');
  await expect(panel.getByLabel('What this value does')).toContainText('does not work tasks when it starts');
  await expect(panel.getByRole('button', { name: 'Write processTasksOnStart = false' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Write processTasksOnStart = true' })).toHaveCount(0);
});

test('/favicon.ico is served', async ({ host }) => {
  const icon = await fetch(`${host.url}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get('content-type')).toMatch(/icon/);
  expect((await icon.arrayBuffer()).byteLength).toBeGreaterThan(0);
});
