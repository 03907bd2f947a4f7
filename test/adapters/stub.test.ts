// Stub mode picks its mock answer as the service's adapter library does (connectorRest's
// returnStub): a responseObject's `type` against the body's values, the path variables, the
// query, then WITHBODY, WITHPATHV<n>, WITHQUERY / WITHOPTIONS and DEFAULT; `{ status, response }`
// mocks; PLAIN text; a `key` picking part of the answer; an empty mockFile is no mock. The
// fixture package (test/adapters/fixtures/adapter-mockdata) also has odd but valid pronghorn.json
// content, and code whose dependency is not installed: outside stub mode it cannot load, and
// says so.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterManager, readAdapterPackage, runnerPath, type AdapterPackage, type ServiceConfig } from '../../core/adapters';
import { methodSummary } from '../../core/adapters/handlers';
import { FIXTURES, waitFor } from './support';

const MOCKDATA = path.join(FIXTURES, 'adapter-mockdata');
const { requestOf, candidateTypes } = createRequire(import.meta.url)('../../core/adapters/stub.cjs') as {
  requestOf(action: object, inputs: object[], args: unknown[]): { pathVars: unknown[]; query: Record<string, unknown>; body: unknown };
  candidateTypes(action: object, request: object): string[];
};

let pkg: AdapterPackage;
const manager = new AdapterManager({ runner: runnerPath(), backoff: { initialMs: 100, maxMs: 100 } });
const config = (id: string, stub: boolean): ServiceConfig => ({ id, type: 'MockData', properties: { host: 'mockdata.invalid', port: 1, stub }, brokers: [], groups: [] });

beforeAll(async () => {
  pkg = (await readAdapterPackage(MOCKDATA, 'sdk'))!;
  manager.set(config('mock', true), pkg);
  await manager.start('mock');
  await waitFor(async () => (await manager.item('mock')).connection?.state === 'ONLINE', 'the stub adapter to be ONLINE from its .system healthcheck');
});
afterAll(() => manager.close());

const call = (method: string, named: Record<string, unknown> = {}) => manager.call('mock', method, named);
const success = (response: unknown, code = 200) => ({ ok: true, output: 'result', value: { status: 'success', code, response } });

