// The cockpit as an operator uses it (issue 31): a ViewData task in the work queue drawn as
// the job page draws it, claimed and finished, with who finished it; ErrorHandling's answers;
// a workflow whose child needs a missing adapter is not Ready, says what it needs and offers
// no Start; the Overview counts the workflows that cannot run; no job is started "by Mozilla".
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { INVENTORY } from '../adapters/support';
import { test, expect, seriousAxe } from './fixtures';

const end = { type: 'standard', state: 'success' };

const viewDataFlow = {
  name: 'e2e-approve-change',
  tasks: {
    workflow_start: { name: 'workflow_start' },
    workflow_end: { name: 'workflow_end' },
    ask: {
      name: 'ViewData',
      app: 'WorkFlowEngine',
      type: 'manual',
      location: 'Application',
      summary: 'Approve the change',
      variables: {
        incoming: { header: 'Approve change CR-7', message: 'The change touches 3 routers.', body: { routers: ['r1', 'r2', 'r3'] }, variables: '', btn_success: 'Approve', btn_failure: 'Reject' },
        outgoing: {},
      },
    },
    handle: {
      name: 'ErrorHandling',
      app: 'WorkFlowEngine',
      type: 'manual',
      location: 'Application',
      variables: { incoming: { severity: 'warning', status: 'Router r2 answered slowly', retry: true }, outgoing: { response: '$var.job.response' } },
    },
  },
  transitions: { workflow_start: { ask: end }, ask: { handle: end }, handle: { workflow_end: end } },
};

const child = { name: 'e2e-needs-awsec2', tasks: { vpc: { name: 'createVpc', app: 'Awsec2', type: 'automatic', location: 'Adapter' } }, transitions: { workflow_start: { vpc: end }, vpc: { workflow_end: end } } };
const parent = {
  name: 'e2e-provision-vpc',
  tasks: {
    run: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', summary: 'Create the VPC', variables: { incoming: { task: '', workflow: child.name, variables: {} } } },
    jst: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', summary: 'Build the VPC filter', variables: { incoming: { tr_id: '650c5b428f256f016dabc635', variableMap: {} }, outgoing: {} } },
  },
  transitions: { workflow_start: { run: end }, run: { jst: end }, jst: { workflow_end: end } },
};

async function importAll(host: { api: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response> }, docs: object[]) {
  for (const doc of docs) {
    const answer = await host.api('/workflows', { method: 'POST', json: doc });
    expect(answer.status, await answer.text()).toBeLessThan(300);
  }
}

test('the work queue draws a ViewData task with its heading and buttons, is claimed, finished, and listed with who finished it', async ({ consolePage: page, host }) => {
  await importAll(host, [viewDataFlow]);
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Workflows' }).click();
  await page.getByRole('link', { name: viewDataFlow.name }).click();
  await page.getByRole('button', { name: 'Start job' }).click();
  await page.getByRole('form', { name: `Start a job of ${viewDataFlow.name}` }).getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Started job' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Work queue' }).click();
  const detail = page.getByRole('region', { name: /^Task ask of job / });
  const view = detail.getByRole('group', { name: 'View data of ask' });
  await expect(view.getByRole('heading', { name: 'Approve change CR-7', level: 3 })).toBeVisible();
  await expect(view).toContainText('The change touches 3 routers.');
  await expect(view.getByLabel('body of ask')).toContainText('"r2"');
  await expect(view.getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(view.getByRole('button', { name: 'Reject' })).toBeVisible();
  await expect(detail.getByText('Values are JSON')).toHaveCount(0);

  // Claim it: it moves to "Mine", with the desktop user as assignee.
  await detail.getByRole('button', { name: 'Claim' }).click();
  await expect(detail.getByRole('button', { name: 'Release' })).toBeVisible();
  const views = page.getByRole('navigation', { name: 'Work queue views' });
  await views.getByRole('button', { name: /^Mine/ }).click();
  await expect(page).toHaveURL(/view=mine/);
  const operator = ((await page.getByText(/^you are /).textContent()) ?? '').replace('you are ', '');
  expect(operator).not.toMatch(/Mozilla|^$/);
  await expect(page.getByRole('table', { name: 'Tasks waiting for an operator' })).toContainText(operator);
  expect(await seriousAxe(page)).toEqual([]);

  await view.getByRole('button', { name: 'Approve' }).click();
  // The next task is ErrorHandling: its warning offers Proceed or Abort.
  await views.getByRole('button', { name: /^All/ }).click();
  const handling = page.getByRole('group', { name: 'Error handling of handle' });
  await expect(handling.getByRole('heading', { name: 'Error handling: warning' })).toBeVisible();
  await expect(handling).toContainText('Router r2 answered slowly');
  await handling.getByRole('button', { name: 'Proceed' }).click();
  await expect(page.getByText('No task is waiting for an operator.')).toBeVisible();

  const finished = page.getByRole('table', { name: 'Tasks finished by an operator' });
  await expect(finished.getByRole('row').filter({ hasText: 'Approve the change' })).toContainText(operator);
  await expect(finished.getByRole('row').filter({ hasText: 'ErrorHandling' })).toContainText('success');

  // The job says who started it: the operator, not a browser.
  await finished.getByRole('row').filter({ hasText: 'Approve the change' }).getByRole('link').click();
  await expect(page.getByText(`by ${operator}`, { exact: true })).toBeVisible();
  await expect(page.getByText(/by Mozilla/)).toHaveCount(0);
});

