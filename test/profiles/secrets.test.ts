import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVault, keyFile, SecretError } from '../../core/secrets/secrets';
import { profileSecrets } from '../../core/profiles/secrets';
import { startTestHost, type TestHost } from '../support/host';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'secrets-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('sealed secrets', () => {
  it('seal and open with a key kept owner-only in the data directory', async () => {
    const sealed = await createVault(dataDir).seal('p@ss');
    expect(sealed).toMatch(/^enc:v1:key-file:/);
    expect(sealed).not.toContain('p@ss');
    expect(await createVault(dataDir).open(sealed)).toBe('p@ss');
    expect((await stat(keyFile(dataDir))).mode & 0o777).toBe(0o600);
    // Two seals of one value differ (random IV).
    expect(await createVault(dataDir).seal('p@ss')).not.toBe(sealed);
  });

  it('a tampered value or another key is a SecretError, not a crash', async () => {
    const sealed = await createVault(dataDir).seal('p@ss');
    // The second-to-last character changed (to another one than it is: 1 time in 64 it was 'A' already).
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.slice(-1);
    await expect(createVault(dataDir).open(flipped)).rejects.toBeInstanceOf(SecretError);
    const other = await mkdtemp(path.join(os.tmpdir(), 'secrets-other-'));
    await expect(createVault(other).open(sealed)).rejects.toThrow(/altered, or sealed with another key/);
    await rm(other, { recursive: true });
    await expect(createVault(dataDir).open('enc:v1:safe-storage:abc')).rejects.toThrow(/"safe-storage", which is not available/);
  });

  it('a vault given a provider (Electron safeStorage) seals new values with it; key-file values stay readable', async () => {
    const old = await createVault(dataDir).seal('old');
    const vault = createVault(dataDir, {
      name: 'safe-storage',
      encrypt: async (plain) => Buffer.from(plain).reverse().toString('base64'),
      decrypt: async (payload) => Buffer.from(payload, 'base64').reverse().toString(),
    });
    const sealed = await vault.seal('new');
    expect(sealed).toMatch(/^enc:v1:safe-storage:/);
    expect(await vault.open(sealed)).toBe('new');
    expect(await vault.open(old)).toBe('old');
    // A vault without that provider names it rather than guessing.
    await expect(createVault(dataDir).open(sealed)).rejects.toThrow(/"safe-storage", which is not available/);
  });
});

describe('profile passwords through the API', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.dispose());
  const file = (id: string) => path.join(host.dataDir, 'profiles', id, 'properties.json');

  it('stores the password sealed when pathProps.encrypted is true, and hands it to the store in clear', async () => {
    const response = await host.api('/profiles', {
      method: 'POST',
      json: { id: 'enc', mongoProps: { credentials: { user: 'u', passwd: 'hunter2' } }, pathProps: { encrypted: true } },
    });
    expect(response.status).toBe(201);
    const text = await readFile(file('enc'), 'utf8');
    expect(text).not.toContain('hunter2');
    const stored = JSON.parse(text);
    expect(stored.mongoProps.credentials.passwd).toMatch(/^enc:v1:key-file:/);
    expect(await profileSecrets.passwordOf(createVault(host.dataDir), stored)).toBe('hunter2');
    const body = await (await host.api('/profiles/enc')).json();
    expect(body.profile.mongoProps.credentials.passwd).toBe('********');
    expect(body.metadata.warnings).toEqual([]);
  });

  it('stores it in clear again when encryption is turned off, keeping the value behind the mask', async () => {
    const got = (await (await host.api('/profiles/enc')).json()).profile;
    got.pathProps.encrypted = false;
    expect((await host.api('/profiles/enc', { method: 'PUT', json: got })).status).toBe(200);
    expect(JSON.parse(await readFile(file('enc'), 'utf8')).mongoProps.credentials.passwd).toBe('hunter2');
    got.pathProps.encrypted = true;
    await host.api('/profiles/enc', { method: 'PUT', json: got });
    expect(await profileSecrets.passwordOf(createVault(host.dataDir), JSON.parse(await readFile(file('enc'), 'utf8')))).toBe('hunter2');
  });

  it('an unreadable password is a warning naming the profile, and a clear error to whoever needs it', async () => {
    const stored = JSON.parse(await readFile(file('enc'), 'utf8'));
    stored.mongoProps.credentials.passwd = stored.mongoProps.credentials.passwd.slice(0, -4) + 'AAAA';
    await writeFile(file('enc'), JSON.stringify(stored));
    const response = await host.api('/profiles/enc');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.metadata.warnings.join('\n')).toContain('profile "enc": mongoProps.credentials.passwd cannot be read');
    expect((await host.api('/profiles')).status).toBe(200);
    await expect(profileSecrets.passwordOf(createVault(host.dataDir), stored)).rejects.toThrow(
      /profile "enc": mongoProps.credentials.passwd cannot be read: .*Set the password again/,
    );
    // Turning encryption off needs the clear value: refused with the same clear error.
    body.profile.pathProps.encrypted = false;
    const put = await host.api('/profiles/enc', { method: 'PUT', json: body.profile });
    expect(put.status).toBe(422);
    expect((await put.json()).message).toContain('profile "enc"');
    // A new password repairs it.
    body.profile.mongoProps.credentials.passwd = 'fresh';
    body.profile.pathProps.encrypted = true;
    expect((await host.api('/profiles/enc', { method: 'PUT', json: body.profile })).status).toBe(200);
    expect(await profileSecrets.passwordOf(createVault(host.dataDir), JSON.parse(await readFile(file('enc'), 'utf8')))).toBe('fresh');
  });

  it('masks other secrets of the file too, and keeps them behind the mask', async () => {
    await host.api('/profiles', { method: 'POST', json: { id: 'vault', vaultProps: { url: 'https://v', token: 's.abc' } } });
    const body = await (await host.api('/profiles/vault')).json();
    expect(body.profile.vaultProps).toEqual({ url: 'https://v', token: '********' });
    expect(body.metadata.maskedFields).toEqual(['vaultProps.token']);
    await host.api('/profiles/vault', { method: 'PUT', json: { ...body.profile, serverName: 's' } });
    expect(JSON.parse(await readFile(file('vault'), 'utf8')).vaultProps.token).toBe('s.abc');
  });
});

describe('a password inside a connection URL', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.dispose());

  it('is masked, kept behind the mask, and kept when the rest of the URL changes', async () => {
    const url = 'mongodb://op:s3cr%40t@db1.example:27017/?replicaSet=rs0';
    await host.api('/profiles', { method: 'POST', json: { id: 'url-pass', mongoProps: { url } } });
    const body = await (await host.api('/profiles/url-pass')).json();
    expect(body.profile.mongoProps.url).toBe('mongodb://op:********@db1.example:27017/?replicaSet=rs0');
    expect(JSON.stringify(await (await host.api('/profiles/url-pass/export')).json())).not.toContain('s3cr');
    body.profile.mongoProps.url = body.profile.mongoProps.url.replace('db1.example', 'db2.example');
    expect((await host.api('/profiles/url-pass', { method: 'PUT', json: body.profile })).status).toBe(200);
    const stored = JSON.parse(await readFile(path.join(host.dataDir, 'profiles/url-pass/properties.json'), 'utf8'));
    expect(stored.mongoProps.url).toBe('mongodb://op:s3cr%40t@db2.example:27017/?replicaSet=rs0');
  });
});
