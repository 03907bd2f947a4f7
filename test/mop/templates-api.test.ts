// MOP's command templates over HTTP, as the service's MOP application answers its clients: the ones the
// project's own pre-built brought are listed and read by name; one is created and updated
// (`{ n, ok, nModified }`); they stop with the MOP application.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, hostWithPrebuilt, type TestHost } from '../support/host';
import { fixtures } from '../support/iap';

const FOLDER = fixtures.prebuilt('Instance-Check-Example');
const shipped = JSON.parse(readFileSync(path.join(FOLDER, 'bundles/mop_templates/Ping - Example.json'), 'utf8')) as { name: string; commands: unknown[] };

describe("MOP's command templates", () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await hostWithPrebuilt(FOLDER);
  }, 60_000);
  afterAll(() => host?.dispose());

  it('lists and reads the imported ones by name; a name it lacks reads as none', async () => {
    const list = (await callJson(host, '/mop/listTemplates')).body as { name: string }[];
    expect(list.find((t) => t.name === shipped.name)).toMatchObject({ name: shipped.name, commands: shipped.commands });
    expect((await callJson(host, `/mop/listATemplate/${encodeURIComponent(shipped.name)}`)).body).toEqual([expect.objectContaining({ name: shipped.name, commands: shipped.commands })]);
    expect((await callJson(host, '/mop/listATemplate/Nothing%20here')).body).toEqual([]);
  });

  it('creates one by a unique name and updates it, keeping who made it and when', async () => {
    const mop = { name: 'Show version', os: 'cisco-ios', passRule: true, commands: [{ command: 'show version', passRule: true, rules: [{ rule: 'Version', eval: 'contains', severity: 'error' }] }] };
    const post = (where: string, json: unknown) => callJson(host, where, { method: 'POST', json });
    expect((await post('/mop/createTemplate', { mop })).body).toEqual({ n: 1, ok: 1, nModified: 0 });
    const [made] = (await callJson(host, '/mop/listATemplate/Show%20version')).body;
    expect(made).toMatchObject({ ...mop, createdBy: expect.any(String), created: expect.any(Number) });
    const again = await post('/mop/createTemplate', { mop });
    expect([again.status, again.body.message]).toEqual([409, 'a command template named "Show version" exists already']);

    const changed = { ...mop, commands: [{ command: 'show version | include IOS', passRule: true, rules: [] }] };
    expect((await post('/mop/updateTemplate/Show%20version', { mop: changed })).body).toEqual({ n: 1, ok: 1, nModified: 1 });
    const [updated] = (await callJson(host, '/mop/listATemplate/Show%20version')).body;
    expect(updated).toMatchObject({ commands: changed.commands, created: made.created, createdBy: made.createdBy });
    expect((await post('/mop/updateTemplate/Nobody', { mop: changed })).body).toEqual({ n: 0, ok: 1, nModified: 0 });
    expect((await post('/mop/createTemplate', { name: 'no wrapper' })).status).toBe(400);
  });

  it('stops with the MOP application', async () => {
    expect((await callJson(host, '/applications/MOP/stop', { method: 'PUT' })).status).toBe(200);
    const stopped = await callJson(host, '/mop/listTemplates');
    expect([stopped.status, stopped.body.message]).toEqual([503, expect.stringContaining('MOP is STOPPED')]);
    expect((await callJson(host, '/applications/MOP/start', { method: 'PUT' })).status).toBe(200);
    expect((await callJson(host, '/mop/listTemplates')).status).toBe(200);
  });
});
