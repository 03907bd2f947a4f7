import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

const json = async (response: Response) => ({ status: response.status, body: await response.json() });

const lab = {
  id: 'lab',
  serverName: 'lab-01',
  processTasksOnStart: false,
  mongoProps: {
    url: 'mongodb://db1.example:27017/?replicaSet=rs0',
    db: 'pronghorn',
    credentials: { user: 'itential', passwd: 'hunter2', dbAuth: true },
  },
  pathProps: { description: 'File Path Variables', sdk_dir: '/opt/apps', encrypted: false },
  vaultProps: { url: 'https://vault.example', enabled: false, nested: { keep: [1, 2, 3] } },
};

describe('profile API', () => {
  it('lists the first profile as active, in the service shape', async () => {
    const { status, body } = await json(await host.api('/profiles'));
    expect(status).toBe(200);
    expect(body.total).toBe(1);
    expect(body.results[0]).toMatchObject({ metadata: { isActive: true }, profile: { id: 'default' } });
  });

  it('creates a profile, keeps unknown fields and never returns the password', async () => {
    const created = await json(await host.api('/profiles', { method: 'POST', json: lab }));
    expect(created.status).toBe(201);
    expect(created.body.profile.vaultProps).toEqual(lab.vaultProps);
    expect(created.body.profile.mongoProps.credentials.passwd).toBe('********');
    expect(created.body.metadata).toMatchObject({ isActive: false, passwdSet: true });
    const text = JSON.stringify((await json(await host.api('/profiles'))).body);
    expect(text).not.toContain('hunter2');
    expect(JSON.stringify((await json(await host.api('/profiles/lab'))).body)).not.toContain('hunter2');
    // On disk, with encryption off, the service's plain form.
    const file = JSON.parse(await readFile(path.join(host.dataDir, 'profiles/lab/properties.json'), 'utf8'));
    expect(file.mongoProps.credentials.passwd).toBe('hunter2');
    expect(file.vaultProps).toEqual(lab.vaultProps);
  });

  it('answers 409 when the id is taken', async () => {
    const { status, body } = await json(await host.api('/profiles', { method: 'POST', json: lab }));
    expect(status).toBe(409);
    expect(body.message).toContain('"lab" exists already');
  });

  it('answers 400 naming each bad field', async () => {
    const { status, body } = await json(
      await host.api('/profiles', {
        method: 'POST',
        json: { id: '../etc', processTasksOnStart: 'yes', mongoProps: { url: 'http://db:27017' } },
      }),
    );
    expect(status).toBe(400);
    const paths = body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['body.id', 'body.processTasksOnStart', 'body.mongoProps.url']));
    expect(body.message).toContain('body.mongoProps.url: must be a mongodb:// or mongodb+srv:// URL');
  });

  it('keeps the stored password when a PUT sends the mask, replaces it when a new one is sent', async () => {
    const got = (await json(await host.api('/profiles/lab'))).body.profile;
    const edited = await json(await host.api('/profiles/lab', { method: 'PUT', json: { ...got, processTasksOnStart: true } }));
    expect(edited.status).toBe(200);
    expect(edited.body.profile.processTasksOnStart).toBe(true);
    const file = () => readFile(path.join(host.dataDir, 'profiles/lab/properties.json'), 'utf8').then(JSON.parse);
    expect((await file()).mongoProps.credentials.passwd).toBe('hunter2');
    expect((await file()).vaultProps).toEqual(lab.vaultProps);
    const backup = JSON.parse(await readFile(path.join(host.dataDir, 'profiles/lab/properties.json.bak'), 'utf8'));
    expect(backup.processTasksOnStart).toBe(false);

    got.mongoProps.credentials.passwd = 'n3w-secret';
    got.processTasksOnStart = true;
    await host.api('/profiles/lab', { method: 'PUT', json: got });
    expect((await file()).mongoProps.credentials.passwd).toBe('n3w-secret');
  });

  it('refuses to change the id in a PUT', async () => {
    const { status, body } = await json(await host.api('/profiles/lab', { method: 'PUT', json: { id: 'other' } }));
    expect(status).toBe(400);
    expect(body.issues[0].path).toBe('body.id');
  });

  it('answers 404 for an unknown id on every operation', async () => {
    for (const [method, url] of [
      ['GET', '/profiles/nope'],
      ['PUT', '/profiles/nope/active'],
      ['DELETE', '/profiles/nope'],
      ['GET', '/profiles/nope/export'],
    ] as const) {
      const { status, body } = await json(await host.api(url, { method }));
      expect(status, `${method} ${url}`).toBe(404);
      expect(body.message).toBe('no profile "nope"');
    }
    const put = await host.api('/profiles/nope', { method: 'PUT', json: { processTasksOnStart: true } });
    expect(put.status).toBe(404);
  });

  it('clones a profile under a new id, secrets included', async () => {
    const { status, body } = await json(await host.api('/profiles/lab/clone', { method: 'POST', json: { id: 'lab-copy' } }));
    expect(status).toBe(201);
    expect(body.profile).toMatchObject({ id: 'lab-copy', serverName: 'lab-01', vaultProps: lab.vaultProps });
    expect(body.metadata.passwdSet).toBe(true);
  });

  it('activates a profile without a restart, and refuses to delete the active one', async () => {
    // No mongoProps.url, so it opens the embedded store (no network in this test).
    await host.api('/profiles', { method: 'POST', json: { id: 'lab-embedded', processTasksOnStart: false } });
    const activated = await json(await host.api('/profiles/lab-embedded/active', { method: 'PUT' }));
    expect(activated.status).toBe(200);
    expect(activated.body.metadata.isActive).toBe(true);
    expect(host.state.runtime.config.profileId).toBe('lab-embedded');
    const status = (await json(await host.api('/health/status'))).body;
    expect(status.profile).toBe('lab-embedded');
    const list = (await json(await host.api('/profiles'))).body;
    expect(list.results.filter((r: { metadata: { isActive: boolean } }) => r.metadata.isActive).map((r: { profile: { id: string } }) => r.profile.id)).toEqual(['lab-embedded']);
    expect(JSON.parse(await readFile(path.join(host.dataDir, 'console.json'), 'utf8')).activeProfile).toBe('lab-embedded');

    const refused = await json(await host.api('/profiles/lab-embedded', { method: 'DELETE' }));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('active profile');
  });

  it('deletes a profile that is not active, keeping its folder aside', async () => {
    const { status, body } = await json(await host.api('/profiles/lab-copy', { method: 'DELETE' }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: 'lab-copy', deleted: true });
    expect((await host.api('/profiles/lab-copy')).status).toBe(404);
  });

  it('exports the file content with a download name, the password masked', async () => {
    const response = await host.api('/profiles/lab/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="lab.properties.json"');
    const body = await response.json();
    expect(body).toMatchObject({ id: 'lab', vaultProps: lab.vaultProps, processTasksOnStart: true });
    expect(body.mongoProps.credentials.passwd).toBe('********');
  });

  it('imports a file, drops a masked secret it cannot know, and warns', async () => {
    const exported = await (await host.api('/profiles/lab/export')).json();
    const { status, body } = await json(await host.api('/profiles/import', { method: 'POST', json: { ...exported, id: 'lab2' } }));
    expect(status).toBe(201);
    expect(body.metadata.passwdSet).toBe(false);
    expect(body.metadata.warnings.join('\n')).toContain('mongoProps.credentials.passwd: the file carried a masked secret');
    const bad = await json(await host.api('/profiles/import', { method: 'POST', json: [1, 2] }));
    expect(bad.status).toBe(400);
  });
});
