// Two sites on one database: each server keeps its own started/stopped choice of applications.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Applications, openApplications } from '../../core/applications';
import { openStore } from '../../core/store/open';
import type { Store } from '../../core/store/port';

let dataDir: string;
let store: Store;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'desired-state-'));
  store = await openStore(dataDir, { id: 'shared' });
});

afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('stopping Operations Manager on the standby leaves it running on the active site, across restarts', async () => {
  const standby = await openApplications({ store, serverId: 'standby', log });
  await standby.stop('OperationsManager');

  const active = await openApplications({ store, serverId: 'active', log });
  const state = async (apps: typeof active) => (await apps.item('OperationsManager')).state;
  expect(await state(active)).toBe('RUNNING');

  // Each reopens with its own choice, as after a console restart.
  expect(await state(await openApplications({ store, serverId: 'standby', log }))).toBe('STOPPED');
  expect(await state(await openApplications({ store, serverId: 'active', log }))).toBe('RUNNING');
});

it('choices that cannot be read are logged with the reason, and every application starts', async () => {
  const logged: string[] = [];
  const unreadable = {
    stopped: () => Promise.reject(new Error('the store does not answer')),
    set: () => Promise.resolve(),
    forget: () => Promise.resolve(),
  };
  const log = pino({}, { write: (line: string) => void logged.push(JSON.parse(line).msg) });
  const apps = await new Applications({ desired: unreadable, log }).open();
  expect(logged).toEqual(["applications: the operator's stopped applications cannot be read (the store does not answer); all start"]);
  expect((await apps.item('OperationsManager')).state).toBe('RUNNING');
});
