// No secret in clear: one classifier decides what is a secret, and every answer, export, log
// line and file of the data directory is searched for the clear test secrets.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { childEnvironment, classifyField, maskInText, redactText } from '../../core/secrets/classify';
import { startTestHost, type TestHost } from '../support/host';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAsecretpemkeybody42\n-----END RSA PRIVATE KEY-----';
/** Each clear secret of the test, by where it is put. */
const SECRETS = {
  passwd: 'pw-Passwd-1a',
  urlPassword: 'p@ss-Url-2b', // an unescaped '@' inside the URL's password
  queryPassword: 'q-Query-3c',
  tlsKeyPassword: 'tls-Key-4d',
  pwd: 'pw-Short-5e',
  pass: 'pass-Short-6f',
  vaultToken: 'hvs-Vault-7g',
  pemBody: 'secretpemkeybody42',
};
const CLEAR = Object.values(SECRETS);

const profile = {
  id: 'site',
  mongoProps: {
    url: `mongodb://ops:${SECRETS.urlPassword}@127.0.0.1:9/automation?tls=true&password=${SECRETS.queryPassword}&tlsCertificateKeyFilePassword=${SECRETS.tlsKeyPassword}`,
    db: 'automation',
    credentials: { user: 'ops', passwd: SECRETS.passwd, dbAuth: true },
    ssl: { enabled: true, acceptInvalidCerts: false, sslCA: PEM },
  },
  redisProps: { pwd: SECRETS.pwd, pass: SECRETS.pass, host: 'redis.example' },
  vaultProps: { url: 'http://vault.example:8200', token: SECRETS.vaultToken },
  pathProps: { description: 'File Path Variables', sdk_dir: '', encrypted: false },
};

describe('the classifier', () => {
  it('finds the secrets: password-like keys, URL passwords, password query parameters, PEM private keys', () => {
    for (const key of ['passwd', 'password', 'pwd', 'pass', 'token', 'secret', 'apiKey', 'client_secret', 'tlsCertificateKeyFilePassword', 'adminPassword', 'accessToken']) {
      expect(classifyField(key, 'x1'), key).toBe('secret');
    }
    expect(maskInText(profile.mongoProps.url)).toBe(
      'mongodb://ops:********@127.0.0.1:9/automation?tls=true&password=********&tlsCertificateKeyFilePassword=********',
    );
    expect(classifyField('sslCA', PEM)).toBe('contains-secret');
    expect(maskInText(PEM)).not.toContain(SECRETS.pemBody);
  });

  it('leaves what is not a secret: file paths, booleans, hosts, the service\'s own $ENC and $SECRET_ forms', () => {
    expect(classifyField('token', '/opt/itential/vault/token.txt')).toBe('plain');
    expect(classifyField('sslCA', '/etc/ssl/certs/ca.crt')).toBe('plain');
    expect(classifyField('encrypted', true)).toBe('plain');
    expect(classifyField('passwd', '$ENC8ef3972b5766e64a98df4b11d6d3221d82812e8caed3459e5a0d')).toBe('plain');
    expect(classifyField('passwd', '$SECRET_database-creds $KEY_mongodb-password')).toBe('plain');
    expect(classifyField('bypass', 'yes')).toBe('plain');
    expect(classifyField('url', 'http://vault.example:8200')).toBe('plain');
    expect(classifyField('tokenFile', '/run/token')).toBe('plain');
  });

  it('masks secrets in a log line or an error message', () => {
    expect(redactText(`cannot connect to ${profile.mongoProps.url}: {"passwd":"${SECRETS.passwd}"}`)).not.toMatch(new RegExp(CLEAR.slice(0, 4).join('|').replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '|' ? c : `\\${c}`))));
  });

  it('gives child processes an environment without the console token or secrets', () => {
    const env = childEnvironment({ CONSOLE_TOKEN: 'tok', PATH: '/bin', PWD: '/work', DB_PASSWORD: 'x', MONGODB_URL: 'mongodb://a:b@h', HOME: '/h', VAULT_TOKEN_FILE: '/t' });
    expect(env).toEqual({ PATH: '/bin', PWD: '/work', HOME: '/h', VAULT_TOKEN_FILE: '/t' });
  });
});

