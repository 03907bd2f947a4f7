import { test, expect } from './fixtures';

const transition = (state = 'success') => ({ type: 'standard', state });

const broken = {
  name: 'Broken import',
  tasks: {
    shout: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.name' }, outgoing: {} } },
    lookup: { name: 'codePointAt', app: 'WorkFlowEngine', variables: { incoming: { str: { task: 'later', variable: 'x' } }, outgoing: {} } },
    later: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic' },
  },
  transitions: {
    workflow_start: { shout: transition() },
    shout: { lookup: transition(), later: transition('finished') },
    lookup: { workflow_end: transition() },
    later: { workflow_end: transition() },
  },
};

const good = {
  name: 'Shout a name',
  description: 'upper-cases the name',
  tasks: {
    shout: {
      name: 'toUpperCase',
      app: 'WorkFlowEngine',
      type: 'automatic',
      variables: { incoming: { str: '$var.job.name' }, outgoing: { uppercaseString: '$var.job.shouted' } },
    },
  },
  transitions: { workflow_start: { shout: transition() }, shout: { workflow_end: transition() } },
  inputSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
};

const file = (name: string, json: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(json)) });

test('importing a workflow with errors shows each error by task and transition; a good one is listed and can be viewed and deleted', async ({ consolePage: page }) => {
  await page.getByRole('link', { name: 'Workflows' }).click();
  await expect(page.getByRole('heading', { name: 'Workflows', exact: true })).toBeVisible();
  await expect(page.getByText('No workflows yet')).toBeVisible();

  const chooser = page.getByLabel('Workflow file (JSON)');
  await chooser.setInputFiles(file('broken.json', broken));
  const problems = page.getByRole('alert', { name: 'Import problems' });
  await expect(problems).toContainText('Cannot import workflow "Broken import"');
  const taskProblems = problems.getByRole('list', { name: 'Task problems' });
  await expect(taskProblems).toContainText('task "lookup": needs a type ("automatic", "operation", "manual")');
  // What the console only doubts is never among the refusals (see the warnings test below).
  await expect(taskProblems).not.toContainText('cannot have run before');
  await expect(problems.getByRole('list', { name: 'Transition problems' })).toContainText('shout → later');
  await expect(problems.getByRole('list', { name: 'Transition problems' })).toContainText('state must be "success", "error", "failure", "loop"');
  await expect(page.getByRole('table', { name: 'Workflows' })).toHaveCount(0);

  await chooser.setInputFiles({ name: 'not.json', mimeType: 'application/json', buffer: Buffer.from('{ nope') });
  await expect(page.getByRole('alert', { name: 'Import problems' })).toContainText('not.json is not JSON');

  await chooser.setInputFiles(file('good.json', good));
  await expect(page.getByRole('status').filter({ hasText: 'Imported workflow' })).toContainText('Shout a name');
  await expect(page.getByRole('alert', { name: 'Import problems' })).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Workflows' });
  const row = table.getByRole('row').filter({ hasText: 'Shout a name' });
  await expect(row).toContainText('upper-cases the name');
  await expect(row).toContainText('from its input schema');
  await expect(row).toContainText('Ready');

  // A second import of the same name is refused until "replace" is ticked.
  await chooser.setInputFiles(file('good.json', good));
  await expect(page.getByRole('alert', { name: 'Import problems' })).toContainText('exists already');
  await page.getByLabel('Replace a workflow of the same name').check();
  await chooser.setInputFiles(file('good.json', { ...good, description: 'second version' }));
  await expect(row).toContainText('second version');

  await row.getByRole('link', { name: 'Shout a name' }).click();
  await expect(page.getByRole('heading', { name: 'Workflow “Shout a name”' })).toBeVisible();
  const tasks = page.getByRole('table', { name: 'Tasks' });
  await expect(tasks.getByRole('row').filter({ hasText: 'shout' })).toContainText('toUpperCase');
  await expect(tasks).toContainText('$var.job.name');
  await expect(page.getByRole('table', { name: 'Transitions' }).getByRole('row')).toHaveCount(3);

  await page.getByRole('button', { name: 'Delete Shout a name' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “Shout a name”?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete Shout a name' }).click();
  await page.getByRole('dialog', { name: 'Delete “Shout a name”?' }).getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByRole('heading', { name: 'Workflows', exact: true })).toBeVisible();
  await expect(page.getByText('No workflows yet')).toBeVisible();
});

test('starting a job from a workflow: the variables form comes from its inputSchema, or is a JSON editor', async ({ consolePage: page, host }) => {
  const noSchema = { ...good, name: 'Shout without schema', inputSchema: undefined };
  for (const wf of [good, noSchema]) {
    expect((await host.api('/workflows?overwrite=true', { method: 'POST', json: wf })).status).toBe(201);
  }

  await page.goto(`${host.url}/#/workflows/${encodeURIComponent('Shout a name')}`);
  await page.getByRole('button', { name: 'Start job' }).click();
  const form = page.getByRole('form', { name: 'Start a job of Shout a name' });
  await form.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(form).toContainText('Name is required');
  await form.getByLabel('Name').fill('ada');
  await form.getByLabel('Description').fill('from the e2e test');
  await form.getByRole('button', { name: 'Start', exact: true }).click();
  const started = form.getByRole('status');
  await expect(started).toContainText('Started job');
  const jobId = (await started.getByRole('link').textContent())!;
  const job = await (await host.api(`/operations-manager/jobs/${encodeURIComponent(jobId)}`)).json();
  expect(job.data).toMatchObject({ name: 'Shout a name', description: 'from the e2e test' });
  expect(job.data.variables.name).toBe('ada');
  await started.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`#/jobs/${jobId}$`));

  await page.goto(`${host.url}/#/workflows/${encodeURIComponent('Shout without schema')}`);
  await page.getByRole('button', { name: 'Start job' }).click();
  const jsonForm = page.getByRole('form', { name: 'Start a job of Shout without schema' });
  const editor = jsonForm.getByLabel('Variables (JSON object)');
  await editor.fill('[1, 2]');
  await jsonForm.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(jsonForm).toContainText('the variables must be a JSON object');
  await editor.fill('{ "name": "grace" }');
  await jsonForm.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(jsonForm.getByRole('status')).toContainText('Started job');
});

