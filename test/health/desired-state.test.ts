// Two sites on one database: each server keeps its own started/stopped choice of applications.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApplications } from '../../core/applications';
import { openStore } from '../../core/store/open';
import type { Store } from '../../core/store/port';

let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'desired-state-'));
  store = await openStore(dataDir, { id: 'shared' });
});

afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('stopping Operations Manager on the standby leaves it running on the active site, across restarts', async () => {
  const standby = await openApplications({ store, serverId: 'standby' });
  await standby.stop('OperationsManager');

  const active = await openApplications({ store, serverId: 'active' });
  const state = async (apps: typeof active) => (await apps.item('OperationsManager')).state;
  expect(await state(active)).toBe('RUNNING');

  // Each reopens with its own choice, as after a console restart.
  expect(await state(await openApplications({ store, serverId: 'standby' }))).toBe('STOPPED');
  expect(await state(await openApplications({ store, serverId: 'active' }))).toBe('RUNNING');
});
