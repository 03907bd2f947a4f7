// An adapter package in the service's generated format, data files only (its code is not there:
// stub mode never needs it): the project's own adapter-change_desk (test/fixtures/iap/adapters)
// and the corpus's real adapter-tufin_securetrack (read where it is, when the corpus is there).
// Its metadata loads, its sampleProperties validate against its propertiesSchema, a bad property
// is named by path, and in stub mode it answers from its own mock data.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AdapterManager, readAdapterPackage, runnerPath } from '../../core/adapters';
import { PropertySchemas, maskConfig } from '../../core/adapters/service-config';
import { CORPUS_TAG, FIXTURES_DIR, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';
import { TUFIN, waitFor } from './support';

const schemas = new PropertySchemas();

noteCorpusSkip('the real adapter package adapter-tufin_securetrack');

const manager = new AdapterManager({ runner: runnerPath() });
afterAll(() => manager.close());

const packages = [
  {
    tag: FIXTURES_TAG,
    dir: path.join(FIXTURES_DIR, 'adapters', 'adapter-change_desk'),
    instance: 'desk',
    meta: { name: '@itentialopensource/adapter-change_desk', export: 'ChangeDesk', version: '0.2.1' },
    leastMethods: 7,
    entity: 'Changes',
    // A method with mock data, and two without (a body input before the path variable in the second).
    answered: { method: 'getChange', input: { id: 'chg-1' }, value: { status: 'success', code: 200, response: { id: 'chg-1', state: 'review', comments: '' } } },
    noMock: { method: 'getChangeWindows', input: {} },
    bodyFirst: { method: 'updateChange', input: { body: { state: 'done' }, id: 'chg-1' } },
  },
  {
    tag: CORPUS_TAG,
    dir: TUFIN,
    instance: 'tufin',
    meta: { name: '@itentialopensource/adapter-tufin_securetrack', export: 'TufinSecuretrack', version: '0.8.3' },
    leastMethods: 401,
    entity: 'Securetrack',
    answered: undefined,
    noMock: { method: 'getUrlCategories', input: { revisionId: 'fakedata' } },
    bodyFirst: { method: 'updateADomain', input: { body: { name: 'lab' }, id: '7' } },
  },
];

describe.each(packages)('an adapter package of data files only $tag', (p) => {
  const present = existsSync(p.dir);

  it.skipIf(!present)('loads its pronghorn.json metadata: export, methods with inputs in call order, secret pointers', async () => {
    const pkg = (await readAdapterPackage(p.dir, 'sdk'))!;
    expect(pkg.problem).toBeUndefined();
    expect(pkg).toMatchObject(p.meta);
    expect(pkg.methods.length).toBeGreaterThanOrEqual(p.leastMethods);
    const update = pkg.methods.find((m) => m.name === 'iapUpdateAdapterConfiguration')!;
    expect(update.input.map((i) => i.name)).toEqual(['configFile', 'changes', 'entity', 'type', 'action', 'replace']);
    expect(pkg.secretPointers).toEqual(['/authentication/password', '/authentication/token', '/mongo/password']);
  });

  it.skipIf(!present)('validates its sampleProperties.json, and names the path of a bad property', async () => {
    const pkg = (await readAdapterPackage(p.dir, 'sdk'))!;
    const sample = schemas.sampleConfig(pkg, p.instance);
    expect(sample).toMatchObject({ id: p.instance, type: p.meta.export, brokers: [], groups: [] });
    expect(schemas.propertyIssues(pkg, sample.properties)).toEqual([]);
    const bad = { ...sample.properties, port: 'https', authentication: { ...(sample.properties.authentication as object), auth_method: 42 } };
    const issues = schemas.propertyIssues(pkg, bad);
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(['properties.port', 'properties.authentication.auth_method']));
    expect(issues.find((i) => i.path === 'properties.port')?.message).toBe('must be integer');
    const masked = maskConfig(sample, pkg).properties as { authentication: { password: string; token: string } };
    expect(masked.authentication).toMatchObject({ password: '********', token: '********' });
  });

  it.skipIf(!present)('in stub mode is ONLINE from its healthcheck mock data and answers calls as its adapter library does', async () => {
    const pkg = (await readAdapterPackage(p.dir, 'sdk'))!;
    const config = schemas.sampleConfig(pkg, p.instance);
    expect(config.properties.stub).toBe(true);
    manager.set(config, pkg);
    await manager.start(p.instance);
    const item = await waitFor(async () => {
      const health = await manager.item(p.instance);
      return health.connection?.state === 'ONLINE' && health;
    }, `the stub ${p.instance} adapter to be ONLINE`);
    expect(item).toMatchObject({ state: 'RUNNING', stub: true, package_id: p.meta.name });
    // Health is its entities/.system healthcheck action, answered from that action's mock file.
    expect(manager.logs(p.instance).map((l) => l.message)).toContain('stub: healthcheck answered from .system/healthcheck mockdatafiles/healthcheck-default.json (type default)');
    if (p.answered) expect(await manager.call(p.instance, p.answered.method, p.answered.input)).toMatchObject({ ok: true, output: 'result', value: p.answered.value });
    // An entity action naming no mock file: the answer is the adapter library's "no mock data" error.
    expect(await manager.call(p.instance, p.noMock.method, p.noMock.input)).toMatchObject({
      ok: false,
      output: 'result',
      error: {
        icode: 'AD.500',
        IAPerror: { origin: `${p.instance}-connectorRest-handleEndResponse`, displayString: 'Error 400 received on request', raw_response: { message: `no mock data for ${p.entity}/${p.noMock.method}` } },
      },
    });
    // A method with a body input before its path variable is answered the same way.
    expect(await manager.call(p.instance, p.bodyFirst.method, p.bodyFirst.input)).toMatchObject({
      ok: false,
      error: { IAPerror: { code: 400, raw_response: { message: expect.stringMatching(new RegExp(`^no mock data for \\w+/${p.bodyFirst.method}$`)) } } },
    });
  });
});
