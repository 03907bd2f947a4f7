// Adapters over HTTP on a real host, with the service's routes: packages found in the profile's
// sdk_dir as the service installs them (node_modules/@itentialopensource/adapter-*), service
// configs created from sampleProperties and validated against propertiesSchema (a bad one is a
// 400 naming the path), secrets masked, a workflow calling two methods of an instance to
// complete, an error answer taking the error transition with the adapter's error object kept,
// a killed process shown DEAD then ONLINE, and desired states kept across a console restart.
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { CHANGE_DESK, INVENTORY, TUFIN, startInventoryServer, waitFor } from './support';
import { CORPUS_TAG, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';

noteCorpusSkip('the real adapter package adapter-tufin_securetrack');

let dataDir: string;
let host: TestHost;
let server: Awaited<ReturnType<typeof startInventoryServer>>;

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) };
}

beforeAll(async () => {
  server = await startInventoryServer();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-adapters-'));
  const sdk = path.join(dataDir, 'sdk');
  const scope = path.join(sdk, 'node_modules', '@itentialopensource');
  await mkdir(scope, { recursive: true });
  await symlink(INVENTORY, path.join(scope, 'adapter-inventory'));
  await symlink(CHANGE_DESK, path.join(scope, 'adapter-change_desk'));
  if (existsSync(TUFIN)) await symlink(TUFIN, path.join(scope, 'adapter-tufin_securetrack'));
  await writeJsonAtomic(propertiesFile(dataDir, 'site'), { id: 'site', pathProps: { description: 'File Path Variables', sdk_dir: sdk, encrypted: true } });
  host = await startTestHost({ dataDir });
});
afterAll(async () => {
  await host.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
});

const api = (pathname: string, init?: Parameters<TestHost['api']>[1]) => host.api(pathname, init).then(json);
/** Saves `flow`, starts a job of it with `variables` and answers the job once it ended (complete or error). */
async function runToEnd(flow: { name: string }, variables: Record<string, unknown>) {
  expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const started = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: flow.name, options: { variables } } });
  expect(started.status).toBe(200);
  return waitFor(async () => {
    const { body } = await api(`/operations-manager/jobs/${started.body.data._id}`);
    return ['complete', 'error'].includes(body.data.status) && body.data;
  }, 'the job to end');
}
const health = async (name: string) => (await api(`/health/adapters/${encodeURIComponent(name)}`)).body.results[0];
const live = () => ({
  id: 'inv-live',
  type: 'Inventory',
  properties: { host: '127.0.0.1', port: server.port, protocol: 'http', stub: false, authentication: { username: 'op', password: 's3cret', apiKey: 'k-123' }, healthcheck: { type: 'intermittent', frequency: 500 } },
  brokers: [],
  groups: [],
});

