// Needs, diagrams and the first run as a person meets them (issue 42 items 2, 3, 5, 8, 10): an empty
// console runs the example in one click; Simulate on a parent covers its child's adapter; a wall of
// missing transformations reads as a short list of names with Start and the diagram in view; a
// diagram of piled-up positions draws no task over another, its start whole and its minimap full; a
// job opens on the task that failed; the diagram's tasks are reached with the arrow keys and opened with Enter.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { test, expect } from './fixtures';

const end = { type: 'standard', state: 'success' };
type Api = { api: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response> };

async function seriousAxe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function importAll(host: Api, docs: object[]) {
  for (const doc of docs) {
    const answer = await host.api('/workflows', { method: 'POST', json: doc });
    expect(answer.status, await answer.text()).toBeLessThan(300);
  }
}

/** A chain of `n` tasks from start to end; `last` replaces the final one. */
function chain(name: string, n: number, extra: (id: string, i: number) => object = () => ({}), last?: object) {
  const ids = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  const tasks: Record<string, object> = { workflow_start: { name: 'workflow_start', ...extra('workflow_start', -1) }, workflow_end: { name: 'workflow_end', ...extra('workflow_end', n) } };
  ids.forEach((id, i) => (tasks[id] = { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', summary: `Step ${i + 1}`, variables: { incoming: { str: 'a' }, outgoing: {} }, ...extra(id, i) }));
  if (last) tasks[ids[n - 1]!] = { ...tasks[ids[n - 1]!], ...last };
  const path = ['workflow_start', ...ids, 'workflow_end'];
  const transitions = Object.fromEntries(path.slice(0, -1).map((id, i) => [id, { [path[i + 1]!]: end }]));
  return { name, tasks, transitions };
}

async function boxes(figure: Locator) {
  return figure.locator('.react-flow__node').evaluateAll((nodes) => nodes.map((n) => ({ id: n.getAttribute('data-id'), ...JSON.parse(JSON.stringify(n.getBoundingClientRect())) })));
}

test('an empty console offers the example: one click imports it, simulates what it needs and a job of it runs to complete', async ({ consolePage: page }) => {
  const offer = page.getByRole('region', { name: 'New here? See a job run in a minute' });
  await expect(offer).toBeVisible();
  expect(await seriousAxe(page)).toEqual([]);
  await offer.getByRole('button', { name: 'Import the example and run a job' }).click();
  const done = offer.getByRole('status');
  await expect(done).toContainText('Imported 13 parts of the example', { timeout: 30_000 });
  await expect(done).toContainText(/simulated [^.]*Inventory/);
  await done.getByRole('link').first().click();
  await expect(page.getByLabel('Job status')).toContainText(/complete/i, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1 })).toContainText('SIMULATED');
  // With workflows in it, the console no longer offers the example.
  await page.goto(page.url().replace(/#.*$/, '#/'));
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'New here? See a job run in a minute' })).toHaveCount(0);
});

