// Issue 42, as an operator meets it: a log that is about the console, not about the UI loading
// itself, read as rows and filtered by time; the keyboard reaches a job's Retry and gets focus back
// from dialogs; texts that wrap, dates in local time, a clean simulated label, a rules editor that
// names the line of a mistake; and the Health page's small timeline of each application's states.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

const end = { type: 'standard', state: 'success' };

async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function importAll(host: { api: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response> }, docs: object[]) {
  for (const doc of docs) {
    const answer = await host.api('/workflows', { method: 'POST', json: doc });
    expect(answer.status, await answer.text()).toBeLessThan(300);
  }
}

async function startJob(host: { api: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response> }, workflow: string, variables: object = {}) {
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow, options: { variables } } });
  expect(started.status).toBeLessThan(300);
  return ((await started.json()) as { data: { _id: string } }).data._id;
}

// codePointAt at position -1 errors; with no error transition the job waits for Retry.
const failing = {
  name: 'e2e-keyboard-failing',
  tasks: {
    cp: { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'abc', pos: -1 }, outgoing: {} } },
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`later${i}`, { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'a' }, outgoing: {} } }])),
  },
  transitions: {
    workflow_start: { cp: end },
    cp: { later0: end },
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`later${i}`, { [i === 11 ? 'workflow_end' : `later${i + 1}`]: end }])),
  },
};

test('the log holds no line of the UI loading its page, assets or favicon; its rows name time, level, component and ids, filtered by time', async ({ consolePage: page, host }) => {
  // Walk a few pages: each loads what it needs and polls.
  for (const area of ['Workflows', 'Jobs', 'Health', 'Logs']) {
    await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: area }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.reload();
  const answer = (await (await host.api('/logs?limit=1000')).json()) as { results: { msg: string; fields: { url?: string } }[] };
  const requested = answer.results.filter((e) => e.msg === 'request').map((e) => String(e.fields.url));
  expect(requested.filter((url) => url === '/' || url.startsWith('/assets/') || url.includes('favicon') || url.endsWith('.html'))).toEqual([]);
  expect(answer.results.some((e) => e.msg === 'console started')).toBe(true);

  const id = await startJob(host, (await importAll(host, [failing]), failing.name));
  const entries = page.getByRole('table', { name: 'Log entries' });
  const taskError = entries.getByRole('row').filter({ hasText: 'task cp (codePointAt) ended in error' });
  await expect(taskError).toHaveCount(1);
  await expect(entries.getByRole('columnheader')).toHaveText(['Time', 'Level', 'Component', 'Message', 'Ids']);
  // No JSON blob: the ids and details are named values.
  await expect(taskError.getByRole('link', { name: id })).toBeVisible();
  await expect(taskError).toContainText('task');
  await expect(taskError).not.toContainText('{"');

  // A time range that ends before the console started shows nothing; one from then on shows the error again.
  await page.getByLabel('To').fill('2020-01-01T00:00:00');
  await expect(page.getByText('No entries match these filters yet.')).toBeVisible();
  await page.getByLabel('To').fill('');
  await page.getByLabel('From').fill('2020-01-01T00:00:00');
  await page.getByRole('searchbox', { name: 'Task', exact: true }).fill('cp');
  await expect(taskError).toHaveCount(1);
  await expect(entries.getByRole('row').filter({ hasText: 'console started' })).toHaveCount(0);
  expect(await seriousAxe(page)).toEqual([]);
});

