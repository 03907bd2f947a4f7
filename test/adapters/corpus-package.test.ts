// A real adapter package of the service (the corpus's adapter-tufin_securetrack data files, read
// where they are): its metadata loads, its sampleProperties validate against its
// propertiesSchema, a bad property is named by path, and in stub mode it answers from its own
// mock data (its code is not there: stub mode never needs it).
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { AdapterManager, readAdapterPackage, runnerPath } from '../../core/adapters';
import { propertyIssues, sampleConfig, maskConfig } from '../../core/adapters/service-config';
import { TUFIN, waitFor } from './support';

const present = existsSync(TUFIN);
if (!present) console.warn(`skipped: the corpus adapter package is not at ${TUFIN}`);

const manager = new AdapterManager({ runner: runnerPath() });
afterAll(() => manager.close());

describe.skipIf(!present)('the corpus adapter package adapter-tufin_securetrack', () => {
  it('loads its pronghorn.json metadata: export, 400+ methods with inputs in call order, secret pointers', async () => {
    const pkg = (await readAdapterPackage(TUFIN, 'sdk'))!;
    expect(pkg.problem).toBeUndefined();
    expect(pkg).toMatchObject({ name: '@itentialopensource/adapter-tufin_securetrack', export: 'TufinSecuretrack', version: '0.8.3' });
    expect(pkg.methods.length).toBeGreaterThan(400);
    const update = pkg.methods.find((m) => m.name === 'iapUpdateAdapterConfiguration')!;
    expect(update.input.map((i) => i.name)).toEqual(['configFile', 'changes', 'entity', 'type', 'action', 'replace']);
    expect(pkg.secretPointers).toEqual(['/authentication/password', '/authentication/token', '/mongo/password']);
  });

  it('validates its sampleProperties.json, and names the path of a bad property', async () => {
    const pkg = (await readAdapterPackage(TUFIN, 'sdk'))!;
    const sample = sampleConfig(pkg, 'tufin');
    expect(sample).toMatchObject({ id: 'tufin', type: 'TufinSecuretrack', brokers: [], groups: [] });
    expect(propertyIssues(pkg, sample.properties)).toEqual([]);
    const bad = { ...sample.properties, port: 'https', authentication: { ...(sample.properties.authentication as object), auth_method: 42 } };
    const issues = propertyIssues(pkg, bad);
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(['properties.port', 'properties.authentication.auth_method']));
    expect(issues.find((i) => i.path === 'properties.port')?.message).toBe('must be integer');
    const masked = maskConfig(sample, pkg).properties as { authentication: { password: string; token: string } };
    expect(masked.authentication).toMatchObject({ password: '********', token: '********' });
  });

  it('in stub mode is ONLINE from its healthcheck mock data and answers calls as its adapter library does', async () => {
    const pkg = (await readAdapterPackage(TUFIN, 'sdk'))!;
    const config = sampleConfig(pkg, 'tufin');
    expect(config.properties.stub).toBe(true);
    manager.set(config, pkg);
    await manager.start('tufin');
    const item = await waitFor(async () => {
      const health = await manager.item('tufin');
      return health.connection?.state === 'ONLINE' && health;
    }, 'the stub tufin adapter to be ONLINE');
    expect(item).toMatchObject({ state: 'RUNNING', stub: true, package_id: '@itentialopensource/adapter-tufin_securetrack' });
    // Health is its entities/.system healthcheck action, answered from that action's mock file.
    expect(manager.logs('tufin').map((l) => l.message)).toContain('stub: healthcheck answered from .system/healthcheck mockdatafiles/healthcheck-default.json (type default)');
    // Its entity actions name no mock file: the answer is the adapter library's "no mock data" error.
    const answer = await manager.call('tufin', 'getUrlCategories', { revisionId: 'fakedata' });
    expect(answer).toMatchObject({
      ok: false,
      output: 'result',
      error: { icode: 'AD.500', IAPerror: { origin: 'tufin-connectorRest-handleEndResponse', displayString: 'Error 400 received on request', raw_response: { message: 'no mock data for Securetrack/getUrlCategories' } } },
    });
    // A method with a body input before its path variable (updateADomain(body, id)) is answered the same way.
    expect(await manager.call('tufin', 'updateADomain', { body: { name: 'lab' }, id: '7' })).toMatchObject({ ok: false, error: { IAPerror: { code: 400, raw_response: { message: expect.stringMatching(/^no mock data for \w+\/updateADomain$/) } } } });
  });
});
