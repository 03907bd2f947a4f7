// Consoles on their own data directories for the backup and identity tests: started, stopped,
// given a workflow and jobs, and the paths of their store file and backups.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { workflow } from '../../engine/queue/support';

export const json = async (response: Response) => ({ status: response.status, body: await response.json() });
export const dbFolder = (dataDir: string) => path.join(dataDir, 'profiles', 'default', 'db');
export const dbFile = (dataDir: string) => path.join(dbFolder(dataDir), 'console.sqlite');
export const backupFile = (dataDir: string, id: string) => path.join(dbFolder(dataDir), 'backups', `${id}.sqlite`);

/** Data directories and hosts to clean after each test (call `cleanup` in afterEach). */
export function consoles() {
  const dirs: string[] = [];
  const hosts: TestHost[] = [];
  const api = {
    async newDir(): Promise<string> {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'console-identity-'));
      dirs.push(dir);
      return dir;
    },
    /** Remembers a folder made by the test (a copied data directory) for cleanup. */
    own(dir: string) {
      dirs.push(dir);
      return dir;
    },
    async start(dataDir: string): Promise<TestHost> {
      const host = await startTestHost({ dataDir });
      hosts.push(host);
      return host;
    },
    async stop(host: TestHost) {
      hosts.splice(hosts.indexOf(host), 1);
      await host.dispose();
    },
    async cleanup() {
      for (const host of hosts.splice(0)) await host.dispose();
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    },
    /** A running console with the task worker stopped, a workflow `three` and `jobs` jobs. */
    async withJobs(jobs: number, dataDir?: string): Promise<{ host: TestHost; dataDir: string }> {
      const dir = dataDir ?? (await api.newDir());
      const host = await api.start(dir);
      await host.api('/task-worker/stop', { method: 'POST' });
      expect((await host.api('/workflows', { method: 'POST', json: workflow('three', {}, [['workflow_start', 'workflow_end']]) })).status).toBe(201);
      await startJobs(host, jobs);
      return { host, dataDir: dir };
    },
  };
  return api;
}

export async function startJobs(host: TestHost, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const started = await json(await host.api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'three' } }));
    expect(started.status).toBe(200);
    ids.push(started.body.data._id);
  }
  return ids;
}

export async function takeBackup(host: TestHost): Promise<string> {
  const taken = await json(await host.api('/store/backups', { method: 'POST' }));
  expect(taken.status).toBe(201);
  return taken.body.id;
}

export const restore = (host: TestHost, id: string, body?: unknown) =>
  host.api(`/store/backups/${id}/restore`, { method: 'POST', ...(body === undefined ? {} : { json: body }) }).then(json);

export const jobTotal = async (host: TestHost) => (await json(await host.api('/operations-manager/jobs?limit=100'))).body.metadata.total;
