// Operations Manager automations and triggers over HTTP, as the service's clients call them:
// CRUD in `{ message, data, metadata }`, the 4xx naming the field of a bad body, an endpoint
// trigger called as a webhook (body checked against its schema, its JST applied) starting the
// automation's workflow, and a manual trigger run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startTestHost, type TestHost } from '../support/host';

let host: TestHost;
const api = (path: string, init?: RequestInit & { json?: unknown }) => callJson(host, path, init);

/** A workflow whose one task copies the job variable `device` into `seen`. */
const workflow = (name: string) => ({
  name,
  type: 'automation',
  tasks: {
    workflow_start: { name: 'workflow_start', groups: [] },
    a1: {
      name: 'newVariable',
      app: 'WorkFlowEngine',
      type: 'operation',
      location: 'Application',
      summary: 'Remember the device',
      variables: { incoming: { name: 'seen', value: '$var.job.device' }, outgoing: { value: null } },
      groups: [],
      actor: 'Pronghorn',
    },
    workflow_end: { name: 'workflow_end', groups: [] },
  },
  transitions: { workflow_start: { a1: { type: 'standard', state: 'success' } }, a1: { workflow_end: { type: 'standard', state: 'success' } }, workflow_end: {} },
});

/** A JST taking the webhook's `alert` object and answering its device name as `device`. */
const jst = {
  _id: '6a0c1e5a0000000000000e01',
  name: 'Alert to device',
  incoming: [{ $id: 'alert', type: 'object', properties: { device: { type: 'string' } } }],
  outgoing: [{ $id: 'device', type: 'string' }],
  steps: [{ id: 1, type: 'assign', from: { location: 'incoming', name: 'alert', ptr: '/device' }, to: { location: 'outgoing', name: 'device', ptr: '' } }],
};