describe('secrets through the console', () => {
  let host: TestHost;
  let site: string;
  const answers: string[] = [];
  const logs: string[] = [];
  const call = async (pathname: string, init: RequestInit & { json?: unknown } = {}) => {
    const response = await host.api(pathname, init);
    const text = await response.text();
    answers.push(`${pathname} ${response.status} ${text}`);
    return { status: response.status, text, json: () => JSON.parse(text) };
  };

  beforeAll(async () => {
    for (const method of ['log', 'warn', 'error', 'info'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
    }
    host = await startTestHost();
    site = await mkdtemp(path.join(os.tmpdir(), 'console-site-'));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await host?.dispose();
    await rm(site, { recursive: true, force: true });
  });

  it('never answers a secret, masks each one, and keeps them behind the mask on save', async () => {
    expect((await call('/profiles', { method: 'POST', json: profile })).status).toBe(201);
    const entry = (await call('/profiles/site')).json();
    expect(entry.profile.mongoProps.url).toBe(
      'mongodb://ops:********@127.0.0.1:9/automation?tls=true&password=********&tlsCertificateKeyFilePassword=********',
    );
    expect(entry.profile.redisProps).toEqual({ pwd: '********', pass: '********', host: 'redis.example' });
    expect(entry.profile.vaultProps.token).toBe('********');
    expect(entry.profile.mongoProps.ssl.sslCA).toContain('-----BEGIN RSA PRIVATE KEY-----********');
    expect(entry.metadata.maskedFields).toEqual(
      expect.arrayContaining(['mongoProps.url', 'mongoProps.credentials.passwd', 'mongoProps.ssl.sslCA', 'redisProps.pwd', 'redisProps.pass', 'vaultProps.token']),
    );
    await call('/profiles/site/export');
    await call('/profiles');

    // Turning encryption on with the masked document sent back: every secret is kept, and sealed.
    const edited = { ...entry.profile, pathProps: { ...entry.profile.pathProps, encrypted: true }, mongoProps: { ...entry.profile.mongoProps, url: entry.profile.mongoProps.url.replace('127.0.0.1:9', '127.0.0.1:10') } };
    expect((await call('/profiles/site', { method: 'PUT', json: edited })).status).toBe(200);
    const onDisk = await readFile(path.join(host.dataDir, 'profiles', 'site', 'properties.json'), 'utf8');
    for (const secret of CLEAR) expect(onDisk, secret).not.toContain(secret);
    expect(JSON.parse(onDisk).mongoProps.url).toMatch(/^mongodb:\/\/ops:enc:v1:key-file:[\w-]+@127\.0\.0\.1:10\/automation\?/);
    const backup = await readFile(path.join(host.dataDir, 'profiles', 'site', 'properties.json.bak'), 'utf8');
    for (const secret of CLEAR) expect(backup, `backup keeps ${secret}`).not.toContain(secret);
  });

  it('connects with the secrets opened (the error names the host, never the password)', async () => {
    const tested = await call('/profiles/site/test-connection', { method: 'POST' });
    expect(tested.status).toBeLessThan(500);
    expect(tested.text).toContain('127.0.0.1:10');
  });

  it('keeps the service\'s own encrypted form of an imported file as the service wrote it', async () => {
    const serviceSealed = '$ENC8ef3972b5766e64a98df4b11d6d3221d82812e8caed3459e5a0d';
    const imported = { id: 'svc', mongoProps: { credentials: { user: 'u', passwd: serviceSealed } }, pathProps: { encrypted: true } };
    expect((await call('/profiles/import', { method: 'POST', json: imported })).status).toBe(201);
    const onDisk = JSON.parse(await readFile(path.join(host.dataDir, 'profiles', 'svc', 'properties.json'), 'utf8'));
    expect(onDisk.mongoProps.credentials.passwd).toBe(serviceSealed);
    const entry = (await call('/profiles/svc')).json();
    expect(entry.metadata.warnings.join('\n')).toContain("kept in the service's own protected form");
  });

  it('does not return the passwords of the properties files the upgrade check finds', async () => {
    await mkdir(path.join(site, 'config'), { recursive: true });
    const legacy = { ...profile, properties: { activate: true } };
    await writeFile(path.join(site, 'config', 'properties.json'), JSON.stringify(legacy, null, 2));
    const report = await call('/upgrade/check', { method: 'POST', json: { path: site } });
    expect(report.status).toBeLessThan(300);
    expect(report.text).toContain('activate');
  });

  it('leaves no clear secret in any answer, log line or file of the data directory', async () => {
    const files: string[] = [];
    for (const entry of await readdir(host.dataDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(path.join(entry.parentPath, entry.name));
    }
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const secret of CLEAR) expect(text, `${file} holds ${secret}`).not.toContain(secret);
    }
    expect(answers.length).toBeGreaterThan(6);
    for (const text of [...answers, ...logs]) for (const secret of CLEAR) expect(text, secret).not.toContain(secret);
  });
});

describe('the adapters folder a profile names', () => {
  let host: TestHost;
  let sdk: string;
  beforeAll(async () => {
    host = await startTestHost();
    sdk = await mkdtemp(path.join(os.tmpdir(), 'console-sdk-'));
    await mkdir(path.join(sdk, 'adapters'));
  });
  afterAll(async () => {
    await host?.dispose();
    await rm(sdk, { recursive: true, force: true });
  });

  it.skipIf(process.platform === 'win32')('warns when others can write where the console runs adapter code from, and not once it is owner-only', async () => {
    const { chmod } = await import('node:fs/promises');
    await chmod(path.join(sdk, 'adapters'), 0o777);
    const created = await host.api('/profiles', { method: 'POST', json: { id: 'sdk', pathProps: { sdk_dir: sdk } } });
    const warnings: string[] = (await created.json()).metadata.warnings;
    expect(warnings).toContainEqual(expect.stringContaining(`pathProps.sdk_dir: ${path.join(sdk, 'adapters')} can be written by every user`));
    expect(warnings.join('\n')).toContain('chmod go-w');

    await chmod(path.join(sdk, 'adapters'), 0o755);
    const again = await (await host.api('/profiles/sdk')).json();
    expect(again.metadata.warnings.filter((w: string) => w.startsWith('pathProps.sdk_dir'))).toEqual([]);
  });
});
