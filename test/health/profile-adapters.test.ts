// Adapters follow the active profile: activating another profile stops the old profile's adapter
// processes and starts the new one's, found under its `pathProps.sdk_dir`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { startTestHost, type TestHost } from '../support/host';
import { FIXTURES, waitFor } from '../adapters/support';

let host: TestHost;
let sdkDir: string;
beforeAll(async () => {
  host = await startTestHost();
  sdkDir = path.join(host.dataDir, 'lab-sdk');
  await mkdir(path.join(sdkDir, 'adapters'), { recursive: true });
  await cp(path.join(FIXTURES, 'cjs-package'), path.join(sdkDir, 'adapters', 'cjs'), { recursive: true });
  const created = await host.api('/profiles', {
    method: 'POST',
    json: { id: 'lab', processTasksOnStart: false, pathProps: { description: 'File Path Variables', sdk_dir: sdkDir, encrypted: false } },
  });
  expect(created.status).toBe(201);
});
afterAll(() => host.dispose());

const adapters = async () => (await (await host.api('/health/adapters')).json()) as { results: { id: string; pid: number | null; source: string }[] };

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('adapters of the active profile', () => {
  it('start with the profile and stop when another profile is activated', async () => {
    const before = await waitFor(async () => {
      const list = await adapters();
      return list.results.every((a) => a.pid !== null) && list;
    }, 'the default profile\'s adapters to run');
    expect(before.results.map((a) => a.id)).toEqual(['example', 'http-request']);
    const oldPids = before.results.map((a) => a.pid!);

    expect((await host.api('/profiles/lab/active', { method: 'PUT' })).status).toBe(200);
    const after = await adapters();
    expect(after.results.map((a) => `${a.id}:${a.source}`)).toEqual(['cjs:profile', 'example:shipped', 'http-request:shipped']);
    for (const pid of oldPids) expect(alive(pid), `old adapter process ${pid} still alive`).toBe(false);
    await expect(host.state.runtime.adapters.call('cjs', 'greet', { name: 'lab' }, { timeoutMs: 10_000 })).resolves.toEqual({ text: 'hello lab.' });

    expect((await host.api('/profiles/default/active', { method: 'PUT' })).status).toBe(200);
    expect((await adapters()).results.map((a) => a.id)).toEqual(['example', 'http-request']);
  });

  it("are re-read when the active profile's sdk_dir is edited, without activating again", async () => {
    const current = (await (await host.api('/profiles/default')).json()) as { profile: Record<string, unknown> };
    const edited = { ...current.profile, pathProps: { description: 'File Path Variables', sdk_dir: sdkDir, encrypted: false } };
    expect((await host.api('/profiles/default', { method: 'PUT', json: edited })).status).toBe(200);
    expect((await adapters()).results.map((a) => a.id)).toEqual(['cjs', 'example', 'http-request']);
  });
});
