// Activating a profile reconfigures the running console: its store, and its task worker per
// processTasksOnStart, without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
  await host.api('/profiles', { method: 'POST', json: { id: 'dr-standby', serverName: 'dr-01', processTasksOnStart: false } });
});
afterAll(() => host.dispose());

const status = async () => (await host.api('/health/status')).json();

describe('activating another profile', () => {
  it('stops the task worker for a DR standby and starts it again for a primary', async () => {
    expect((await status()).taskWorker.running).toBe(true);
    const before = host.state.runtime;

    expect((await host.api('/profiles/dr-standby/active', { method: 'PUT' })).status).toBe(200);
    expect(host.state.runtime).not.toBe(before);
    expect(await status()).toMatchObject({ profile: 'dr-standby', serverName: 'dr-01', taskWorker: { running: false } });

    expect((await host.api('/profiles/default/active', { method: 'PUT' })).status).toBe(200);
    expect(await status()).toMatchObject({ profile: 'default', taskWorker: { running: true } });
  });

  it('keeps each profile in its own embedded store', async () => {
    const store = host.state.runtime.store;
    await store.collection('profile_marks').insertOne({ _id: 'mark', of: 'default' });
    await host.api('/profiles/dr-standby/active', { method: 'PUT' });
    expect(await host.state.runtime.store.collection('profile_marks').findOne({ _id: 'mark' })).toBeNull();
    await host.api('/profiles/default/active', { method: 'PUT' });
    expect(await host.state.runtime.store.collection('profile_marks').findOne({ _id: 'mark' })).toMatchObject({ of: 'default' });
  });

  it('reopens the store when the active profile changes its database, and not for other edits', async () => {
    const before = host.state.runtime;
    const got = (await (await host.api('/profiles/default')).json()).profile;
    await host.api('/profiles/default', { method: 'PUT', json: { ...got, serverName: 'renamed' } });
    expect(host.state.runtime).toBe(before);
    expect((await status()).serverName).toBe('renamed');
    await host.api('/profiles/default', { method: 'PUT', json: { ...got, serverName: 'renamed', mongoProps: { ...got.mongoProps, db: 'other' } } });
    expect(host.state.runtime).not.toBe(before);
    expect(host.state.runtime.profile.mongoProps?.db).toBe('other');
  });
});