async function jobWhenEnded(id: string) {
  for (let i = 0; i < 100; i++) {
    const { body } = await api(`/operations-manager/jobs/${id}`);
    if (['complete', 'error', 'canceled'].includes(body.data.status)) return body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not end`);
}

beforeAll(async () => {
  host = await startTestHost();
  expect((await api('/workflows', { method: 'POST', json: workflow('Remember Device') })).status).toBeLessThan(300);
  expect((await api('/transformations', { method: 'POST', json: jst })).status).toBeLessThan(300);
});
afterAll(() => host.dispose());

describe('automations', () => {
  it('are created, listed, read, changed and deleted in the service shapes', async () => {
    const created = await api('/operations-manager/automations', { method: 'POST', json: { name: 'Remember', description: 'keeps a device', componentType: 'workflows', componentName: 'Remember Device', owner: 'noc' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ message: expect.any(String), metadata: {} });
    const automation = created.body.data;
    expect(automation).toMatchObject({ name: 'Remember', description: 'keeps a device', componentType: 'workflows', componentName: 'Remember Device', gbac: { read: [], write: [] }, owner: 'noc' });
    expect(automation._id).toMatch(/^[0-9a-f]{24}$/);
    expect(typeof automation.componentId).toBe('string');

    const list = await api('/operations-manager/automations?equals=Remember&equalsField=name');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { name: string }) => a.name)).toEqual(['Remember']);
    expect(list.body.metadata).toEqual({ skip: 0, limit: 25, total: 1 });
    expect((await api('/operations-manager/automations?contains=nothing-like-it')).body.data).toEqual([]);
    expect((await api(`/operations-manager/automations?equals[name]=Remember`)).body.data.map((a: { _id: string }) => a._id)).toEqual([automation._id]);

    const read = await api(`/operations-manager/automations/${automation._id}`);
    expect(read.body.data).toEqual(automation);

    const changed = await api(`/operations-manager/automations/${automation._id}`, { method: 'PATCH', json: { description: 'changed' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Remember', description: 'changed', componentName: 'Remember Device', owner: 'noc' });

    const trigger = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'By hand', type: 'manual', actionId: automation._id, legacyWrapper: false } });
    expect(trigger.status).toBe(200);
    const deleted = await api(`/operations-manager/automations/${automation._id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ _id: automation._id, triggersDeleted: 1 });
    expect((await api(`/operations-manager/automations/${automation._id}`)).status).toBe(404);
    expect((await api(`/operations-manager/triggers/${trigger.body.data._id}`)).status).toBe(404);
  });

  it('refuses a bad body with a 4xx naming the field', async () => {
    const noName = await api('/operations-manager/automations', { method: 'POST', json: { description: 'x' } });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toContain('body.name');
    const wrongType = await api('/operations-manager/automations', { method: 'POST', json: { name: 'X', componentType: 'resources' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toContain('body.componentType');
    const noWorkflow = await api('/operations-manager/automations', { method: 'POST', json: { name: 'X', componentName: 'No Such Workflow' } });
    expect(noWorkflow.status).toBe(400);
    expect(noWorkflow.body.message).toBe('body.componentName: no workflow named "No Such Workflow" is stored: import or create it first');

    const a = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'Taken', componentName: 'Remember Device' } })).body.data;
    expect((await api('/operations-manager/automations', { method: 'POST', json: { name: 'Taken' } })).status).toBe(409);
    const noRoute = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'endpoint', actionId: a._id } });
    expect(noRoute.status).toBe(400);
    expect(noRoute.body.message).toContain('body.routeName');
    const badRoute = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'endpoint', actionId: a._id, routeName: 'a/b' } });
    expect(badRoute.status).toBe(400);
    expect(badRoute.body.message).toContain('body.routeName');
    const badType = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'webhook', actionId: a._id } });
    expect(badType.body.message).toContain('body.type');
    const noAutomation = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'manual', actionId: '000000000000000000000000' } });
    expect(noAutomation.status).toBe(400);
    expect(noAutomation.body.message).toBe('body.actionId: no automation with _id 000000000000000000000000');
    const badJst = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'endpoint', actionId: a._id, routeName: 'hook-x', jst: 'nope' } });
    expect(badJst.status).toBe(400);
    expect(badJst.body.message).toContain('body.jst');
    const badSchema = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Hook', type: 'endpoint', actionId: a._id, routeName: 'hook-y', schema: { type: 'no-such-type' } } });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.message).toContain('body.schema');
  });

  it('stores an automation kept as exported (its triggers inline, as earlier imports kept it) as the service does, when listed', async () => {
    const exported = { _id: '6a0c1e5a0000000000000a77', name: 'Kept inline', componentName: 'Remember Device', componentType: 'workflows', triggers: [{ _id: '6a0c1e5a0000000000000b77', name: 'Inline hook', type: 'endpoint', enabled: true, actionId: '6a0c1e5a0000000000000a77', routeName: 'inline-hook', schema: null, jst: null }] };
    await host.state.runtime.store.collection('automations').insertOne(exported);
    const listed = (await api('/operations-manager/automations?equals=Kept%20inline')).body.data;
    expect(listed).toEqual([expect.objectContaining({ _id: exported._id, name: 'Kept inline' })]);
    expect(listed[0].triggers).toBeUndefined();
    expect((await api('/operations-manager/triggers/6a0c1e5a0000000000000b77')).body.data).toMatchObject({ routeName: 'inline-hook', actionId: exported._id });
  });
});