test('a workflow whose adapter is not installed is saved, shows what it needs with what to do, offers no Start, and a start is refused naming it', async ({ consolePage: page, host }) => {
  const needsAdapter = {
    name: 'Open a change request',
    tasks: {
      snow: { name: 'createChangeRequest', app: 'Servicenow', type: 'automatic', location: 'Adapter', variables: { incoming: { body: { task: 'job', variable: 'cr' } }, outgoing: { result: null } } },
      mop: { name: 'RunCommandTemplate', app: 'MOP', type: 'automatic', location: 'Application', variables: { incoming: {}, outgoing: {} } },
    },
    transitions: { workflow_start: { snow: transition() }, snow: { mop: transition() }, mop: { workflow_end: transition() } },
  };
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByLabel('Workflow file (JSON)').setInputFiles(file('cr.json', needsAdapter));
  await expect(page.getByRole('status').filter({ hasText: 'Imported workflow' })).toContainText('Open a change request');
  const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ hasText: 'Open a change request' });
  const needs = row.getByRole('group', { name: 'What Open a change request needs' });
  await expect(needs).toContainText('Needs: Servicenow (1 task), MOP.RunCommandTemplate (1 task)');
  await needs.locator('summary').click();
  await expect(needs).toContainText('adapter instance Servicenow, used by 1 task: snow');
  await expect(needs).toContainText('method MOP.RunCommandTemplate, used by 1 task: mop');

  // Its page says what it needs and what to do, and offers no Start; a start over the API is refused naming the parts.
  await row.getByRole('link', { name: 'Open a change request' }).click();
  const panel = page.getByRole('region', { name: 'What Open a change request needs' });
  await expect(panel).toContainText('Adapter Servicenow');
  await expect(panel).toContainText('Install an adapter package that provides Servicenow');
  await expect(panel).toContainText('MOP has no method RunCommandTemplate');
  await expect(page.getByRole('button', { name: 'Start job' })).toHaveCount(0);
  const refused = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Open a change request' } });
  expect(refused.status).toBe(409);
  expect((await refused.json()).message).toContain('workflow "Open a change request" cannot start: it needs Servicenow (1 task), MOP.RunCommandTemplate (1 task)');
  expect((await (await host.api('/operations-manager/jobs')).json()).metadata.total).toBe(0);
});