test('Simulate what is missing on a parent covers the adapter its child calls, and the parent becomes Ready', async ({ consolePage: page, host }) => {
  const child = { name: 'e2e-child-vpc', tasks: { vpc: { name: 'createVpc', app: 'Awsec2', type: 'automatic', location: 'Adapter', variables: { incoming: {}, outgoing: { result: null } } } }, transitions: { workflow_start: { vpc: end }, vpc: { workflow_end: end } } };
  const parent = { name: 'e2e-parent-vpc', tasks: { run: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', summary: 'Create the VPC', variables: { incoming: { task: '', workflow: child.name, variables: {} }, outgoing: { job_details: null } } } }, transitions: { workflow_start: { run: end }, run: { workflow_end: end } } };
  await importAll(host, [child, parent]);
  await page.goto(`${host.url}/#/workflows/${encodeURIComponent(parent.name)}`);
  const needs = page.getByRole('region', { name: `What ${parent.name} needs` });
  await expect(needs).toContainText('Adapter Awsec2');
  await needs.getByRole('button', { name: 'Simulate what is missing' }).click();
  // The panel gives way to Ready as soon as the list is read again (its "Made …" line goes with it).
  await expect(page.getByLabel(`State of ${parent.name}`)).toContainText('Ready');
  await expect(page.getByRole('button', { name: 'Start job' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Adapters' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'Awsec2' }).getByText('SIMULATED', { exact: true })).toBeVisible();
});

test('needs read as names grouped by kind, folded past three, with Start and the diagram in view', async ({ consolePage: page, host }) => {
  const ids = ['650a81249b3b3a0148b40592', '650af2719b3b3a0148b40593', '650b03528f256f016dabc632', '650b29cf8f256f016dabc633', '650c5b428f256f016dabc635'];
  const flow = chain('e2e-many-transformations', 6, (id, i) => (i >= 0 && i < 5 ? { name: 'transformation', summary: `Build input ${i + 1}`, type: 'operation', variables: { incoming: { tr_id: ids[i], variableMap: {} }, outgoing: {} } } : {}));
  flow.tasks.t6 = { name: 'createChangeRequest', app: 'Servicenow', type: 'automatic', location: 'Adapter', variables: { incoming: {}, outgoing: { result: null } } };
  await importAll(host, [flow]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${host.url}/#/workflows`);
  const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ hasText: flow.name });
  await expect(row).toContainText('Needs: Servicenow (1 task), Build input 1 (1 task), Build input 2 (1 task) and 3 more');
  await expect(row.locator('summary')).not.toContainText('650a8124');

  await row.getByRole('link', { name: flow.name }).click();
  const needs = page.getByRole('region', { name: `What ${flow.name} needs` });
  const transformations = needs.getByRole('group', { name: 'Transformations missing' });
  await expect(transformations.getByRole('heading')).toContainText('Transformations (5)');
  for (const shown of ['Build input 1', 'Build input 2', 'Build input 3']) await expect(transformations.getByText(shown, { exact: true })).toBeVisible();
  await expect(transformations.getByText('Build input 5', { exact: true })).toBeHidden();
  await transformations.getByText('Show 2 more transformations').click();
  await expect(transformations.getByText('Build input 5', { exact: true })).toBeVisible();
  await expect(transformations).toContainText('id 650c5b428f256f016dabc635');
  await expect(needs.getByRole('group', { name: 'Adapter missing' })).toContainText('Adapter Servicenow');
  // What Start says, and the diagram, are on the first screen.
  await expect(page.getByText('Start is offered once it has what it needs.')).toBeInViewport();
  await expect(page.getByRole('figure', { name: `Diagram of workflow ${flow.name}` })).toBeInViewport();
  expect(await seriousAxe(page)).toEqual([]);
});

test('a diagram of fractional positions piled on each other draws no task over another, its start whole, the minimap full; keys move and Enter opens', async ({ consolePage: page, host }) => {
  // An export whose tasks all carry the same fractions and no nodeLocation (what piled them up).
  const flow = chain('e2e-piled', 12, () => ({ x: 0.5, y: 0.5 }));
  await importAll(host, [flow]);
  await page.goto(`${host.url}/#/workflows/${encodeURIComponent(flow.name)}`);
  const figure = page.getByRole('figure', { name: `Diagram of workflow ${flow.name}` });
  await expect(figure).toContainText('laid out automatically');
  const laid = await boxes(figure);
  expect(laid).toHaveLength(14);
  for (const a of laid)
    for (const b of laid) if (a.id < b.id) expect(a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y, `${a.id} over ${b.id}`).toBe(true);
  const pane = await figure.locator('.react-flow').boundingBox();
  const start = laid.find((n) => n.id === 'workflow_start')!;
  expect(start.x >= pane!.x && start.y >= pane!.y && start.x + start.width <= pane!.x + pane!.width && start.y + start.height <= pane!.y + pane!.height).toBe(true);
  await expect(figure.locator('.react-flow__minimap-node')).toHaveCount(14);

  // One Tab stop; the arrow keys go along the flow and the view follows; Enter opens the task.
  const stop = figure.locator('[data-task-id][tabindex="0"]');
  await expect(stop).toHaveCount(1);
  await stop.focus();
  await expect(page.locator(':focus')).toHaveAttribute('data-task-id', 't1');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await expect(page.locator(':focus')).toHaveAttribute('data-task-id', 't11');
  await expect(page.locator(':focus')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Task t11 detail' })).toContainText('Step 11');
  await page.keyboard.press('Home');
  await expect(page.locator(':focus')).toHaveAttribute('data-task-id', 't1');
});

test('a long job opens centred on the task that failed', async ({ consolePage: page, host }) => {
  const flow = chain('e2e-fails-late', 16, () => ({}), { name: 'codePointAt', summary: 'Read past the end', variables: { incoming: { str: 'ab', pos: 9 }, outgoing: {} } });
  await importAll(host, [flow]);
  const started = await (await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: flow.name } })).json();
  await page.goto(`${host.url}/#/jobs/${started.data._id}`);
  await expect(page.getByLabel('Job status')).toContainText(/error/i, { timeout: 30_000 });
  await page.reload();
  const figure = page.getByRole('figure', { name: `Diagram of job ${started.data._id}` });
  const failed = figure.locator('.react-flow__node[data-id="t16"]');
  await expect(failed).toContainText('Read past the end');
  const pane = (await figure.locator('.react-flow').boundingBox())!;
  const box = (await failed.boundingBox())!;
  expect(Math.abs(box.x + box.width / 2 - (pane.x + pane.width / 2))).toBeLessThan(4);
  expect(Math.abs(box.y + box.height / 2 - (pane.y + pane.height / 2))).toBeLessThan(4);
  await expect(figure.locator('.react-flow__node[data-id="workflow_start"]')).not.toBeInViewport();
});
