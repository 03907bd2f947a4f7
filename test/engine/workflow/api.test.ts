import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { fixtures } from '../../support/iap';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.dispose());

const goodWorkflow = {
  name: 'Shout name',
  description: 'upper-cases the name',
  tasks: {
    workflow_start: { name: 'workflow_start', summary: 'start', x: 0, y: 0 },
    up: {
      name: 'toUpperCase',
      app: 'WorkFlowEngine',
      type: 'automatic',
      location: 'Application',
      variables: { incoming: { str: '$var.job.name' }, outgoing: { uppercaseString: '$var.job.shout' } },
    },
    first: {
      name: 'codePointAt',
      app: 'WorkFlowEngine',
      type: 'automatic',
      variables: { incoming: { str: '$var.up.uppercaseString', pos: 0 }, outgoing: { codePointValue: null } },
    },
    workflow_end: { name: 'workflow_end' },
  },
  transitions: {
    workflow_start: { up: { type: 'standard', state: 'success' } },
    up: { first: { type: 'standard', state: 'success' } },
    first: { workflow_end: { type: 'standard', state: 'success' } },
  },
  inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

describe('workflows API', () => {
  it('imports a workflow in the reference shape and answers 201 with it', async () => {
    const response = await host.api('/workflows', { method: 'POST', json: goodWorkflow });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ name: 'Shout name', tasks: { up: { name: 'toUpperCase', location: 'Application' } } });
    expect(body.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(Date.parse(body.created)).not.toBeNaN();
  });

  it('lists it with its counts', async () => {
    const body = await (await host.api('/workflows')).json();
    expect(body.items).toContainEqual(
      expect.objectContaining({ name: 'Shout name', taskCount: 2, transitionCount: 3, hasInputSchema: true, description: 'upper-cases the name' }),
    );
  });

  it('gives it back whole, JSON Schema keys and task positions included', async () => {
    const response = await host.api(`/workflows/${encodeURIComponent('Shout name')}`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.tasks.workflow_start).toEqual({ name: 'workflow_start', summary: 'start', x: 0, y: 0 });
    expect(body.inputSchema).toEqual(goodWorkflow.inputSchema);
    expect(body.transitions).toEqual(goodWorkflow.transitions);
  });

  it('answers 409 for a second import of the same name, and replaces it with overwrite=true', async () => {
    const again = await host.api('/workflows', { method: 'POST', json: goodWorkflow });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toContain('"Shout name" exists already');
    const replaced = await host.api('/workflows?overwrite=true', { method: 'POST', json: { ...goodWorkflow, description: 'v2', inputSchema: undefined } });
    expect(replaced.status).toBe(201);
    const body = await (await host.api(`/workflows/${encodeURIComponent('Shout name')}`)).json();
    expect(body.description).toBe('v2');
    expect(body.inputSchema).toBeUndefined();
  });

  it('refuses a workflow with problems in one list, every problem named by task or transition', async () => {
    const bad = {
      name: 'Broken',
      tasks: {
        up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.later.noWhitespace' }, outgoing: {} } },
        typo: { name: 'toUpperCas', app: 'WorkFlowEngine', type: 'automatic' },
        later: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: { task: 'ghost', variable: 'x' } } } },
        untyped: { name: 'trim', app: 'WorkFlowEngine' },
      },
      transitions: {
        workflow_start: { up: { type: 'standard', state: 'success' }, untyped: { type: 'standard', state: 'success' } },
        up: { typo: { type: 'standard', state: 'success' }, missing: { type: 'standard', state: 'error' } },
        typo: { later: { type: 'revert', state: 'finished' } },
      },
    };
    const response = await host.api('/workflows', { method: 'POST', json: bad });
    expect(response.status).toBe(400);
    const body = await response.json();
    const messages = body.problems.map((p: { message: string }) => p.message);
    // Only what the service refuses; what the console doubts (a transition to a task that is
    // not there, no path to workflow_end, references to tasks that cannot have run or do not
    // exist) is never a refusal.
    expect(messages).toEqual([
      'task "untyped": needs a type ("automatic", "operation", "manual")',
      'transition typo → later: state must be "success", "error", "failure", "loop"',
    ].sort((a, b) => messages.indexOf(a) - messages.indexOf(b)));
    expect(body.problems).toContainEqual(expect.objectContaining({ transition: { src: 'typo', dst: 'later' }, path: 'transitions.typo.later' }));
    expect(body.problems).toContainEqual(expect.objectContaining({ task: 'untyped', path: 'tasks.untyped.type' }));
    expect(body.issues).toContainEqual({ path: 'body.tasks.untyped.type', message: 'task "untyped": needs a type ("automatic", "operation", "manual")' });
    expect((await host.api('/workflows/Broken')).status).toBe(404);
  });

  it('saves a workflow whose method the profile lacks, lists what it needs and refuses to start it with 409', async () => {
    const wf = {
      name: 'Needs parts',
      tasks: {
        typo: { name: 'toUpperCas', app: 'WorkFlowEngine', type: 'automatic' },
        snow: { name: 'createChangeRequest', app: 'Servicenow', type: 'automatic', location: 'Adapter' },
        snow2: { name: 'getChangeRequests', app: 'Servicenow', type: 'automatic', location: 'Adapter' },
        mop: { name: 'RunCommandTemplate', app: 'MOP', type: 'automatic', location: 'Application' },
        jst: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { tr_id: '0123456789abcdef01234567' } } },
        child: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { workflow: 'Not here', variables: {} } } },
      },
      transitions: {
        workflow_start: { typo: { type: 'standard', state: 'success' } },
        typo: { snow: { type: 'standard', state: 'success' } },
        snow: { snow2: { type: 'standard', state: 'success' } },
        snow2: { mop: { type: 'standard', state: 'success' } },
        mop: { jst: { type: 'standard', state: 'success' } },
        jst: { child: { type: 'standard', state: 'success' } },
        child: { workflow_end: { type: 'standard', state: 'success' } },
      },
    };
    expect((await host.api('/workflows', { method: 'POST', json: wf })).status).toBe(201);
    const list = await (await host.api('/workflows')).json();
    const item = list.items.find((w: { name: string }) => w.name === 'Needs parts');
    const names = item.needs.map((p: { kind: string; name: string; tasks: string[] }) => [p.kind, p.name, p.tasks.length]);
    expect(names).toContainEqual(['adapter', 'Servicenow', 2]);
    expect(names).toContainEqual(['method', 'MOP.RunCommandTemplate', 1]);
    expect(names).toContainEqual(['method', 'WorkFlowEngine.toUpperCas', 1]);
    expect(names).toContainEqual(['workflow', 'Not here', 1]);
    expect(item.needs.find((p: { name: string }) => p.name === 'Servicenow').label).toBe('adapter Servicenow (2 tasks)');

    const start = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Needs parts', options: { variables: {} } } });
    expect(start.status).toBe(409);
    const refused = await start.json();
    expect(refused.message).toContain('workflow "Needs parts" cannot start: it needs');
    expect(refused.message).toContain('Servicenow (2 tasks)');
    expect(refused.message).toContain('MOP.RunCommandTemplate (1 task)');
  });

  it('runs a workflow once its missing child workflow is imported, without importing it again', async () => {
    const parent = {
      name: 'Parent waits for child',
      tasks: { child: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow: 'Late child', variables: {} } } } },
      transitions: { workflow_start: { child: { type: 'standard', state: 'success' } }, child: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    expect((await host.api('/workflows', { method: 'POST', json: parent })).status).toBe(201);
    const before = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Parent waits for child' } });
    expect(before.status).toBe(409);
    expect((await before.json()).message).toContain('Late child (1 task)');
    const child = { name: 'Late child', tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } };
    expect((await host.api('/workflows', { method: 'POST', json: child })).status).toBe(201);
    const after = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Parent waits for child' } });
    expect(after.status).toBe(200);
  });

  it('runs a workflow once its missing transformation is imported, without importing the workflow again', async () => {
    const jst = fixtures.transformation('Build Tag Filter - Example');
    const wf = {
      name: 'Uses a JST',
      tasks: { t: { name: 'transformation', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { tr_id: jst._id, variableMap: {} }, outgoing: {} } } },
      transitions: { workflow_start: { t: { type: 'standard', state: 'success' } }, t: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    expect((await host.api('/workflows', { method: 'POST', json: wf })).status).toBe(201);
    const before = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Uses a JST' } });
    expect(before.status).toBe(409);
    expect((await before.json()).message).toContain(`${jst._id} (1 task)`);
    expect((await host.api('/transformations', { method: 'POST', json: jst })).status).toBe(201);
    const list = await (await host.api('/workflows')).json();
    expect(list.items.find((w: { name: string }) => w.name === 'Uses a JST').needs).toEqual([]);
    expect((await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Uses a JST' } })).status).toBe(200);
  });

  it("lists a workflow whose child workflow needs a missing adapter with that need, so it is not ready", async () => {
    const child = {
      name: 'Child needs Awsec2',
      tasks: { vpc: { name: 'createVpc', app: 'Awsec2', type: 'automatic', location: 'Adapter', variables: { incoming: {}, outgoing: {} } } },
      transitions: { workflow_start: { vpc: { type: 'standard', state: 'success' } }, vpc: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    const parent = {
      name: 'Parent of Awsec2 child',
      tasks: { run: { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { task: '', workflow: 'Child needs Awsec2', variables: {} } } } },
      transitions: { workflow_start: { run: { type: 'standard', state: 'success' } }, run: { workflow_end: { type: 'standard', state: 'success' } } },
    };
    for (const doc of [parent, child]) expect((await host.api('/workflows', { method: 'POST', json: doc })).status).toBe(201);
    const list = await (await host.api('/workflows')).json();
    const listed = list.items.find((w: { name: string }) => w.name === 'Parent of Awsec2 child');
    expect(listed.needs).toEqual([expect.objectContaining({ kind: 'adapter', name: 'Awsec2', tasks: ['Child needs Awsec2: vpc'] })]);
    const refused = await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'Parent of Awsec2 child' } });
    expect(refused.status).toBe(409);
  });

  it('refuses a workflow not in the shape with the field named, in the same problems list', async () => {
    const response = await host.api('/workflows', { method: 'POST', json: { name: 'x', tasks: { a: { name: 'trim', app: 'WorkFlowEngine' } } } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.issues).toContainEqual(expect.objectContaining({ path: 'body.tasks.a.type' }));
    expect(body.problems).toContainEqual(expect.objectContaining({ task: 'a', path: 'tasks.a.type' }));
  });

  it('answers 400, not a crash, for a workflow nested 150 or 10,000 levels deep', async () => {
    // Written as text: JSON.stringify itself cannot go 10,000 levels deep.
    const send = (levels: number) => {
      const deep = '['.repeat(levels) + '1' + ']'.repeat(levels);
      const text = `{"name":"Deep","tasks":{"a":{"name":"merge","app":"WorkFlowEngine","type":"automatic","variables":{"incoming":{"data_to_merge":${deep}}}}},
        "transitions":{"workflow_start":{"a":{"type":"standard","state":"success"}},"a":{"workflow_end":{"type":"standard","state":"success"}}}}`;
      return host.api('/workflows', { method: 'POST', body: text, headers: { 'content-type': 'application/json' } });
    };
    const deeper = await send(150);
    expect(deeper.status).toBe(400);
    expect((await deeper.json()).problems).toEqual([expect.objectContaining({ task: 'a', message: 'task "a": its values are nested deeper than 100 levels' })]);
    const deepest = await send(10_000);
    expect(deepest.status).toBe(400);
    expect((await deepest.json()).message).toContain('nested deeper than');
  });

  it('answers 404 naming the workflow for get and delete of an unknown name', async () => {
    const get = await host.api('/workflows/nope');
    expect(get.status).toBe(404);
    expect((await get.json()).message).toBe('no workflow named "nope"');
    expect((await host.api('/workflows/nope', { method: 'DELETE' })).status).toBe(404);
  });

  it('deletes a workflow', async () => {
    const response = await host.api(`/workflows/${encodeURIComponent('Shout name')}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 'Shout name' });
    const list = await (await host.api('/workflows')).json();
    expect(list.items.map((w: { name: string }) => w.name)).not.toContain('Shout name');
  });
});

describe('workflows when the store cannot be reached', () => {
  it('answers 503 naming the store error', async () => {
    const { createWorkflowsService, workflowsHandlers } = await import('../../../core/engine/workflow/handlers');
    const { StoreError } = await import('../../../core/store/errors');
    const { WorkflowWrites } = await import('../../../core/engine/workflow/writes');
    const down = () => Promise.reject(new StoreError('unreachable', 'MongoDB at db1:27017 does not answer (connection refused)'));
    const store = { collection: () => ({ find: down, findOne: down, insertOne: down, deleteOne: down, updateOne: down }) };
    const handlers = workflowsHandlers(createWorkflowsService({ store: () => store as never, adapters: () => undefined, writes: () => new WorkflowWrites() }));
    await expect(handlers['workflows.list']({} as never, {} as never)).rejects.toMatchObject({
      statusCode: 503,
      message: 'the workflows cannot be reached in the store: MongoDB at db1:27017 does not answer (connection refused)',
    });
  });

  it('serves a workflow whose name has a slash and spaces', async () => {
    const name = 'site a/b provisioning';
    const wf = { name, tasks: {}, transitions: { workflow_start: { workflow_end: { type: 'standard', state: 'success' } } } };
    expect((await host.api('/workflows', { method: 'POST', json: wf })).status).toBe(201);
    const response = await host.api(`/workflows/${encodeURIComponent(name)}`);
    expect(response.status).toBe(200);
    expect((await response.json()).name).toBe(name);
  });
});