test("the keyboard: a skip link to a job's actions reaches Retry in a few Tabs; the Start form and the Clone dialog take and give back focus", async ({ consolePage: page, host }) => {
  await importAll(host, [failing]);
  const id = await startJob(host, failing.name);
  await page.goto(`${host.url}/#/jobs/${id}`);
  await expect(page.getByLabel('Job status')).toHaveText('error');

  // From the top of a freshly loaded page: the skip links come first, "Skip to actions" lands on the job's actions.
  await page.reload();
  await expect(page.getByLabel('Job status')).toHaveText('error');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to actions' })).toBeFocused();
  await page.keyboard.press('Enter');
  let tabs = 0;
  const retry = page.getByRole('group', { name: 'Job actions' }).getByRole('button', { name: 'Retry cp' });
  while (!(await retry.evaluate((el) => el === document.activeElement)) && tabs < 10) {
    await page.keyboard.press('Tab');
    tabs++;
  }
  expect(tabs, 'Tabs from the skip link to Retry').toBeLessThanOrEqual(3);
  await page.keyboard.press('Enter');
  // Retried: the task ran again (and, its input unchanged, failed again).
  await expect(page.getByRole('row', { name: 'Task cp' })).toContainText('attempt 2');

  // The Start form: focus moves into it when it opens, back to "Start job" when it closes.
  await page.goto(`${host.url}/#/workflows/${failing.name}`);
  const startButton = page.getByRole('button', { name: 'Start job' });
  await startButton.click();
  const form = page.getByRole('form', { name: `Start a job of ${failing.name}` });
  await expect(form.getByLabel('Description')).toBeFocused();
  await form.getByRole('button', { name: 'Close' }).click();
  await expect(startButton).toBeFocused();

  // The Clone dialog: Tab stays inside it; closing gives focus back to Clone….
  await page.goto(`${host.url}/#/profiles/default/properties`);
  const clone = page.getByRole('button', { name: 'Clone…' });
  await clone.click();
  const dialog = page.getByRole('dialog', { name: 'Clone profile default' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  expect(await seriousAxe(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(clone).toBeFocused();
});

test("texts: ViewData's body wraps, the history's dates and the health detail in local time, a clean simulated label, rules errors name their line", async ({ consolePage: page, host }) => {
  const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  const view = {
    name: 'e2e-long-view',
    tasks: {
      ask: {
        name: 'ViewData',
        app: 'WorkFlowEngine',
        type: 'manual',
        view: '/workflow_engine/task/ViewData',
        variables: { incoming: { header: 'Read this', message: 'A long body', body: long.repeat(4), variables: '', btn_success: 'OK', btn_failure: 'No' }, outgoing: {} },
      },
    },
    transitions: { workflow_start: { ask: end }, ask: { workflow_end: end } },
  };
  await importAll(host, [view]);
  const id = await startJob(host, view.name);
  await page.goto(`${host.url}/#/jobs/${id}`);
  const body = page.getByLabel('body of ask');
  await expect(body).toContainText('word39');
  // Wrapped: no line runs past the panel (nothing to scroll sideways), and it takes more than one line.
  const box = await body.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, height: el.getBoundingClientRect().height }));
  expect(box.scroll).toBeLessThanOrEqual(box.client);
  expect(box.height).toBeGreaterThan(40);

  // A stopped application's detail says when in local time, not ISO.
  expect((await host.api('/health/status')).status).toBe(200);
  expect((await host.api('/applications/AutomationCatalog/stop', { method: 'PUT' })).status).toBe(200);
  await page.goto(`${host.url}/#/health`);
  const row = page.getByRole('row', { name: 'AutomationCatalog' });
  await expect(row).toContainText('stopped at');
  await expect(row).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  // Its small timeline: running, then stopped.
  await expect(row.getByRole('img', { name: /^Recent states of AutomationCatalog: RUNNING since .*; then STOPPED since / })).toBeVisible();

  // A simulated instance: a clean label, and a rules editor that names the line of a JSON mistake.
  const gitlab = {
    name: 'e2e-gitlab-calls',
    tasks: { get: { name: 'getProjects', app: 'Gitlab', type: 'automatic', variables: { incoming: { adapter_id: 'Gitlab' }, outgoing: { result: '' } } } },
    transitions: { workflow_start: { get: end }, get: { workflow_end: end } },
  };
  await importAll(host, [gitlab]);
  const made = await host.api('/adapters/simulate', { method: 'POST', json: { workflows: [gitlab.name] } });
  expect(made.status, await made.text()).toBe(200);
  await page.goto(`${host.url}/#/adapters/Gitlab`);
  const detail = page.getByRole('region', { name: 'Adapter Gitlab' });
  await expect(detail).toContainText('Simulated Gitlab (answers by its rules, not a live system; 1 method)');
  await expect(detail).not.toContainText('simulated:Gitlab');
  const editor = detail.getByLabel('simulation (JSON)');
  const width = await editor.evaluate((el) => ({ editor: el.getBoundingClientRect().width, form: el.closest('form')!.getBoundingClientRect().width, font: getComputedStyle(el).fontFamily }));
  expect(width.editor).toBeGreaterThan(width.form * 0.9);
  expect(width.font).toMatch(/mono/);
  await editor.fill('{\n  "methods": {\n    "getProjects": { "rules": [] }\n  ,\n}');
  await expect(detail.getByText(/^Not valid JSON: line 5, column 1/)).toBeVisible();
  await detail.getByRole('button', { name: 'Save rules' }).click();
  await expect(detail.getByRole('alert')).toContainText('line 5, column 1');
  expect(await seriousAxe(page)).toEqual([]);
});
