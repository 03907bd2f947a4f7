import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';

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

  it('refuses a workflow with problems, naming each task and transition', async () => {
    const bad = {
      name: 'Broken',
      tasks: {
        up: { name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', variables: { incoming: { str: '$var.later.noWhitespace' }, outgoing: {} } },
        typo: { name: 'toUpperCas', app: 'WorkFlowEngine', type: 'automatic' },
        later: { name: 'trim', app: 'WorkFlowEngine', type: 'automatic' },
      },
      transitions: {
        workflow_start: { up: { type: 'standard', state: 'success' } },
        up: { typo: { type: 'standard', state: 'success' }, missing: { type: 'standard', state: 'error' } },
        typo: { later: { type: 'standard', state: 'success' } },
      },
    };
    const response = await host.api('/workflows', { method: 'POST', json: bad });
    expect(response.status).toBe(400);
    const body = await response.json();
    const messages = body.problems.map((p: { message: string }) => p.message);
    expect(messages).toContain('task "typo": WorkFlowEngine has no method "toUpperCas"');
    expect(messages).toContain('transition up → missing: there is no task "missing" to go to');
    expect(messages).toContain('no path of transitions leads from workflow_start to workflow_end');
    expect(messages.some((m: string) => m.startsWith('task "up": str refers to $var.later.noWhitespace'))).toBe(true);
    expect(body.problems).toContainEqual(expect.objectContaining({ task: 'typo', path: 'tasks.typo.name' }));
    expect(body.issues).toContainEqual({ path: 'body.tasks.typo.name', message: 'task "typo": WorkFlowEngine has no method "toUpperCas"' });
    expect((await host.api('/workflows/Broken')).status).toBe(404);
  });

  it('refuses a workflow not in the reference shape with the field named', async () => {
    const response = await host.api('/workflows', { method: 'POST', json: { name: 'x', tasks: { a: { name: 'trim', app: 'WorkFlowEngine' } } } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.issues).toContainEqual(expect.objectContaining({ path: 'body.tasks.a.type' }));
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
    const down = () => Promise.reject(new StoreError('unreachable', 'MongoDB at db1:27017 does not answer (connection refused)'));
    const store = { collection: () => ({ find: down, findOne: down, insertOne: down, deleteOne: down, updateOne: down }) };
    const handlers = workflowsHandlers(createWorkflowsService({ store: () => store as never, adapters: () => undefined as never }));
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
