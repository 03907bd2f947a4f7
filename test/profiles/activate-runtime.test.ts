// Activating a profile reconfigures the running console: its store, and its task worker per
// processTasksOnStart, without a restart; so does saving the active profile with another store,
// sdk_dir or loggerProps.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';

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

  it('keeps the runtime for edits that open nothing, and reconfigures the logger live', async () => {
    const before = host.state.runtime;
    const got = (await (await host.api('/profiles/default')).json()).profile;
    expect((await host.api('/profiles/default', { method: 'PUT', json: { ...got, serverName: 'renamed' } })).status).toBe(200);
    expect(host.state.runtime).toBe(before);
    expect((await status()).serverName).toBe('renamed');
    // mongoProps without a url: the embedded store stays what it was.
    await host.api('/profiles/default', { method: 'PUT', json: { ...got, serverName: 'renamed', mongoProps: { ...got.mongoProps, db: 'other' } } });
    expect(host.state.runtime).toBe(before);
    await host.api('/profiles/default', { method: 'PUT', json: { ...got, loggerProps: { log_level: 'debug' } } });
    expect(host.state.runtime).toBe(before);
    expect(host.log.settings().fileLevel).toBe('debug');
  });

  it('reopens the store on a new embeddedProps.file of the active profile, and on the old one when it is removed', async () => {
    const flow = workflow('written-before', {}, [['workflow_start', 'workflow_end']]);
    expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBe(201);
    const storeStatus = async () => (await host.api('/store/status')).json();
    const first = await storeStatus();
    const got = (await (await host.api('/profiles/default')).json()).profile;

    const moved = await host.api('/profiles/default', { method: 'PUT', json: { ...got, embeddedProps: { file: 'elsewhere.sqlite' } } });
    expect(moved.status).toBe(200);
    expect(await storeStatus()).toMatchObject({ kind: 'embedded', connected: true, location: `embedded store in ${path.join(host.dataDir, 'profiles', 'default', 'db', 'elsewhere.sqlite')}` });
    expect((await host.api('/workflows/written-before')).status).toBe(404);

    const { embeddedProps: _dropped, ...back } = got;
    expect((await host.api('/profiles/default', { method: 'PUT', json: back })).status).toBe(200);
    expect((await storeStatus()).location).toBe(first.location);
    expect((await host.api('/workflows/written-before')).status).toBe(200);
  });

  it('reopens the adapters on a new sdk_dir of the active profile', async () => {
    const before = host.state.runtime;
    const got = (await (await host.api('/profiles/default')).json()).profile;
    const sdkDir = await mkdtemp(path.join(os.tmpdir(), 'console-sdk-'));
    try {
      await host.api('/profiles/default', { method: 'PUT', json: { ...got, pathProps: { ...got.pathProps, sdk_dir: sdkDir } } });
      expect(host.state.runtime).not.toBe(before);
      expect(host.state.runtime.config.sdkDir).toBe(sdkDir);
    } finally {
      await host.api('/profiles/default', { method: 'PUT', json: got });
      await rm(sdkDir, { recursive: true, force: true });
    }
  });
});
