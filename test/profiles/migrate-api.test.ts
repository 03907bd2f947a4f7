import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

describe('the activate migration', () => {
  it('warns on a profile that still carries activate, naming the replacement and who wins', async () => {
    const created = await host.api('/profiles/import', {
      method: 'POST',
      json: { id: 'old-site', processTasksOnStart: true, activate: false, serverName: 'old-01' },
    });
    expect(created.status).toBe(201);
    const createdBody = await created.json();
    expect(createdBody.metadata.warnings.join('\n')).toContain('processTasksOnStart (properties.json)');
    const body = await (await host.api('/profiles/old-site')).json();
    expect(body.metadata.legacyActivate).toEqual([expect.objectContaining({ place: 'properties', value: false })]);
    expect(body.metadata.warnings[0]).toContain('contradicts processTasksOnStart (true): processTasksOnStart wins');
  });

  it('previews the change for a 2020.1 service config without writing', async () => {
    const before = await readFile(path.join(host.dataDir, 'profiles/default/properties.json'), 'utf8');
    const response = await host.api('/profiles/default/migrate-activate/preview', {
      method: 'POST',
      json: { config: { type: 'WorkFlowEngine', properties: { activate: false } }, source: 'wfe.json' },
    });
    expect(response.status).toBe(200);
    const preview = await response.json();
    expect(preview).toMatchObject({ applicable: true, changes: true, before: { processTasksOnStart: true }, after: { processTasksOnStart: false } });
    expect(await readFile(path.join(host.dataDir, 'profiles/default/properties.json'), 'utf8')).toBe(before);
  });

  it('writes processTasksOnStart on confirmation, removes activate, and keeps a backup', async () => {
    const dir = path.join(host.dataDir, 'profiles/old-site');
    const original = await readFile(path.join(dir, 'properties.json'), 'utf8');
    const response = await host.api('/profiles/old-site/migrate-activate', { method: 'POST' });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.entry.profile.processTasksOnStart).toBe(false);
    expect(result.entry.profile).not.toHaveProperty('activate');
    expect(result.entry.profile.serverName).toBe('old-01');
    expect(result.entry.metadata.warnings).toEqual([]);
    expect(await readFile(result.backup, 'utf8')).toBe(original);
    expect((await readdir(dir)).filter((n) => n.endsWith('.bak')).length).toBeGreaterThanOrEqual(1);
    // Nothing left to migrate: refused with the reason.
    const again = await host.api('/profiles/old-site/migrate-activate', { method: 'POST', json: {} });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toContain('nothing to migrate');
  });

  it('answers 404 for an unknown profile', async () => {
    expect((await host.api('/profiles/nope/migrate-activate/preview', { method: 'POST', json: {} })).status).toBe(404);
  });
});