test("a task without an input its adapter method requires shows it as needed, and its page offers no Start", async ({ consolePage: page, host }) => {
  const sample = await (await host.api('/adapter-packages/sample?package=%40automation%2Fadapter-example&name=calc')).json();
  expect((await host.api('/adapters', { method: 'POST', json: { properties: { ...sample.data, properties: { ...sample.data.properties, stub: true } } } })).status).toBeLessThan(300);
  const halfSum = {
    name: 'Half a sum',
    tasks: { sum: { name: 'add', app: 'calc', type: 'automatic', location: 'Adapter', variables: { incoming: { a: 1 }, outgoing: { result: null } } } },
    transitions: { workflow_start: { sum: transition() }, sum: { workflow_end: transition() } },
  };
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByLabel('Workflow file (JSON)').setInputFiles(file('half-sum.json', halfSum));
  const row = page.getByRole('table', { name: 'Workflows' }).getByRole('row').filter({ hasText: 'Half a sum' });
  const needs = row.getByRole('group', { name: 'What Half a sum needs' });
  await expect(needs).toContainText('Needs: calc.add: b (1 task)');
  await needs.locator('summary').click();
  await expect(needs).toContainText('required input calc.add: b, used by 1 task: sum');

  await row.getByRole('link', { name: 'Half a sum' }).click();
  const panel = page.getByRole('region', { name: 'What Half a sum needs' });
  await expect(panel).toContainText('Required input calc.add: b');
  await expect(panel).toContainText("Give the task the input its adapter method requires (the method's pronghorn.json)");
  await expect(page.getByRole('button', { name: 'Start job' })).toHaveCount(0);
  expect((await (await host.api('/operations-manager/jobs')).json()).metadata.total).toBe(0);
});

test('a workflow the console doubts is imported, and its page shows the warnings', async ({ consolePage: page, host }) => {
  const doubtful = {
    name: 'Reads later',
    tasks: {
      lookup: { name: 'codePointAt', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: { task: 'later', variable: 'noWhitespace' }, pos: 0 }, outgoing: {} } },
      later: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: ' x ' }, outgoing: {} } },
      lone: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic' },
    },
    transitions: { workflow_start: { lookup: transition() }, lookup: { later: transition(), ghost: transition('error') }, later: { workflow_end: transition() } },
  };
  await page.getByRole('link', { name: 'Workflows' }).click();
  await page.getByLabel('Workflow file (JSON)').setInputFiles(file('doubtful.json', doubtful));
  const imported = page.getByRole('status').filter({ hasText: 'Imported workflow' });
  await expect(imported).toContainText('Reads later');
  await expect(imported).toContainText('3 warnings');
  await expect(page.getByRole('alert', { name: 'Import problems' })).toHaveCount(0);

  await imported.getByRole('link', { name: 'see its page' }).click();
  const warnings = page.getByRole('region', { name: 'Workflow warnings' });
  await expect(warnings).toContainText('3 warnings');
  await expect(warnings.getByRole('list', { name: 'Warnings' })).toContainText('transition lookup → ghost: there is no task "ghost" to go to');
  await expect(warnings.getByRole('list', { name: 'Warnings' })).toContainText('task "lookup": str refers to { task: "later", variable: "noWhitespace" }, but task "later" cannot have run before "lookup"');
  await expect(warnings.getByRole('list', { name: 'Warnings' })).toContainText('task "lone": no path of transitions leads to it from workflow_start');

  expect((await host.api('/workflows?overwrite=true', { method: 'POST', json: good })).status).toBe(201);
  await page.goto(`${host.url}/#/workflows/${encodeURIComponent('Shout a name')}`);
  await expect(page.getByRole('heading', { name: 'Workflow “Shout a name”' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Workflow warnings' })).toHaveCount(0);
});

test('the Workflows list opened while a read from before an import is still on its way shows the import', async ({ page, host }) => {
  // The first screen reads the workflows list. Its answer, made before the import, is held and
  // handed over only once the Workflows page is open: the page must not stop at that answer.
  let handOver!: () => void;
  const held = new Promise<void>((resolve) => (handOver = resolve));
  let answered = 0;
  await page.route(
    (url) => url.pathname === '/workflows',
    async (route) => {
      const response = await route.fetch();
      if (++answered === 1) await held;
      await route.fulfill({ response });
    },
  );
  await page.goto(`${host.url}/#token=${host.token}`);
  await expect.poll(() => answered).toBe(1);
  const imported = await host.api('/workflows', { method: 'POST', json: good });
  expect(imported.status, await imported.text()).toBeLessThan(300);
  await page.goto(`${host.url}/#/workflows`);
  await expect(page.getByRole('heading', { name: 'Workflows', exact: true })).toBeVisible();
  handOver();
  await expect(page.getByRole('table', { name: 'Workflows' }).getByRole('link', { name: 'Shout a name' })).toBeVisible();
  await expect(page.getByText('No workflows yet')).toBeHidden();
});
