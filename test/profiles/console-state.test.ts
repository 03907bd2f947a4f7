// console.json remembers the active profile. One that cannot be read never activates another
// profile (on a DR standby the alphabetically first could be a primary that works tasks): the
// console starts with no profile, says why in the profiles list, the store status and the health
// status, and runs the profile the operator activates.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

const dirs: string[] = [];
const hosts: TestHost[] = [];
afterAll(async () => {
  for (const host of hosts) await host.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A DR standby's data directory: `default` (works tasks, first by name) and the active `standby`. */
async function standbyDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-state-'));
  dirs.push(dataDir);
  const first = await startTestHost({ dataDir });
  await first.api('/profiles', { method: 'POST', json: { id: 'standby', serverName: 'dr-01', processTasksOnStart: false } });
  expect((await first.api('/profiles/standby/active', { method: 'PUT' })).status).toBe(200);
  await first.dispose();
  return dataDir;
}

async function restart(dataDir: string) {
  const host = await startTestHost({ dataDir });
  hosts.push(host);
  return host;
}

describe('a console.json that cannot be read', () => {
  for (const [what, content] of [
    ['is not JSON', '{"activeProfile": "stand'],
    ['names no profile', '{"active": "standby"}'],
  ] as const) {
    it(`(${what}) activates no profile and says why everywhere the operator looks`, async () => {
      const dataDir = await standbyDataDir();
      await writeFile(path.join(dataDir, 'console.json'), content);
      const host = await restart(dataDir);

      const health = await (await host.api('/health/status')).json();
      expect(health).toMatchObject({ profile: '(none)', taskWorker: { running: false } });

      const list = await (await host.api('/profiles')).json();
      expect(list.noActiveProfile).toContain(path.join(dataDir, 'console.json'));
      expect(list.noActiveProfile).toContain('activate a profile');
      expect(list.results.map((r: { metadata: { isActive: boolean } }) => r.metadata.isActive)).toEqual([false, false]);

      const store = await (await host.api('/store/status')).json();
      expect(store.connected).toBe(false);
      expect(store.error).toContain('console.json');

      // Which profile is active is unknown: none may be deleted until one is activated.
      const refused = await host.api('/profiles/default', { method: 'DELETE' });
      expect(refused.status).toBe(409);
      expect((await refused.json()).message).toContain('console.json');
      // The file is left as it was for the operator to look at.
      expect(await readFile(path.join(dataDir, 'console.json'), 'utf8')).toBe(content);
    });
  }

  it('runs the profile the operator activates, and remembers it', async () => {
    const dataDir = await standbyDataDir();
    await writeFile(path.join(dataDir, 'console.json'), '\u0000\u0000');
    const host = await restart(dataDir);
    expect((await host.api('/profiles/standby/active', { method: 'PUT' })).status).toBe(200);
    expect(await (await host.api('/health/status')).json()).toMatchObject({ profile: 'standby', serverName: 'dr-01', taskWorker: { running: false } });
    expect((await (await host.api('/store/status')).json()).connected).toBe(true);
    const list = await (await host.api('/profiles')).json();
    expect(list.noActiveProfile).toBeUndefined();
    expect(JSON.parse(await readFile(path.join(dataDir, 'console.json'), 'utf8'))).toEqual({ activeProfile: 'standby' });
  });

  it('naming a profile that is gone activates no other one', async () => {
    const dataDir = await standbyDataDir();
    await rm(path.join(dataDir, 'profiles', 'standby'), { recursive: true });
    const host = await restart(dataDir);
    expect(await (await host.api('/health/status')).json()).toMatchObject({ profile: '(none)', taskWorker: { running: false } });
    expect((await (await host.api('/profiles')).json()).noActiveProfile).toContain('"standby"');
  });
});