test('a workflow whose child needs a missing adapter is not Ready: its page says what to do and offers no Start; the Overview counts it', async ({ consolePage: page, host }) => {
  await importAll(host, [child, parent]);
  await page.reload();
  const card = page.getByRole('article', { name: 'Workflows that cannot run' });
  await expect(card.getByLabel('Workflows that cannot run: count')).toHaveText('2');
  await expect(card).toContainText('2 workflows of 2 cannot run');
  await card.getByRole('link', { name: parent.name }).click();

  const needs = page.getByRole('region', { name: `What ${parent.name} needs` });
  await expect(needs).toContainText('Adapter Awsec2');
  await expect(needs).toContainText(`used by ${child.name}: vpc`);
  await expect(needs).toContainText('Install an adapter package that provides Awsec2');
  // A missing transformation is known by the name its task gives it, its id only as a detail.
  await expect(needs).toContainText('Transformation Build the VPC filter id 650c5b428f256f016dabc635');
  await expect(needs).toContainText('used by Build the VPC filter (jst)');
  expect(await seriousAxe(page)).toEqual([]);
  await expect(page.getByRole('button', { name: 'Start job' })).toHaveCount(0);
  // Marked on the diagram: the childJob task that starts the child, and the transformation task.
  const marked = page.getByRole('figure', { name: `Diagram of workflow ${parent.name}` }).locator('.diagram-task--needs');
  await expect(marked).toHaveCount(2);
  await expect(marked.filter({ hasText: 'Create the VPC' })).toContainText('needs a missing part');
  await expect(marked.filter({ hasText: 'Build the VPC filter' })).toContainText('needs a missing part');

  await page.goto(`${host.url}/#/workflows?ready=no`);
  const table = page.getByRole('table', { name: 'Workflows' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').filter({ hasText: parent.name })).toContainText('Needs: Awsec2 (1 task), Build the VPC filter (1 task)');
});

test('a console that stops answering without closing its connections turns every live value grey "not answering since", and recovers by itself', async ({ consolePage: page, host }) => {
  await importAll(host, [viewDataFlow]);
  await page.reload();
  const bar = page.getByRole('status', { name: 'Status bar' });
  await expect(bar).toContainText('Store embedded: running');

  // Frozen: every API request is held, never answered (no refused connection to notice).
  const api = (url: URL) => url.pathname !== '/' && !url.pathname.startsWith('/assets/') && !url.pathname.endsWith('.ico');
  await page.route(api, () => undefined);
  await expect(bar).toContainText(/Store embedded: not answering since \d\d:\d\d:\d\d/, { timeout: 15_000 });
  await expect(bar).toContainText(/Task worker not answering since \d\d:\d\d:\d\d/);
  await expect(bar).toHaveClass(/status-bar--offline/);
  await expect(bar).toContainText('does not answer within 5 s');
  await expect(page.getByLabel('Jobs in error: count')).toHaveText('?');
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Work queue' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /The console is not answering since \d\d:\d\d:\d\d/ })).toBeVisible();
  // A page whose first read is held does not sit on "Loading…": it names the timeout.
  await expect(page.getByText(/Cannot read the work queue: the console server does not answer within \d+ s/)).toBeVisible({ timeout: 30_000 });

  await page.unroute(api);
  await expect(bar).toContainText('Store embedded: running', { timeout: 15_000 });
  await expect(bar).not.toContainText('not answering');
  await expect(page.getByRole('alert').filter({ hasText: 'The console is not answering' })).toHaveCount(0);
  await expect(page.getByText('No task is waiting for an operator.')).toBeVisible({ timeout: 15_000 });
});

test('the Jobs list shows id, whole workflow names, started, ended, duration, current task and initiator; its status chips add up', async ({ consolePage: page, host }) => {
  const long = (vendor: string) => ({ ...viewDataFlow, name: `Device Health Check and Software Compliance Report - ${vendor}` });
  const quick = { name: 'e2e-quick', tasks: { up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: 'a' }, outgoing: {} } } }, transitions: { workflow_start: { up: end }, up: { workflow_end: end } } };
  await importAll(host, [long('Cisco IOS XR'), long('Juniper MX'), quick]);
  const ids: string[] = [];
  for (const name of [long('Cisco IOS XR').name, long('Juniper MX').name, quick.name]) {
    const started = await host.api('/operations-manager/jobs/start', { method: 'POST', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' }, json: { workflow: name } });
    ids.push(((await started.json()) as { data: { _id: string } }).data._id);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Jobs' }).click();
  const list = page.getByRole('table', { name: 'Jobs list' });
  await expect(list.getByRole('row', { name: /e2e-quick complete/ })).toBeVisible();

  for (const vendor of ['Cisco IOS XR', 'Juniper MX']) {
    const row = list.getByRole('row', { name: new RegExp(`- ${vendor} waiting for an operator`) });
    const name = row.getByRole('link', { name: long(vendor).name });
    await expect(name).toBeVisible();
    // The whole name is drawn: nothing of it is clipped by its cell.
    const clipped = await row.getByRole('cell').nth(2).evaluate((cell) => cell.scrollHeight > cell.clientHeight + 1 || cell.scrollWidth > cell.clientWidth + 1);
    expect(clipped).toBe(false);
    await expect(row.getByLabel(/^current task of /)).toHaveText('at Approve the change');
    await expect(row).toContainText(/running for \d/);
  }
  const done = list.getByRole('row', { name: /e2e-quick complete/ });
  await expect(done).toContainText(ids[2]!);
  await expect(done).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  await expect(done).toContainText(/ended \d\d:\d\d:\d\d · \d/);
  const initiator = done.getByLabel(`initiator of ${ids[2]}`);
  await expect(initiator).toHaveText(/^by \S+/);
  await expect(initiator).not.toContainText('Mozilla');

  // Chips: waiting 2, complete 1, running 0 (the waiting jobs are not counted twice), all 3.
  const status = page.getByRole('group', { name: 'Status' });
  await expect(status.getByRole('button', { name: /^all 3$/ })).toBeVisible();
  await expect(status.getByRole('button', { name: /waiting for an operator 2$/ })).toBeVisible();
  await expect(status.getByRole('button', { name: /running 0$/ })).toBeVisible();
  await expect(status.getByRole('button', { name: /complete 1$/ })).toBeVisible();
  await status.getByRole('button', { name: /complete 1$/ }).click();
  await expect(page).toHaveURL(/status=complete/);
  await expect(list.getByRole('row', { name: /complete/ })).toHaveCount(1);
});

test("the start form marks required fields, names each empty one under itself, and takes a union-typed adapterId as plain text", async ({ consolePage: page, host }) => {
  const reboot = {
    name: 'e2e-reboot-device',
    // As the F5 BIG-IQ pre-builts declare it: adapterId takes any type.
    inputSchema: {
      type: 'object',
      properties: { adapterId: { type: ['array', 'boolean', 'null', 'number', 'object', 'string'] }, targetVolume: { type: 'string' } },
      required: ['adapterId', 'targetVolume'],
    },
    tasks: { up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.targetVolume' }, outgoing: {} } } },
    transitions: { workflow_start: { up: end }, up: { workflow_end: end } },
  };
  await importAll(host, [reboot]);
  await page.goto(`${host.url}/#/workflows/${reboot.name}`);
  await page.getByRole('button', { name: 'Start job' }).click();
  const form = page.getByRole('form', { name: `Start a job of ${reboot.name}` });
  // Marked by a visible asterisk; assistive technology reads "required" from the input itself.
  const adapterId = form.getByRole('textbox', { name: 'adapterId', exact: true });
  await expect(adapterId).toHaveAttribute('aria-required', 'true');
  await expect(form.locator('label', { hasText: 'adapterId' })).toContainText('*');
  await expect(form.getByRole('textbox', { name: 'targetVolume', exact: true })).toHaveAttribute('aria-required', 'true');

  await form.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(form.getByText('adapterId is required')).toBeVisible();
  await expect(form.getByText('targetVolume is required')).toBeVisible();

  await adapterId.fill('bigiq-prod');
  await form.getByRole('textbox', { name: /^targetVolume/ }).fill('HD1.1');
  await form.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(form.getByRole('status')).toContainText('Started job');
  const id = (await form.getByRole('status').getByRole('link').textContent()) ?? '';
  const job = (await (await host.api(`/operations-manager/jobs/${id}`)).json()) as { data: { variables: Record<string, unknown> } };
  expect(job.data.variables).toMatchObject({ adapterId: 'bigiq-prod', targetVolume: 'HD1.1' });
});

test('the Adapters page finds a package installed while the console runs, with no restart', async ({ consolePage: page, host }) => {
  await page.getByRole('navigation', { name: 'Console areas' }).getByRole('link', { name: 'Adapters' }).click();
  const section = page.getByRole('region', { name: 'New adapter instance' });
  const picker = section.getByRole('combobox', { name: 'Package' });
  await expect(picker.locator('option', { hasText: '@automation/adapter-example' })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: '@itentialopensource/adapter-inventory' })).toHaveCount(0);

  // Installed as a package folder of the console's data directory (sdk_dir is looked in the same way).
  await mkdir(path.join(host.dataDir, 'adapters'), { recursive: true });
  await symlink(INVENTORY, path.join(host.dataDir, 'adapters', 'adapter-inventory'));
  await section.getByRole('button', { name: 'Look for new packages' }).click();
  await expect(section.getByRole('status')).toContainText('Found @itentialopensource/adapter-inventory');
  await expect(picker.locator('option', { hasText: '@itentialopensource/adapter-inventory' })).toHaveCount(1);
});

test("edit and retry: a task that failed on bad input runs again with the operator's changed job variable, and the history says who changed what", async ({ consolePage: page, host }) => {
  const failing = {
    name: 'e2e-code-point',
    tasks: { cp: { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.s', pos: 1 }, outgoing: { codePointValue: '$var.job.cp' } } } },
    transitions: { workflow_start: { cp: end }, cp: { workflow_end: end } },
  };
  await importAll(host, [failing]);
  const started = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: failing.name, options: { variables: { s: 'x' } } } });
  const id = ((await started.json()) as { data: { _id: string } }).data._id;
  await page.goto(`${host.url}/#/jobs/${id}`);
  await expect(page.getByLabel('Job status')).toHaveText('error');
  // The job's error (the service's `error` array): which task failed, and why.
  await expect(page.getByRole('alert', { name: 'Job error' })).toContainText('task cp (codePointAt) failed with no error transition: codePointAt: pos 1 is out of range');

  await page.getByRole('row', { name: 'Task cp' }).getByRole('button', { name: 'Edit and retry…' }).click();
  const form = page.getByRole('form', { name: 'Edit and retry task cp' });
  await expect(form.getByLabel('Incoming values of cp')).toHaveValue(/"str": "x"/);
  expect(await seriousAxe(page)).toEqual([]);
  const variables = form.getByLabel('Job variables');
  await variables.fill('{ "s": "xy" ');
  await form.getByRole('button', { name: 'Retry with these changes' }).click();
  await expect(form.getByRole('alert')).toContainText('Job variables: not valid JSON');
  await variables.fill('{ "s": "xy" }');
  await form.getByRole('button', { name: 'Retry with these changes' }).click();

  await expect(page.getByLabel('Job status')).toHaveText('complete');
  await expect(page.getByRole('alert', { name: 'Job error' })).toHaveCount(0);
  const operator = ((await (await host.api(`/operations-manager/jobs/${id}`)).json()) as { data: { metrics: { user: string } } }).data.metrics.user;
  // Who, what and when, each in its own column; the change on its own line, not one long line.
  const change = page.getByRole('table', { name: 'Job history' }).getByRole('row').filter({ hasText: 'Changed values and retried' });
  await expect(change.getByRole('cell').nth(1)).toHaveText(operator);
  await expect(change.getByRole('listitem')).toHaveText(['changed job variable s from "x" to "xy"', 'retried task cp']);
  await expect(change.locator('time')).not.toContainText('T');
  await expect(page.getByLabel('Job variables')).toContainText('"cp": 121');
});