describe('adapters over HTTP', () => {
  it('lists the packages of the sdk_dir and the shipped ones', async () => {
    const { status, body } = await api('/adapter-packages');
    expect(status).toBe(200);
    const names = body.results.map((p: any) => `${p.name}:${p.source}`);
    expect(names).toContain('@itentialopensource/adapter-inventory:sdk');
    expect(names).toContain('@automation/adapter-example:shipped');
    expect(names).toContain('@automation/adapter-http_request:shipped');
  });

  it('a bad properties file is a 400 naming the property path; an unknown type names the field', async () => {
    const bad = live();
    (bad.properties as any).port = 'eighty';
    const refused = await api('/adapters', { method: 'POST', json: { properties: bad } });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toContainEqual({ path: 'body.properties.properties.port', message: 'must be integer' });
    expect(refused.body.message).toContain('body.properties.properties.port must be integer');
    const unknown = await api('/adapters', { method: 'POST', json: { properties: { ...live(), type: 'Nope' } } });
    expect(unknown).toMatchObject({ status: 400, body: { issues: [{ path: 'body.properties.type' }] } });
    expect((await api('/adapters')).body.results.map((c: any) => c.id)).not.toContain('inv-live');
  });

  it('creates an instance in stub mode from the sample: RUNNING, ONLINE and STUB', async () => {
    const sample = await api('/adapter-packages/sample?package=%40itentialopensource%2Fadapter-inventory&name=inv-stub');
    expect(sample.status).toBe(200);
    expect(sample.body.data).toMatchObject({ id: 'inv-stub', type: 'Inventory', properties: { stub: true, authentication: { password: '********' } } });
    expect(sample.body.methods.map((m: any) => m.name)).toContain('updateDevice');
    const created = await api('/adapters', { method: 'POST', json: { properties: { ...sample.body.data, properties: { ...sample.body.data.properties, authentication: { username: 'x', password: 'p' } } } } });
    expect(created).toMatchObject({ status: 200, body: { status: 'Created', data: { id: 'inv-stub', type: 'Inventory' } } });
    const item = await waitFor(async () => {
      const h = await health('inv-stub');
      return h.connection.state === 'ONLINE' && h;
    }, 'inv-stub ONLINE');
    expect(item).toMatchObject({ state: 'RUNNING', stub: true, package_id: '@itentialopensource/adapter-inventory', source: 'sdk' });
  });

  it('creates an instance from the masked sample as sent back: its secrets are the sample\'s own', async () => {
    const sample = await api('/adapter-packages/sample?package=%40itentialopensource%2Fadapter-inventory&name=inv-as-sampled');
    expect(sample.body.data.properties.authentication.password).toBe('********');
    const created = await api('/adapters', { method: 'POST', json: { properties: sample.body.data } });
    expect(created).toMatchObject({ status: 200, body: { status: 'Created', data: { id: 'inv-as-sampled' } } });
    const stored = host.state.runtime.adapters.manager.instance('inv-as-sampled')!.config.properties as any;
    const file = JSON.parse(readFileSync(path.join(INVENTORY, 'sampleProperties.json'), 'utf8'));
    expect(stored.authentication.password).toBe(file.properties.authentication.password);
    expect((await api('/adapters/inv-as-sampled')).body.data.properties.authentication.password).toBe('********');
    expect((await api('/adapters/inv-as-sampled', { method: 'DELETE' })).status).toBe(200);
  });

  it('keeps secrets masked and a masked value sent back keeps the stored one', async () => {
    expect((await api('/adapters', { method: 'POST', json: { properties: live() } })).status).toBe(200);
    const got = await api('/adapters/inv-live');
    expect(got.status).toBe(200);
    expect(got.body.data.properties.authentication).toEqual({ username: 'op', password: '********', apiKey: '********' });
    expect(got.body.methods.find((m: any) => m.name === 'updateDevice').input.map((i: any) => i.name)).toEqual(['name', 'body']);
    expect(JSON.stringify(await api('/adapters/inv-live/export'))).not.toContain('s3cret');
    const edited = { ...got.body.data.properties, healthcheck: { type: 'intermittent', frequency: 400 } };
    const saved = await api('/adapters/inv-live/properties', { method: 'PUT', json: { properties: edited } });
    expect(saved).toMatchObject({ status: 200, body: { status: 'OK', data: { properties: { healthcheck: { frequency: 400 } } } } });
    const stored = host.state.runtime.adapters.manager.instance('inv-live')!.config.properties as any;
    expect(stored.authentication).toEqual({ username: 'op', password: 's3cret', apiKey: 'k-123' });
    // The profile asks for encryption: at rest, in service_configs, the secrets are sealed.
    const doc = (await host.state.runtime.store.collection('service_configs').findOne({ id: 'inv-live' })) as any;
    expect(doc.properties.authentication.password).toMatch(/^enc:v1:/);
    expect(doc.properties.authentication.apiKey).toMatch(/^enc:v1:/);
    expect(doc.properties.authentication.username).toBe('op');
    const wrong = await api('/adapters/inv-live/properties', { method: 'PUT', json: { properties: { ...edited, protocol: 'gopher' } } });
    expect(wrong).toMatchObject({ status: 400, body: { issues: [{ path: 'body.properties.protocol' }] } });
  });

  it('masks the secrets in the adapter\'s recent log lines (GET /adapters/:name) and in the console\'s log', async () => {
    const logged = await waitFor(async () => {
      const { body } = await api('/adapters/inv-live');
      return body.logs.find((l: any) => l.message.startsWith('login ')) as { message: string } | undefined;
    }, 'the login line of inv-live');
    expect(logged.message).toBe('login op:********, X-API-KEY ********, authorization: Bearer ********');
    const logs = JSON.stringify((await api('/logs?limit=500')).body);
    expect(logs).not.toContain('s3cret');
    expect(logs).not.toContain('k-123');
  });

  it('a workflow calling two of its methods runs to complete, results as the tasks\' outgoing result', async () => {
    await waitFor(async () => (await health('inv-live')).connection.state === 'ONLINE', 'inv-live ONLINE');
    const flow = workflow(
      'device-refresh',
      {
        get: { name: 'getDevice', app: 'inv-live', variables: { incoming: { name: '$var.job.device' }, outgoing: { result: null } } },
        update: { name: 'updateDevice', app: 'inv-live', variables: { incoming: { name: '$var.job.device', body: { os: 'junos-evo' } }, outgoing: { result: '$var.job.updated' } } },
      },
      [['workflow_start', 'get'], ['get', 'update'], ['update', 'workflow_end']],
    );
    const job = await runToEnd(flow, { device: 'core-1' });
    expect(job.status).toBe('complete');
    const get = job.taskRuns.find((t: any) => t.taskId === 'get');
    expect(get.outgoing.result).toEqual({ status: 'success', code: 200, response: { name: 'core-1', os: 'junos' } });
    expect(job.variables.updated.response).toEqual({ name: 'core-1', os: 'junos-evo' });
    expect(server.devices.get('core-1')).toEqual({ name: 'core-1', os: 'junos-evo' });
  });

  it("an error answer takes the error transition with the adapter's error object kept", async () => {
    const flow = workflow(
      'device-lookup',
      { get: { name: 'getDevice', app: 'inv-live', variables: { incoming: { name: '$var.job.device' }, outgoing: { result: null } } } },
      [['workflow_start', 'get'], ['get', 'workflow_end'], ['get', 'workflow_end', 'error']],
    );
    const job = await runToEnd(flow, { device: 'ghost-7' });
    const get = job.taskRuns.find((t: any) => t.taskId === 'get');
    expect(get.status).toBe('error');
    expect(get.error).toBe('inv-live.getDevice: Error 404 received on request');
    expect(get.outgoing.result).toMatchObject({ icode: 'AD.500', IAPerror: { code: 404, raw_response: { response: { error: 'no device ghost-7' } } } });
  });

  it("with no error transition the job stops in error holding the adapter's error object, as the service's clients read it", async () => {
    const flow = workflow(
      'device-lookup-unguarded',
      { get: { name: 'getDevice', app: 'inv-live', variables: { incoming: { name: '$var.job.device' }, outgoing: { result: null } } } },
      [['workflow_start', 'get'], ['get', 'workflow_end']],
    );
    const job = await runToEnd(flow, { device: 'ghost-8' });
    expect(job.status).toBe('error');
    // As the vendor's troubleshooting guide reads it: data.error[].task, then message.IAPerror.displayString.
    expect(job.error).toEqual([{ task: 'get', message: expect.objectContaining({ icode: 'AD.500', IAPerror: expect.objectContaining({ displayString: 'Error 404 received on request', code: 404 }) }), timestamp: expect.any(Number) }]);
    const listed = await api(`/operations-manager/jobs?equals[name]=device-lookup-unguarded`);
    expect(listed.body.data[0].error[0].message.IAPerror.raw_response.response).toEqual({ error: 'no device ghost-8' });
  });

  it('a task without an input its method requires is shown as needed, and its job start is refused naming it', async () => {
    const flow = workflow(
      'device-update-no-body',
      { update: { name: 'updateDevice', app: 'inv-live', variables: { incoming: { name: '$var.job.device' }, outgoing: { result: null } } } },
      [['workflow_start', 'update'], ['update', 'workflow_end']],
    );
    expect((await api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
    const listed = (await api('/workflows')).body.items.find((w: any) => w.name === 'device-update-no-body');
    expect(listed.needs).toEqual([{ kind: 'input', name: 'inv-live.updateDevice: body', tasks: ['update'], label: 'required input inv-live.updateDevice: body (1 task)' }]);
    const refused = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: 'device-update-no-body', options: { variables: { device: 'core-1' } } } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'workflow "device-update-no-body" cannot start: it needs inv-live.updateDevice: body (1 task). ' +
        "Give each task the inputs its adapter method requires (the method's pronghorn.json) and import the workflow again",
    );
  });

  it('killing its process shows DEAD, then it is restarted and ONLINE', async () => {
    const before = await health('inv-live');
    process.kill(before.pid, 'SIGKILL');
    const dead = await waitFor(async () => {
      const h = await health('inv-live');
      return h.state === 'DEAD' && h;
    }, 'inv-live DEAD');
    expect(dead.lastCrash).toMatchObject({ signal: 'SIGKILL' });
    const back = await waitFor(async () => {
      const h = await health('inv-live');
      return h.state === 'RUNNING' && h.connection.state === 'ONLINE' && h;
    }, 'inv-live ONLINE again');
    expect(back.pid).not.toBe(before.pid);
  });

  it('a stopped adapter stays stopped across a console restart; a deleted one is gone', async () => {
    expect((await api('/adapters/inv-stub/stop', { method: 'PUT' })).body).toMatchObject({ state: 'STOPPED' });
    await host.close();
    host = await startTestHost({ dataDir });
    expect(await health('inv-stub')).toMatchObject({ state: 'STOPPED' });
    await waitFor(async () => (await health('inv-live')).connection.state === 'ONLINE', 'inv-live ONLINE after the restart');
    expect((await api('/adapters/inv-stub', { method: 'DELETE' })).body).toMatchObject({ status: 'OK' });
    expect((await api('/adapters/inv-stub')).status).toBe(404);
    expect((await api('/adapters')).body.results.map((c: any) => c.id)).toEqual(['inv-live']);
  });

  for (const { tag, dir, type, name } of [
    { tag: FIXTURES_TAG, dir: CHANGE_DESK, type: 'ChangeDesk', name: 'desk' },
    { tag: CORPUS_TAG, dir: TUFIN, type: 'TufinSecuretrack', name: 'tufin' },
  ]) it.skipIf(!existsSync(dir))(`a package of data files only in sdk_dir runs from its sample in stub mode ${tag}`, async () => {
    const sample = await api(`/adapter-packages/sample?package=${type}&name=${name}`);
    const created = await api('/adapters', { method: 'POST', json: { properties: { ...sample.body.data, properties: { ...sample.body.data.properties, authentication: { ...sample.body.data.properties.authentication, password: 'p', token: 't' } } } } });
    expect(created.status).toBe(200);
    await waitFor(async () => (await health(name)).connection.state === 'ONLINE', `${name} ONLINE`);
    expect(await health(name)).toMatchObject({ stub: true, state: 'RUNNING' });
  });
});
