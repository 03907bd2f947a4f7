// The profile read once: properties.json (in the deployer's shape, with the fields the console
// does not use) parsed by the one model and turned into the runtime config, every default in it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateProperties } from '../../core/contract/profiles';
import { configChanges, runtimeConfig } from '../../core/profiles/runtime-config';
import { CORPUS_DIR, CORPUS_TAG, FIXTURES_DIR, FIXTURES_TAG, noteCorpusSkip } from '../support/iap';

const dataDir = path.resolve('/srv/console-data');

/** A DR standby's properties.json as the service's deployer writes it (fields the console does not use included). */
const deployerStandby = {
  id: 'profile-dr',
  mongoProps: {
    credentials: { dbAuth: true, passwd: 'not-a-real-secret', user: 'automation' },
    db: 'automation',
    ssl: { acceptInvalidCerts: false, checkServerIdentity: true, enabled: true, sslCA: '/etc/ssl/certs/rootca.crt', sslValidate: true },
    url: 'mongodb://db1.example:27017,db2.example:27017/?replicaSet=rs0',
  },
  pathProps: { description: 'File Path Variables', encrypted: true, sdk_dir: '/opt/pronghorn-applications' },
  processTasksOnStart: false,
  serverName: 'dr.example',
  vaultProps: { url: 'http://vault.example:8200', readOnly: false },
};

