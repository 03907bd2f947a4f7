// Recordings of a real instance's calls: recorded with secrets masked, listed, exported and
// imported as files, and made into a simulated instance that replays the best-matching answer.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { INVENTORY, waitFor } from './support';
import { rulesFromRecording } from '../../core/adapters/simulated/recordings';

let dataDir: string;
let host: TestHost;
const api = async (pathname: string, init?: Parameters<TestHost['api']>[1]) => {
  const response = await host.api(pathname, init);
  return { status: response.status, body: await response.json() };
};
const runJob = async (app: string, device: string) => {
  const name = `get ${device} from ${app}`;
  const flow = workflow(name, { get: { name: 'getDevice', app, variables: { incoming: { name: device, password: 'p-secret-123' }, outgoing: { result: null } } } }, [['workflow_start', 'get'], ['get', 'workflow_end']]);
  expect((await api('/workflows?overwrite=true', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: name } });
  return waitFor(async () => {
    const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
    return ['complete', 'error'].includes(body.data.status) && body.data;
  }, 'the job to end');
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-recordings-'));
  const scope = path.join(dataDir, 'sdk', 'node_modules', '@itentialopensource');
  await mkdir(scope, { recursive: true });
  await symlink(INVENTORY, path.join(scope, 'adapter-inventory'));
  await writeJsonAtomic(propertiesFile(dataDir, 'site'), { id: 'site', pathProps: { sdk_dir: path.join(dataDir, 'sdk') } });
  host = await startTestHost({ dataDir });
  const sample = await api('/adapter-packages/sample?package=%40itentialopensource%2Fadapter-inventory&name=inv-real');
  const properties = { ...sample.body.data.properties, stub: true, authentication: { username: 'op', password: 'p-secret-123' } };
  expect((await api('/adapters', { method: 'POST', json: { properties: { ...sample.body.data, properties } } })).status).toBe(200);
  await waitFor(async () => (await api('/health/adapters/inv-real')).body.results[0].connection.state === 'ONLINE', 'inv-real ONLINE');
}, 60_000);
afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('recordings of adapter calls', () => {
  it('records a real instance for a number of calls, secrets masked, and replays them from a simulated instance', async () => {
    const started = await api('/adapters/inv-real/record', { method: 'POST', json: { calls: 2 } });
    expect(started).toMatchObject({ status: 200, body: { adapter: 'inv-real', type: 'Inventory', maxCalls: 2, recording: true } });
    for (const device of ['router-1', 'anything', 'not recorded']) expect((await runJob('inv-real', device)).status).toBe('complete');

    const list = await api('/adapter-recordings');
    expect(list.body.results).toEqual([expect.objectContaining({ _id: started.body._id, callCount: 2, recording: false })]);
    const exported = (await api(`/adapter-recordings/${started.body._id}`)).body;
    expect(exported.calls.map((c: { args: { name: string } }) => c.args.name)).toEqual(['router-1', 'anything']);
    expect(JSON.stringify(exported)).not.toContain('p-secret-123');

    const imported = await api('/adapter-recordings/import', { method: 'POST', json: { recording: exported } });
    expect(imported).toMatchObject({ status: 200, body: { adapter: 'inv-real', callCount: 2 } });
    expect(imported.body._id).not.toBe(started.body._id);
    expect((await api('/adapter-recordings/import', { method: 'POST', json: { recording: { hello: 1 } } })).status).toBe(400);

    expect((await api(`/adapter-recordings/${imported.body._id}/simulate`, { method: 'POST', json: {} })).status).toBe(409);
    const replay = await api(`/adapter-recordings/${imported.body._id}/simulate`, { method: 'POST', json: { name: 'inv-replay' } });
    expect(replay.status).toBe(200);
    const router = await runJob('inv-replay', 'router-1');
    expect(router.taskRuns.find((t: { taskId: string }) => t.taskId === 'get')).toMatchObject({ simulated: 'inv-replay', outgoing: { result: { response: { os: 'ios-xr' } } } });
    const other = await runJob('inv-replay', 'core-9');
    expect(other.taskRuns.find((t: { taskId: string }) => t.taskId === 'get').outgoing.result.response).toEqual({ name: 'mock-device', os: 'mock-os', source: 'mock data' });
  }, 60_000);

  it('puts the most specific recorded arguments first, then the last answer for anything else', () => {
    const call = (args: Record<string, unknown>, answer: unknown) => ({ at: 0, method: 'm', args, ok: true, answer, durationMs: 1 });
    const rules = rulesFromRecording({ _id: 'r', adapter: 'a', type: 'T', startedAt: 0, until: 0, maxCalls: 9, calls: [call({ a: 1 }, 'one'), call({ a: 1, b: { c: 2 } }, 'two')] }).m!.rules;
    expect(rules.map((r) => [r.match, r.response])).toEqual([
      [{ a: 1, b: { c: 2 } }, 'two'],
      [{ a: 1 }, 'one'],
      [undefined, 'two'],
    ]);
  });
});
