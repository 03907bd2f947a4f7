import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestHost } from '../support/host';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('the profile directory across restarts', () => {
  it('remembers the active profile', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'profiles-restart-'));
    dirs.push(dataDir);
    const first = await startTestHost({ dataDir });
    await first.api('/profiles', { method: 'POST', json: { id: 'standby', processTasksOnStart: false } });
    expect((await first.api('/profiles/standby/active', { method: 'PUT' })).status).toBe(200);
    await first.dispose();

    const second = await startTestHost({ dataDir });
    expect(second.state.runtime.config.profileId).toBe('standby');
    const list = await (await second.api('/profiles')).json();
    expect(list.results.map((r: { profile: { id: string }; metadata: { isActive: boolean } }) => [r.profile.id, r.metadata.isActive])).toEqual([
      ['default', false],
      ['standby', true],
    ]);
    await second.dispose();
  });

  it('lists a hand-broken file with the reason instead of failing, and refuses to activate it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'profiles-broken-'));
    dirs.push(dataDir);
    const host = await startTestHost({ dataDir });
    await mkdir(path.join(dataDir, 'profiles/broken'), { recursive: true });
    await writeFile(path.join(dataDir, 'profiles/broken/properties.json'), '{"id": "broken", ');
    await mkdir(path.join(dataDir, 'profiles/bad-url'), { recursive: true });
    await writeFile(path.join(dataDir, 'profiles/bad-url/properties.json'), '{"id": "bad-url", "mongoProps": {"url": "db:27017"}}');
    const list = await (await host.api('/profiles')).json();
    expect(list.total).toBe(3);
    const warnings = Object.fromEntries(
      list.results.map((r: { profile: { id: string }; metadata: { warnings: string[] } }) => [r.profile.id, r.metadata.warnings.join(' ')]),
    );
    expect(warnings.broken).toContain('not valid JSON');
    expect(warnings['bad-url']).toContain('mongoProps.url: must be a mongodb:// or mongodb+srv:// URL');
    const refused = await host.api('/profiles/bad-url/active', { method: 'PUT' });
    expect(refused.status).toBe(400);
    expect((await refused.json()).issues).toEqual([{ path: 'mongoProps.url', message: 'must be a mongodb:// or mongodb+srv:// URL' }]);
    expect(host.state.runtime.config.profileId).toBe('default');
    await host.dispose();
  });
});
