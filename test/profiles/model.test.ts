import { describe, expect, it } from 'vitest';
import { profileTemplate, validateProperties } from '../../core/contract/profiles';

const issues = (json: unknown) => {
  const result = validateProperties(json);
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`);
};

describe('properties.json model', () => {
  it('accepts the reference file and keeps every field it does not know', () => {
    const file = {
      id: 'dr-standby',
      serverName: 'dr-standby-01',
      processTasksOnStart: false,
      mongoProps: {
        url: 'mongodb+srv://cluster0.example/?retryWrites=true',
        db: 'pronghorn',
        credentials: { user: 'itential', passwd: 'secret', dbAuth: true, authSource: 'admin' },
        ssl: { enabled: false, acceptInvalidCerts: false, sslCA: '', checkServerIdentity: true },
      },
      pathProps: { description: 'File Path Variables', sdk_dir: '/opt/automation/apps', encrypted: false },
      vaultProps: { url: 'https://vault:8200', secretsEngine: 'kv' },
      redisProps: { host: 'localhost', port: 6379 },
    };
    const result = validateProperties(file);
    expect(result.ok && result.value).toEqual(file);
  });

  it('names the field path of every error', () => {
    expect(issues({ id: 'x', mongoProps: { url: 'http://db:27017' } })).toEqual([
      'mongoProps.url: must be a mongodb:// or mongodb+srv:// URL',
    ]);
    expect(issues({ id: 'x', processTasksOnStart: 'true' })).toEqual(['processTasksOnStart: must be true or false']);
    expect(issues({ id: 'x', mongoProps: { credentials: { passwd: 42 } } })).toEqual([
      'mongoProps.credentials.passwd: must be a string',
    ]);
    expect(issues({ id: 'x', pathProps: { encrypted: 'no' } })).toEqual(['pathProps.encrypted: must be true or false']);
    expect(issues({ id: 'x', mongoProps: 'mongodb://a' })).toEqual(['mongoProps: must be an object']);
    expect(issues([])).toEqual(['(file): must be a JSON object']);
  });

  it('wants id to be a safe name', () => {
    for (const bad of ['', '../etc', 'a/b', 'a b', '.hidden', 'CON', 'nul.txt', 'x'.repeat(65), 'trailing.']) {
      expect(issues({ id: bad }).length, JSON.stringify(bad)).toBeGreaterThan(0);
      expect(issues({ id: bad })[0]).toMatch(/^id: /);
    }
    expect(issues({})).toEqual(['id: must be a string']);
    for (const good of ['primary', 'dr-standby', 'lab_2', 'site.1']) expect(issues({ id: good })).toEqual([]);
  });

  it('offers a template that follows the model', () => {
    expect(validateProperties(profileTemplate('new-site')).ok).toBe(true);
    expect(profileTemplate('new-site')).toMatchObject({ id: 'new-site', processTasksOnStart: true });
  });
});