const parsed = (json: unknown) => {
  const checked = validateProperties(json);
  if (!checked.ok) throw new Error(checked.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return checked.value;
};

describe('runtimeConfig', () => {
  it("reads a deployer's file, keeping the fields it does not use", () => {
    const profile = parsed(deployerStandby);
    expect(profile.vaultProps).toEqual(deployerStandby.vaultProps);
    expect(profile.mongoProps?.ssl).toMatchObject({ checkServerIdentity: true, sslValidate: true });
    expect(runtimeConfig(profile, dataDir)).toEqual({
      profileId: 'profile-dr',
      serverName: 'dr.example',
      store: {
        kind: 'mongo',
        url: deployerStandby.mongoProps.url,
        db: 'automation',
        credentials: { user: 'automation', passwd: 'not-a-real-secret', dbAuth: true },
        tls: { enabled: true, acceptInvalidCerts: false, sslCA: '/etc/ssl/certs/rootca.crt' },
      },
      sdkDir: '/opt/pronghorn-applications',
      sealSecrets: true,
      processTasksOnStart: false,
      processTasksOnStartSet: true,
      // A standby that does not work tasks at startup may rehearse on simulated adapters.
      allowSimulated: true,
      logging: expect.objectContaining({ fileLevel: 'info', consoleLevel: 'warn', file: path.join(dataDir, 'logs', 'console.log') }),
    });
  });

  it('applies the defaults: tasks worked at startup, the embedded store in the profile folder, no sdk_dir', () => {
    const config = runtimeConfig(parsed({ id: 'lab', mongoProps: { db: 'automation' }, pathProps: { sdk_dir: ' ' } }), dataDir);
    expect(config).toMatchObject({
      processTasksOnStart: true,
      // Not in the file: the default applies, and the worker status says it is not defined there.
      processTasksOnStartSet: false,
      sdkDir: undefined,
      sealSecrets: false,
      store: { kind: 'embedded', file: path.join(dataDir, 'profiles', 'lab', 'db', 'console.sqlite') },
    });
  });

  it('lets jobs use simulated adapters unless the profile works tasks at startup against MongoDB, or says otherwise', () => {
    expect(runtimeConfig(parsed({ id: 'lab' }), dataDir).allowSimulated).toBe(true);
    const live = { id: 'prod', processTasksOnStart: true, mongoProps: { url: 'mongodb://db.example:27017', db: 'automation' } };
    expect(runtimeConfig(parsed(live), dataDir).allowSimulated).toBe(false);
    expect(runtimeConfig(parsed({ ...live, simulationProps: { allowJobs: true } }), dataDir).allowSimulated).toBe(true);
    expect(runtimeConfig(parsed({ id: 'lab', simulationProps: { allowJobs: false } }), dataDir).allowSimulated).toBe(false);
  });

  it('resolves embeddedProps.file against the db folder and sdk_dir against the data directory', () => {
    const config = runtimeConfig(parsed({ id: 'lab', embeddedProps: { file: 'shared.sqlite' }, pathProps: { sdk_dir: 'adapters-here' } }), dataDir);
    expect(config.store).toEqual({ kind: 'embedded', folder: path.join(dataDir, 'profiles', 'lab', 'db'), file: path.join(dataDir, 'profiles', 'lab', 'db', 'shared.sqlite') });
    expect(config.sdkDir).toBe(path.join(dataDir, 'adapters-here'));
  });

  it('reads loggerProps, naming a value it cannot use instead of refusing the file', () => {
    const config = runtimeConfig(parsed({ id: 'lab', loggerProps: { log_level: 'loud', log_filename: '/var/log/pronghorn.log', syslog: { level: 'warning' } } }), dataDir);
    expect(config.logging).toMatchObject({ fileLevel: 'info', file: path.join(dataDir, 'logs', 'pronghorn.log'), syslog: { level: 'warning' } });
    expect(config.logging.warnings).toEqual(['loggerProps.log_level: "loud" is not a level (spam, trace, debug, info, warn, error); using info']);
  });

  it('tells what a save changed: the store, sdk_dir and secrets reopen the runtime; loggerProps reconfigure the log', () => {
    const base = { id: 'lab', serverName: 'lab-01' };
    const config = (json: Record<string, unknown>) => runtimeConfig(parsed({ ...base, ...json }), dataDir);
    const before = config({});
    expect(configChanges(before, config({ serverName: 'renamed', processTasksOnStart: false }))).toEqual({ runtime: false, logging: false });
    expect(configChanges(before, config({ mongoProps: { db: 'other' } }))).toEqual({ runtime: false, logging: false });
    expect(configChanges(before, config({ embeddedProps: { file: 'other.sqlite' } }))).toEqual({ runtime: true, logging: false });
    expect(configChanges(before, config({ mongoProps: { url: 'mongodb://db.example:27017' } })).runtime).toBe(true);
    expect(configChanges(before, config({ pathProps: { sdk_dir: '/opt/adapters' } })).runtime).toBe(true);
    expect(configChanges(before, config({ pathProps: { encrypted: true } })).runtime).toBe(true);
    expect(configChanges(before, config({ loggerProps: { log_level: 'debug' } }))).toEqual({ runtime: false, logging: true });
  });
});

// properties.json files as the service's deployer writes them: the project's own (test/fixtures/iap)
// and the real ones of the shared corpus when it is there.
noteCorpusSkip("the deployer's real properties.json files");
for (const { tag, dir } of [
  { tag: FIXTURES_TAG, dir: path.join(FIXTURES_DIR, 'profiles') },
  { tag: CORPUS_TAG, dir: path.join(CORPUS_DIR, 'profiles') },
]) {
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  describe.skipIf(files.length === 0)(`the deployer's properties.json files ${tag}`, () => {
    // With no file here, one skipped test still says so (and is counted as skipped for a missing corpus).
    it.each(files.length ? files : ['(no file)'])('%s follows the model and reads into a runtime config, keeping every field', (name) => {
      const json: unknown = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      const profile = parsed(json);
      expect(profile).toEqual(json);
      const config = runtimeConfig(profile, dataDir);
      expect(config.profileId).toBe(profile.id);
      expect(config.processTasksOnStart).toBe(profile.processTasksOnStart !== false);
      expect(config.store.kind).toBe(profile.mongoProps?.url ? 'mongo' : 'embedded');
    });
  });
}