describe('an endpoint trigger called as a webhook', () => {
  let automationId: string;
  beforeAll(async () => {
    automationId = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'Alert intake', componentName: 'Remember Device' } })).body.data._id;
  });

  it('checks the body against its schema, naming the field, then starts the workflow with the body as variables', async () => {
    const made = await api('/operations-manager/triggers', {
      method: 'POST',
      json: { name: 'Alert', type: 'endpoint', actionId: automationId, routeName: 'alert-hook', verb: 'POST', schema: { type: 'object', required: ['device'], properties: { device: { type: 'string' }, count: { type: 'integer' } } } },
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ type: 'endpoint', enabled: true, actionType: 'automations', actionId: automationId, verb: 'POST', routeName: 'alert-hook', jst: null });

    const missing = await api('/operations-manager/triggers/endpoint/alert-hook', { method: 'POST', json: { count: 'three' } });
    expect(missing.status).toBe(400);
    expect(missing.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['body.count', 'body.device']);
    expect(missing.body.message).toContain("body.device: must have required property 'device'");

    const started = await api('/operations-manager/triggers/endpoint/alert-hook', { method: 'POST', json: { device: 'core-1', count: 3 } });
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ name: 'Remember Device', status: 'running' });
    expect(started.body.data.description).toContain('Alert intake');
    const job = await jobWhenEnded(started.body.data._id);
    expect(job.status).toBe('complete');
    expect(job.variables).toMatchObject({ device: 'core-1', count: 3, seen: 'core-1' });
  });

  it('applies its JST to the body first', async () => {
    await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Alert via JST', type: 'endpoint', actionId: automationId, routeName: 'alert-jst', jst: jst._id } });
    const started = await api('/operations-manager/triggers/endpoint/alert-jst', { method: 'POST', json: { alert: { device: 'edge-9', severity: 'major' } } });
    expect(started.status).toBe(200);
    const job = await jobWhenEnded(started.body.data._id);
    expect(job.variables).toMatchObject({ device: 'edge-9', seen: 'edge-9' });
    expect(job.variables.alert).toBeUndefined();
  });

  it('answers 404 for an unknown route, 409 while disabled, and a body that is not an object 400', async () => {
    expect((await api('/operations-manager/triggers/endpoint/nobody-home', { method: 'POST', json: {} })).status).toBe(404);
    const made = (await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Off', type: 'endpoint', actionId: automationId, routeName: 'off-hook', enabled: false } })).body.data;
    const off = await api('/operations-manager/triggers/endpoint/off-hook', { method: 'POST', json: { device: 'x' } });
    expect(off.status).toBe(409);
    expect(off.body.message).toContain('disabled');
    await api(`/operations-manager/triggers/${made._id}`, { method: 'PATCH', json: { enabled: true } });
    const notObject = await api('/operations-manager/triggers/endpoint/off-hook', { method: 'POST', json: [1, 2] });
    expect(notObject.status).toBe(400);
    expect(notObject.body.message).toContain('body: must be a JSON object');
    const taken = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Again', type: 'endpoint', actionId: automationId, routeName: 'off-hook' } });
    expect(taken.status).toBe(409);
  });

  it('exports the automation with its triggers inline, and an import of that export brings it back whole', async () => {
    const exported = await api(`/operations-manager/automations/${automationId}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.data).toMatchObject({ name: 'Alert intake', componentName: 'Remember Device' });
    expect(exported.body.data.componentId).toBeUndefined();
    expect(exported.body.data.triggers.map((t: { routeName: string }) => t.routeName).sort()).toEqual(['alert-hook', 'alert-jst', 'off-hook']);
    expect(exported.body.data.triggers.find((t: { routeName: string }) => t.routeName === 'alert-hook').schema.required).toEqual(['device']);

    expect((await api(`/operations-manager/automations/${automationId}`, { method: 'DELETE' })).body.data.triggersDeleted).toBe(3);
    expect((await api('/operations-manager/triggers/endpoint/alert-hook', { method: 'POST', json: { device: 'x' } })).status).toBe(404);
    const imported = await api('/operations-manager/automations', { method: 'PUT', json: { automations: [exported.body.data, { description: 'no name' }] } });
    expect(imported.status).toBe(200);
    expect(imported.body.data.map((r: { success: boolean }) => r.success)).toEqual([true, false]);
    expect(imported.body.data[1].message).toBe('body.automations.1.name: an automation needs a name');
    const again = await api('/operations-manager/triggers/endpoint/alert-hook', { method: 'POST', json: { device: 'core-2' } });
    expect(again.status).toBe(200);
    expect((await jobWhenEnded(again.body.data._id)).variables).toMatchObject({ seen: 'core-2' });
  });

  it("names the user of the job it started through GET /authorization/accounts, as the vendor MCP server's trigger_automation does", async () => {
    const started = await api('/operations-manager/triggers/endpoint/alert-hook', { method: 'POST', json: { device: 'core-2' } });
    const user = started.body.data.metrics.user;
    expect(user).toEqual(expect.any(String));
    // Its _account_id_to_username: page the accounts by 100 until `total`, the one whose _id is metrics.user.
    let found: string | undefined;
    for (let skip = 0, seen = 0; ; skip += 100) {
      const { status, body } = await api(`/authorization/accounts?limit=100&skip=${skip}`);
      expect(status).toBe(200);
      found ??= body.results.find((a: { _id: string }) => a._id === user)?.username;
      seen += body.results.length;
      if (seen === body.total) break;
    }
    expect(found).toBe(user);
    const one = await api(`/authorization/accounts/${encodeURIComponent(user)}`);
    expect(one.body).toMatchObject({ _id: user, username: user, inactive: false, memberOf: [], assignedRoles: [] });
    // admin, who logs in over HTTP, is an account too; an _id the console has none of is a 404 naming it.
    expect((await api('/authorization/accounts?limit=0')).body.results.map((a: { username: string }) => a.username)).toContain('admin');
    const none = await api('/authorization/accounts/nobody-here');
    expect(none.status).toBe(404);
    expect(none.body.message).toContain('no account has the _id "nobody-here"');
    expect((await api('/authorization/accounts?limit=-1')).status).toBe(400);
  });

  it("lists the enabled endpoint triggers with when each last ran, as the vendor MCP server's get_workflows asks", async () => {
    await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Paused', type: 'endpoint', actionId: automationId, routeName: 'paused-hook', enabled: false } });
    const { status, body } = await api('/operations-manager/triggers?limit=100&skip=0&equalsField=type&equals=endpoint&enabled=true');
    expect(status).toBe(200);
    const names = body.data.map((t: { name: string }) => t.name);
    expect(names).toContain('Alert');
    expect(names).not.toContain('Paused');
    expect(body.metadata.total).toBe(names.length);
    // Alert ran above; its lastExecuted is when (epoch ms, as the MCP server reads it).
    const alert = body.data.find((t: { name: string }) => t.name === 'Alert');
    expect(alert.lastExecuted).toBeGreaterThan(Date.now() - 600_000);
    expect((await api('/operations-manager/triggers?enabled=false&limit=0')).body.data.map((t: { name: string }) => t.name)).toEqual(['Paused']);
    const bad = await api('/operations-manager/triggers?enabled=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('enabled');
  });

  it("lists one automation's triggers by actionId= and filters by startsWith/startsWithField, as the vendor's operator guide asks", async () => {
    const byAction = await api(`/operations-manager/triggers?actionId=${automationId}&limit=0`);
    expect(byAction.body.data.map((t: { name: string }) => t.name)).toEqual(['Alert', 'Alert via JST', 'Off', 'Paused']);
    expect((await api('/operations-manager/triggers?actionId=6a0c1e5a0000000000000000')).body.metadata.total).toBe(0);
    const prefixed = await api('/operations-manager/triggers?startsWith=Alert&startsWithField=name&limit=0');
    expect(prefixed.body.data.map((t: { name: string }) => t.name)).toEqual(['Alert', 'Alert via JST']);
    const automations = await api('/operations-manager/automations?startsWith=Alert&startsWithField=name');
    expect(automations.body.data.map((a: { name: string }) => a.name)).toEqual(['Alert intake']);
  });

  it('lists the triggers of one automation by actionId, as the vendor MCP server asks', async () => {
    const { body } = await api(`/operations-manager/triggers?equals=${automationId}&equalsField=actionId&limit=0`);
    expect(body.data.map((t: { name: string }) => t.name)).toEqual(['Alert', 'Alert via JST', 'Off', 'Paused']);
    expect(body.metadata.total).toBe(4);
  });
});

describe('a manual trigger', () => {
  it("is made as the vendor MCP server's create_manual_trigger makes one, with description null", async () => {
    const a = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'By the MCP server', componentName: 'Remember Device' } })).body.data;
    const made = await api('/operations-manager/triggers', { method: 'POST', json: { name: 'From MCP', type: 'manual', actionId: a._id, actionType: 'automations', enabled: true, description: null } });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ name: 'From MCP', type: 'manual', description: null });
    expect((await api(`/operations-manager/triggers/${made.body.data._id}`)).body.data.description).toBeNull();
  });

  it('starts the workflow with the form values, wrapped in formData unless legacyWrapper is false', async () => {
    const a = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'By hand', componentName: 'Remember Device' } })).body.data;
    const direct = (await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Direct', type: 'manual', actionId: a._id, legacyWrapper: false } })).body.data;
    const wrapped = (await api('/operations-manager/triggers', { method: 'POST', json: { name: 'Wrapped', type: 'manual', actionId: a._id } })).body.data;
    const one = await api(`/operations-manager/triggers/manual/${direct._id}/run`, { method: 'POST', json: { formData: { device: 'r1' } } });
    expect(one.status).toBe(200);
    expect((await jobWhenEnded(one.body.data._id)).variables).toMatchObject({ device: 'r1', seen: 'r1' });
    const two = await api(`/operations-manager/triggers/manual/${wrapped._id}/run`, { method: 'POST', json: { formData: { device: 'r2' } } });
    expect((await jobWhenEnded(two.body.data._id)).variables).toMatchObject({ formData: { device: 'r2' } });

    const overview = await api('/console/automations');
    const mine = overview.body.automations.find((x: { name: string }) => x.name === 'By hand');
    expect(mine.triggers.map((t: { name: string }) => t.name)).toEqual(['Direct', 'Wrapped']);
    expect(mine.recentJobs.length).toBeGreaterThanOrEqual(2);
  });
});
