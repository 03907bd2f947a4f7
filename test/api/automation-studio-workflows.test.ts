// GET /automation-studio/workflows as the service's clients read it: the vendor MCP server's
// expose_workflow (`equals[name]=…`, then the item's inputSchema for the endpoint trigger it makes),
// the vendor's guides (`equals[_id]=…&include=name,inputSchema`; pages of at most 100 whatever limit
// asks, read by `total`). Over HTTP on a real host (embedded store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, startTestHost, type TestHost } from '../support/host';
import { workflow as oneTaskWorkflow } from '../engine/queue/support';

let host: TestHost;
const api = (path: string, init?: RequestInit & { json?: unknown }) => callJson(host, path, init);

/** One task copying the job variable `device` into `seen`. */
const workflow = (name: string, extra: Record<string, unknown> = {}) =>
  oneTaskWorkflow(name, { a1: { name: 'newVariable', type: 'operation', variables: { incoming: { name: 'seen', value: '$var.job.device' }, outgoing: { value: null } } } }, [['workflow_start', 'a1'], ['a1', 'workflow_end']], { type: 'automation', ...extra });
const inputSchema = { type: 'object', required: ['device'], properties: { device: { type: 'string' } } };

beforeAll(async () => {
  host = await startTestHost();
  expect((await api('/workflows', { method: 'POST', json: workflow('Deploy router', { inputSchema, description: 'one router' }) })).status).toBe(201);
  for (let i = 0; i < 104; i++) expect((await api('/workflows', { method: 'POST', json: workflow(`Bulk ${String(i).padStart(3, '0')}`) })).status).toBe(201);
}, 60_000);
afterAll(() => host.dispose());

describe('GET /automation-studio/workflows', () => {
  it('finds one by name with its _id and inputSchema, as the MCP server reads total and items[0]', async () => {
    const { status, body } = await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[name]': 'Deploy router' })}`);
    expect(status).toBe(200);
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({ name: 'Deploy router', description: 'one router', inputSchema, type: 'automation' });
    expect(body.items[0]._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.items[0].tasks.a1.name).toBe('newVariable');
  });

  it('by _id with only the fields include names (and _id)', async () => {
    const id = (await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[name]': 'Deploy router' })}`)).body.items[0]._id;
    const { body } = await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[_id]': id, include: 'name,inputSchema' })}`);
    expect(body).toEqual({ items: [{ _id: id, name: 'Deploy router', inputSchema }], total: 1, skip: 0, limit: 25, count: 1 });
    const noId = await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[_id]': id, include: 'name', exclude: '_id' })}`);
    expect(noId.body.items).toEqual([{ name: 'Deploy router' }]);
    const dropped = await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[_id]': id, exclude: 'tasks,transitions' })}`);
    expect(Object.keys(dropped.body.items[0])).not.toContain('tasks');
    expect(dropped.body.items[0].inputSchema).toEqual(inputSchema);
  });

  it('answers at most 100 a page whatever limit asks, 25 when it asks nothing; total says how many to page through', async () => {
    const big = await api('/automation-studio/workflows?limit=500');
    expect(big.body.items).toHaveLength(100);
    expect(big.body.total).toBe(105);
    // The page says the limit it applied and how many it holds (the vendor's builder guide reads skip, limit, count).
    expect([big.body.skip, big.body.limit, big.body.count]).toEqual([0, 100, 100]);
    expect((await api('/automation-studio/workflows?limit=100&skip=100')).body).toMatchObject({ skip: 100, limit: 100, count: 5, total: 105 });
    expect((await api('/automation-studio/workflows')).body.items).toHaveLength(25);
    // Paging by the returned page size reaches every workflow once, in name order.
    const names: string[] = [];
    for (let skip = 0; names.length < big.body.total; skip += 100) names.push(...(await api(`/automation-studio/workflows?limit=100&skip=${skip}`)).body.items.map((w: { name: string }) => w.name));
    expect(new Set(names).size).toBe(105);
    expect(names[0]).toBe('Bulk 000');
    expect((await api('/automation-studio/workflows?order=-1&limit=1')).body.items[0].name).toBe('Deploy router');
    // By _id, as the vendor's platform-data puller pages: ids in order.
    const ids = (await api('/automation-studio/workflows?sort=_id&order=1&limit=100&include=_id')).body.items.map((w: { _id: string }) => w._id);
    expect(ids).toEqual([...ids].sort());
    expect((await api(`/automation-studio/workflows?${new URLSearchParams({ contains: 'router' })}`)).body.total).toBe(1);
  });

  it('GET /automation-studio/workflows/detailed/:name answers the document with its _id, and a 404 naming a name none has', async () => {
    const { status, body } = await api(`/automation-studio/workflows/detailed/${encodeURIComponent('Deploy router')}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'Deploy router', inputSchema, type: 'automation', tasks: { a1: { name: 'newVariable' } } });
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    const none = await api('/automation-studio/workflows/detailed/Nothing%20here');
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('no workflow named "Nothing here"');
  });

  it('names the parameter that is wrong', async () => {
    const both = await api('/automation-studio/workflows?include=name&exclude=tasks');
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('query.exclude');
    const order = await api('/automation-studio/workflows?order=2');
    expect(order.status).toBe(400);
    expect(order.body.message).toContain('order');
    expect((await api('/automation-studio/workflows?limit=-3')).status).toBe(400);
  });

  it("lets the MCP server's expose_workflow make an endpoint trigger from the inputSchema, then run it", async () => {
    const automation = (await api('/operations-manager/automations', { method: 'POST', json: { name: 'Deploy router', componentType: 'workflows', componentName: 'Deploy router', description: 'auto-created by itential-mcp' } })).body.data;
    const found = (await api(`/automation-studio/workflows?${new URLSearchParams({ 'equals[name]': 'Deploy router' })}`)).body.items[0];
    const made = await api('/operations-manager/triggers', {
      method: 'POST',
      json: { actionId: automation._id, actionType: 'automations', name: 'API Route for Deploy router', type: 'endpoint', verb: 'POST', routeName: 'Deploy_router', description: 'auto-created by itential-mcp', enabled: true, schema: found.inputSchema },
    });
    expect(made.status).toBe(200);
    expect((await api('/operations-manager/triggers/endpoint/Deploy_router', { method: 'POST', json: {} })).status).toBe(400);
    const started = await api('/operations-manager/triggers/endpoint/Deploy_router', { method: 'POST', json: { device: 'r9' } });
    expect(started.status).toBe(200);
    expect(started.body.data.name).toBe('Deploy router');
  });
});