test('a 12-task workflow is drawn no smaller than half size, with a minimap to find the rest', async ({ consolePage: page, host }) => {
  const ids = Array.from({ length: 12 }, (_, i) => `step${i + 1}`);
  const chain = ['workflow_start', ...ids, 'workflow_end'];
  const long = {
    name: 'e2e-twelve-steps',
    tasks: Object.fromEntries(ids.map((id) => [id, { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', summary: `Upper-case part ${id}`, variables: { incoming: { str: 'a' }, outgoing: {} } }])),
    transitions: Object.fromEntries(chain.slice(0, -1).map((from, i) => [from, { [chain[i + 1]!]: end }])),
  };
  await importAll(host, [long]);
  await page.goto(`${host.url}/#/workflows/${long.name}`);
  const diagram = page.getByRole('figure', { name: `Diagram of workflow ${long.name}` });
  await expect(diagram.getByText('Upper-case part step1', { exact: true })).toBeVisible();
  await expect(diagram.getByRole('img', { name: `Minimap of Diagram of workflow ${long.name}` })).toBeVisible();
  const scale = await diagram.locator('.react-flow__viewport').evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);
  expect(scale).toBeGreaterThanOrEqual(0.55);
  // Labels stay readable: the first task's name is drawn at 6 px or more.
  const box = await diagram.getByText('Upper-case part step1', { exact: true }).boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(6);
});
