// Automation Studio's templates over HTTP, as the vendor's MCP server lists them (get_templates:
// include=_id,name,group, sort=group, limit=50, exclude-project-members=true) and reads one: the
// Template Builder documents the project's own pre-built brought, kept whole in `templates`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, hostWithPrebuilt, type TestHost } from '../support/host';
import { fixtures } from '../support/iap';

const FOLDER = fixtures.prebuilt('Instance-Check-Example');
const shipped = JSON.parse(readFileSync(path.join(FOLDER, 'bundles/templates/Interface Description - Example.json'), 'utf8')) as { _id: string; name: string; group: string; template: string };

describe("Automation Studio's templates", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await hostWithPrebuilt(FOLDER);
  }, 60_000);
  afterAll(() => host?.dispose());

  it('lists them as the MCP server asks, and reads one whole by its _id', async () => {
    const list = await callJson(host, '/automation-studio/templates?exclude-project-members=true&limit=50&sort=group&include=_id,name,group');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [{ _id: shipped._id, name: shipped.name, group: shipped.group }], total: 1, skip: 0, limit: 50, count: 1 });
    const one = await callJson(host, `/automation-studio/templates/${shipped._id}`);
    expect(one.body).toEqual(shipped);
    expect((await callJson(host, `/automation-studio/templates?${new URLSearchParams({ 'equals[group]': 'nothing' })}`)).body).toMatchObject({ items: [], total: 0 });
  });

  it('creates one as the MCP server does and replaces it by _id, keeping who made it and when', async () => {
    const template = { name: 'VLAN interface', type: 'jinja2', group: 'Cisco IOS', command: 'configure terminal', description: 'A VLAN interface', template: 'interface Vlan{{ vlan_id }}', data: '{"vlan_id": 100}' };
    const made = await callJson(host, '/automation-studio/templates', { method: 'POST', json: { template } });
    expect(made.status).toBe(200);
    expect(made.body.created).toMatchObject({ ...template, _id: expect.any(String), createdBy: expect.any(String), created: expect.any(String) });
    expect(made.body.edit).toBe(`/automation-studio/templates/${made.body.created._id}`);
    expect((await callJson(host, made.body.edit)).body).toEqual(made.body.created);
    const again = await callJson(host, '/automation-studio/templates', { method: 'POST', json: { template } });
    expect([again.status, again.body.message]).toEqual([409, 'a template named "VLAN interface" exists already']);

    const put = (id: string, update: unknown) => callJson(host, `/automation-studio/templates/${id}`, { method: 'PUT', json: { update } });
    const changed = await put(made.body.created._id, { ...template, template: 'interface Vlan{{ vlan_id }}\n no shutdown' });
    expect(changed.body.updated).toMatchObject({ _id: made.body.created._id, template: 'interface Vlan{{ vlan_id }}\n no shutdown', created: made.body.created.created, createdBy: made.body.created.createdBy });
    expect((await put(made.body.created._id, { ...template, name: shipped.name })).status).toBe(409);
    expect((await put('6a0c1e5a0000000000000fff', template)).status).toBe(404);
    expect((await callJson(host, '/automation-studio/templates', { method: 'POST', json: template })).status).toBe(400);
  });

  it('names a template it does not keep, and a bad parameter', async () => {
    const missing = await callJson(host, '/automation-studio/templates/6a0c1e5a0000000000000fff');
    expect([missing.status, missing.body.message]).toEqual([404, expect.stringContaining('no template has the _id "6a0c1e5a0000000000000fff"')]);
    const bad = await callJson(host, '/automation-studio/templates?exclude-project-members=maybe');
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('exclude-project-members')]);
  });
});
