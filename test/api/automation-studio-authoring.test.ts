// Making and checking workflows through the service's Automation Studio and WorkFlowEngine routes, as the
// vendor's builder guides do: POST /automation-studio/automations `{ automation }` (then a job of it runs),
// POST /workflow_engine/workflows/validate `{ asset }` and POST /automation-studio/workflows/validate `{ workflow }`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, jobWhenSettled, startTestHost, type TestHost } from '../support/host';

const end = { type: 'standard', state: 'success' };
const shout = (name: string) => ({
  name,
  tasks: { up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.loud' } } } },
  transitions: { workflow_start: { up: end }, up: { workflow_end: end } },
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  created_by: 'builder',
});
// A task with no type, which the service refuses; a transition to no task, which it saves (the console doubts it).
const broken = { ...shout('Broken by builder'), tasks: { up: { name: 'toUpperCase', app: 'WorkFlowEngine', variables: { incoming: {}, outgoing: {} } } } };
const dangling = { ...shout('Dangling'), transitions: { workflow_start: { up: end }, up: { workflow_end: end, ghost: end } } };

describe("Automation Studio's authoring routes", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  }, 60_000);
  afterAll(() => host?.dispose());
  const post = (path: string, json: unknown) => callJson(host, path, { method: 'POST', json });

  it('creates a workflow from { automation }, answers it with its _id, and a job of it runs', async () => {
    const made = await post('/automation-studio/automations', { automation: shout('Made by builder') });
    expect(made.status).toBe(200);
    expect(made.body.created).toMatchObject({ _id: expect.any(String), name: 'Made by builder', created_by: 'builder' });
    expect(made.body.edit).toBe('/#/workflows/Made%20by%20builder');
    const found = await callJson(host, `/automation-studio/workflows?${new URLSearchParams({ 'equals[name]': 'Made by builder', include: 'name' })}`);
    expect(found.body.items).toEqual([{ _id: made.body.created._id, name: 'Made by builder' }]);
    const started = await post('/operations-manager/jobs/start', { workflow: 'Made by builder', options: { variables: { text: 'hi' } } });
    const job = await jobWhenSettled(host, started.body.data._id);
    expect([job.status, job.variables.loud]).toEqual(['complete', 'HI']);

    const again = await post('/automation-studio/automations', { automation: shout('Made by builder') });
    expect([again.status, again.body.message]).toEqual([409, expect.stringContaining('Made by builder')]);
  });

  it('replaces a workflow by its _id from { update }, renames it, and a job then runs the new one', async () => {
    const made = (await post('/automation-studio/automations', { automation: shout('To be changed') })).body.created;
    const lower = { ...shout('To be changed'), description: 'now lower', tasks: { up: { name: 'toLowerCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.job.text' }, outgoing: { lowercaseString: '$var.job.loud' } } } } };
    const put = (id: string, update: unknown) => callJson(host, `/automation-studio/automations/${id}`, { method: 'PUT', json: { update } });
    const changed = await put(made._id, lower);
    expect(changed.status).toBe(200);
    expect(changed.body.updated).toMatchObject({ _id: made._id, name: 'To be changed', description: 'now lower', created: made.created });
    const started = await post('/operations-manager/jobs/start', { workflow: 'To be changed', options: { variables: { text: 'HeLLo' } } });
    const job = await jobWhenSettled(host, started.body.data._id);
    expect([job.status, job.variables.loud]).toEqual(['complete', 'hello']);
    // Renamed: found by its new name under the same _id; the old name is gone.
    expect((await put(made._id, { ...lower, name: 'Changed and renamed' })).body.updated).toMatchObject({ _id: made._id, name: 'Changed and renamed' });
    expect((await callJson(host, '/automation-studio/workflows?equals[name]=To%20be%20changed')).body.total).toBe(0);
    expect((await callJson(host, '/automation-studio/workflows?equals[name]=Changed%20and%20renamed&include=name')).body.items).toEqual([{ _id: made._id, name: 'Changed and renamed' }]);
    // A name another workflow has, an _id none has, a workflow the service would refuse: each named.
    await post('/automation-studio/automations', { automation: shout('Taken name') });
    const taken = await put(made._id, { ...lower, name: 'Taken name' });
    expect([taken.status, taken.body.message]).toEqual([409, expect.stringContaining('Taken name')]);
    const none = await put('0123456789abcdef01234567', lower);
    expect([none.status, none.body.message]).toEqual([404, expect.stringContaining('no workflow has the _id "0123456789abcdef01234567"')]);
    const refused = await put(made._id, broken);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('body.update.tasks.up.type');
    expect((await callJson(host, `/automation-studio/workflows/detailed/${encodeURIComponent('Changed and renamed')}`)).body.description).toBe('now lower');
  });

  it('refuses a workflow the service would refuse, naming the place under body.automation, and a body without it', async () => {
    const refused = await post('/automation-studio/automations', { automation: broken });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('task "up": needs a type');
    expect(JSON.stringify(refused.body)).toContain('body.automation.tasks.up.type');
    expect((await callJson(host, '/automation-studio/workflows?equals[name]=Broken%20by%20builder')).body.total).toBe(0);
    const bare = await post('/automation-studio/automations', shout('Bare'));
    expect([bare.status, bare.body.message]).toEqual([400, expect.stringContaining('automation')]);
  });

  it('lists the tasks a workflow can call and the applications and adapters that give them', async () => {
    const tasks = (await callJson(host, '/workflow_builder/tasks/list')).body as { name: string; app: string; type: string; location: string; summary?: string }[];
    expect(tasks.find((t) => t.app === 'WorkFlowEngine' && t.name === 'toUpperCase')).toMatchObject({ type: 'automatic', location: 'Application', summary: expect.any(String) });
    expect(tasks.find((t) => t.app === 'WorkFlowEngine' && t.name === 'ViewData')).toMatchObject({ type: 'manual', location: 'Application' });
    expect(tasks.find((t) => t.app === 'MOP' && t.name === 'reattempt')).toMatchObject({ location: 'Application' });
    // Each task names an application or adapter the apps list has, with the same location.
    const apps = (await callJson(host, '/automation-studio/apps/list')).body as { name: string; type: string }[];
    expect(apps).toContainEqual({ name: 'WorkFlowEngine', type: 'Application' });
    const typeOf = new Map(apps.map((a) => [a.name, a.type]));
    for (const task of tasks) expect(typeOf.get(task.app), `${task.app}.${task.name}`).toBe(task.location);
    // A workflow made of a listed task passes the service's check.
    const listed = tasks.find((t) => t.name === 'toLowerCase')!;
    const made = { ...shout('From the palette'), tasks: { up: { name: listed.name, app: listed.app, type: listed.type, location: listed.location, variables: { incoming: { str: 'A' }, outgoing: {} } } } };
    expect((await post('/workflow_engine/workflows/validate', { asset: made })).body).toMatchObject({ isValid: true, errors: [] });
  });

  it('runs evaluation groups as the evaluation task does, and a job of that task agrees', async () => {
    const groups = (operator: string, operand: unknown) => [{ evaluations: [{ operand_1: { speed: 100 }, query: 'speed', operator, operand_2: operand }], all_true_flag: true }];
    const run = async (body: unknown) => (await post('/workflow_engine/runEvaluationGroups', body)).body;
    expect(await run({ evaluation_groups: groups('>=', 100), all_true_flag: true })).toBe(true);
    expect(await run({ evaluation_group: groups('<', 100), all_true_flag: true })).toBe(false);
    // The task in a job takes the transition of the same answer.
    const flow = {
      name: 'Evaluates',
      tasks: { ev: { name: 'evaluation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { evaluation_groups: groups('<', 100), all_true_flag: true }, outgoing: { return_value: '$var.job.answer' } } } },
      transitions: { workflow_start: { ev: end }, ev: { workflow_end: { type: 'standard', state: 'failure' } } },
    };
    await post('/automation-studio/automations', { automation: flow });
    const job = await jobWhenSettled(host, (await post('/operations-manager/jobs/start', { workflow: 'Evaluates', options: { variables: {} } })).body.data._id);
    expect([job.status, job.variables.answer]).toEqual(['complete', false]);
    const bad = await post('/workflow_engine/runEvaluationGroups', { evaluation_groups: 'all of them' });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('evaluation_groups')]);
    expect((await post('/workflow_engine/runEvaluationGroups', { all_true_flag: true })).status).toBe(400);
  });

  it('checks a workflow without saving it, in both services\' answers', async () => {
    expect((await post('/workflow_engine/workflows/validate', { asset: shout('Checked') })).body).toEqual({ isValid: true, errors: [], warnings: [] });
    const bad = await post('/workflow_engine/workflows/validate', { asset: broken });
    expect(bad.body.isValid).toBe(false);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'tasks.up.type', message: expect.stringContaining('needs a type') })]);
    const doubted = await post('/workflow_engine/workflows/validate', { asset: dangling });
    expect(doubted.body).toMatchObject({ isValid: true, errors: [], warnings: [expect.objectContaining({ message: expect.stringContaining('there is no task "ghost"') })] });
    const studio = await post('/automation-studio/workflows/validate', { workflow: broken });
    expect(studio.body).toEqual({ errors: bad.body.errors, warnings: bad.body.warnings });
    expect((await callJson(host, '/automation-studio/workflows?equals[name]=Checked')).body.total).toBe(0);
    expect((await post('/automation-studio/workflows/validate', { asset: broken })).status).toBe(400);
  });
});
