// One reader of processTasksOnStart: saving the active profile (properties.json) changes, together and at
// once, the worker status's startupValue, the console status the status bar reads, attention and the
// WorkFlowEngine application's start; the worker's running state is a separate fact that the save leaves as it was.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../../core/files/atomic';
import { propertiesFile } from '../../../core/profiles/directory';
import { startTestHost, type TestHost } from '../../support/host';

let host: TestHost;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-startup-value-'));
  await writeJsonAtomic(propertiesFile(dataDir, 'site'), { id: 'site', serverName: 'site-01', processTasksOnStart: true });
  host = await startTestHost({ dataDir });
});
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const json = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
  const answer = await host.api(pathname, init);
  expect(answer.status, `${init?.method ?? 'GET'} ${pathname}`).toBeLessThan(300);
  return answer.json();
};

/** Saves the active profile as an operator does: the whole file, one setting changed. */
async function save(processTasksOnStart: boolean | undefined) {
  const { profile } = await json('/profiles/site');
  const { processTasksOnStart: _before, ...rest } = profile as Record<string, unknown>;
  await json('/profiles/site', { method: 'PUT', json: processTasksOnStart === undefined ? rest : { ...rest, processTasksOnStart } });
}

/** Every reader of the setting, as a caller sees it. */
async function readers() {
  const workers = await json('/workflow_engine/workers/status');
  const status = await json('/health/status');
  const attention = await json('/console/attention');
  const worker = attention.items.find((i: { id: string }) => i.id === 'worker-role');
  return { workers: workers.taskWorker, status: status.taskWorker, attention: worker?.summary };
}

describe('saving processTasksOnStart on the active profile', () => {
  it('false: startupValue, the console status and attention say so at once; the worker runs on until stopped', async () => {
    expect(await readers()).toMatchObject({ workers: { running: true, startupValue: true }, status: { running: true, startupValue: true } });
    await save(false);
    const after = await readers();
    expect(after.workers).toMatchObject({ running: true, startupValue: false });
    expect(after.status).toEqual({ running: true, startupValue: false });
    expect(after.attention).toBe('Standby working tasks');

    await json('/workflow_engine/taskWorker/deactivate', { method: 'POST' });
    const stopped = await readers();
    expect(stopped.workers).toEqual({ running: false, clusterValue: 'not defined', localValue: 'disabled', startupValue: false });
    expect(stopped.status).toEqual({ running: false, startupValue: false });
    expect(stopped.attention).toBe('Task worker as the standby role expects (stopped)');
  });

  it('a restart of WorkFlowEngine follows the saved value: off stays off, on (or not set) starts the worker', async () => {
    await json('/applications/WorkFlowEngine/restart', { method: 'PUT' });
    expect((await readers()).workers).toEqual({ running: false, clusterValue: 'not defined', localValue: 'disabled', startupValue: false });
    await save(undefined);
    // Not set in properties.json: the service's default (true), and the setting said not defined there.
    expect((await readers()).workers).toEqual({ running: false, clusterValue: 'not defined', localValue: 'not defined', startupValue: true });
    await json('/applications/WorkFlowEngine/restart', { method: 'PUT' });
    expect((await readers()).workers).toMatchObject({ running: true, startupValue: true });
  });

  it('survives a restart of the console: the saved value is the one it starts with', async () => {
    await save(false);
    await host.close();
    host = await startTestHost({ dataDir });
    expect(await readers()).toMatchObject({ workers: { running: false, startupValue: false }, status: { running: false, startupValue: false } });
  });
});