describe('a package with odd but valid pronghorn.json content', () => {
  it('loads: methods without input, inputs without info, $ref schemas, unknown fields', () => {
    expect(pkg.problem).toBeUndefined();
    expect(pkg).toMatchObject({ name: '@itentialopensource/adapter-mockdata', export: 'MockData', version: '1.2.0' });
    expect(pkg.methods.find((m) => m.name === 'getSummary')?.input).toEqual([]);
    expect(pkg.methods.find((m) => m.name === 'getDevice')).toMatchObject({ 'x-extra': [1, 2, 3], input: [{ name: 'name' }, { name: 'queryObject', schema: { $ref: '#/definitions/query' } }] });
    expect(pkg.methods.map(methodSummary).find((m) => m.name === 'getDevice')).toEqual({
      name: 'getDevice',
      summary: 'A device by name',
      task: true,
      input: [
        { name: 'name', type: 'string', required: true },
        { name: 'queryObject', type: 'object', required: false },
      ],
      output: { name: 'result', type: 'object' },
    });
  });

  it('keeps an input given only by its name, or with none, in its place in the call order', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'adapter-odd-'));
    try {
      const pronghorn = { id: 'adapter-odd', export: 'Odd', methods: [{ name: 'getThing', input: ['id', null, { type: 'object' }], extra: true }, { name: 'ping' }] };
      await writeFile(path.join(dir, 'pronghorn.json'), JSON.stringify(pronghorn));
      const odd = (await readAdapterPackage(dir, 'sdk'))!;
      expect(odd.problem).toBeUndefined();
      expect(odd.methods.map(methodSummary)).toEqual([
        { name: 'getThing', input: [{ name: 'id' }, { name: 'input2' }, { name: 'input3', type: 'object' }] },
        { name: 'ping', input: [] },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('stub mode chooses the mock answer as the adapter library does', () => {
  it('matches a path variable value, case-insensitively, before a query value and the default', async () => {
    expect(await call('getDevice', { name: 'core-1' })).toEqual(success({ name: 'core-1', os: 'junos', source: 'path variable' }));
    expect(await call('getDevice', { name: 'CORE-1', queryObject: { detail: 'full' } })).toMatchObject({ value: { response: { source: 'path variable' } } });
    expect(await call('getDevice', { name: 'router-7', queryObject: { detail: 'full' } })).toMatchObject({ value: { response: { source: 'query' } } });
    expect(await call('getDevice', { name: 'router-7' })).toEqual(success({ name: 'mock-device', source: 'default' }));
  });

  it('skips a responseObject whose mockFile is empty', async () => {
    expect(await call('getDevice', { name: 'edge-9' })).toMatchObject({ value: { response: { source: 'default' } } });
  });

  it('answers the status and response of a { status, response } mock: 2xx a success, else the error object', async () => {
    expect(await call('createDevice', { body: { name: 'x' } })).toEqual(success({ created: true }, 201));
    expect(await call('getDevice', { name: 'gone' })).toEqual({
      ok: false,
      output: 'result',
      error: {
        icode: 'AD.500',
        IAPerror: {
          origin: 'mock-connectorRest-handleEndResponse',
          displayString: 'Error 404 received on request',
          recommendation: 'Verify the request is accurate via debug logs and postman',
          code: 404,
          raw_response: { status: 'success', code: 404, response: { error: 'no device gone' } },
        },
        response: { error: 'no device gone' },
      },
    });
  });

  it('matches values in the body (nested) before WITHBODY; a body input may come before the path variable', async () => {
    expect(await call('updateDevice', { body: { settings: { os: 'eos' } }, name: 'core-1' })).toMatchObject({ value: { response: { source: 'body value os-eos' } } });
    expect(await call('updateDevice', { body: { os: 'ios' }, name: 'core-1' })).toMatchObject({ value: { response: { source: 'WITHBODY' } } });
    const action = { entitypath: '{base_path}/{version}/devices/{pathv1}', method: 'PUT' };
    const request = requestOf(action, pkg.methods.find((m) => m.name === 'updateDevice')!.input, [{ os: 'ios', tags: ['a', 'b'] }, 'core 1']);
    expect(request).toMatchObject({ pathVars: ['core 1'], query: {}, body: { os: 'ios', tags: ['a', 'b'] } });
    expect(candidateTypes(action, request)).toEqual(['os-ios', 'tags-a', 'tags-b', 'core%201', 'WITHBODY', 'WITHPATHV1', 'DEFAULT']);
  });

  it('without a body (a URLENCODE request with none): query values, then WITHPATHV<n>, then WITHQUERY', async () => {
    expect(await call('listDevices', { site: 'lab', limit: 5 })).toMatchObject({ value: { response: { length: 5 } } });
    expect(await call('listDevices', { site: 'lab' })).toEqual(success([{ name: 'a' }]));
    const action = { entitypath: '/sites/{pathv1}/devices?{query}', requestDatatype: 'URLENCODE' };
    expect(candidateTypes(action, requestOf(action, [{ name: 'site', type: 'string' }, { name: 'limit', type: 'number' }], ['lab', 5]))).toEqual([
      'lab',
      'limit=5',
      'WITHPATHV1',
      'WITHQUERY',
      'WITHOPTIONS',
      'DEFAULT',
    ]);
  });

  it('sends the query where {query} is, dropping the path\'s own query as the library does', () => {
    const action = { entitypath: '{base_path}/{version}/?Action=DescribeVpcs&{query}', method: 'GET' };
    const inputs = [{ name: 'vpcId', type: 'string' }, { name: 'maxResults', type: 'number' }, { name: 'dryRun', type: 'boolean' }];
    expect(candidateTypes(action, requestOf(action, inputs, ['vpc-1 a', 5, false]))).toEqual(['vpcId=vpc-1%20a', 'maxResults=5', 'WITHBODY', 'WITHQUERY', 'WITHOPTIONS', 'DEFAULT']);
    expect(candidateTypes(action, requestOf(action, inputs, []))).toEqual(['WITHBODY', 'WITHQUERY', 'WITHOPTIONS', 'DEFAULT']);
    const fixed = { entitypath: '/devices?kind=router', requestDatatype: 'PLAIN' };
    expect(candidateTypes(fixed, requestOf(fixed, [], []))).toEqual(['kind=router', 'WITHQUERY', 'WITHOPTIONS', 'DEFAULT']);
  });

  it('answers a PLAIN mock as its text, and a key picks part of a JSON answer', async () => {
    expect(await call('getConfig', { name: 'core-1' })).toEqual(success('hostname core-1\ninterface ge-0/0/0\n'));
    expect(await call('getSummary')).toEqual(success({ devices: 3 }));
  });

  it('finds the action of a method whose name differs in case only', async () => {
    expect(await call('getStatus')).toEqual(success({ status: 'up' }));
  });

  it('with no mock answer, or no entity action, is the library\'s "no mock data" failure (code 400)', async () => {
    expect(await call('getSite', { site: 'lab' })).toMatchObject({
      ok: false,
      error: { icode: 'AD.500', IAPerror: { displayString: 'Error 400 received on request', code: 400, raw_response: { status: 'failure', code: 400, message: 'no mock data for Devices/getSite' } } },
    });
    expect(await call('iapRunAdapterHealthcheck')).toMatchObject({ ok: false, error: { IAPerror: { code: 400, raw_response: { message: expect.stringMatching(/no entity action/) } } } });
  });
});

describe('outside stub mode, a package whose dependencies are not installed', () => {
  it('is DEAD, not restarted, and says to run npm install in its folder', async () => {
    manager.set(config('live', false), pkg);
    await manager.start('live');
    const item = await waitFor(async () => {
      const health = await manager.item('live');
      return health.state === 'DEAD' && health;
    }, 'the live adapter to fail to load');
    const why = `adapter "live" cannot load its package: its dependencies are not installed (cannot find module '@itentialopensource/adapter-utils'): run \`npm install\` in ${MOCKDATA}`;
    expect(item).toMatchObject({ state: 'DEAD', detail: why, connection: { state: 'OFFLINE', detail: 'its package cannot be loaded' }, lastCrash: { message: why, exitCode: 1 } });
    expect(item.lastCrash?.stderr.at(-1)).toBe(why);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await manager.item('live')).toMatchObject({ state: 'DEAD', restartCount: 0, detail: why });
    await expect(manager.call('live', 'getStatus')).rejects.toThrow(`adapter "live" is not running (DEAD: ${why})`);
  });
});
