// The store operations over HTTP on a real host: the active profile's store, the
// connection test of a saved profile, and the `mongo` service of /health/status.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { jongodbBinary, startJongodb, type TestMongo } from './jongodb';

const PASSWORD = 'Hunter2-secret';

async function writeProfile(dataDir: string, profile: Record<string, unknown>) {
  const dir = path.join(dataDir, 'profiles', String(profile.id));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'properties.json'), JSON.stringify(profile, null, 2));
}

const unreachable = {
  id: 'remote',
  serverName: 'remote-01',
  processTasksOnStart: false,
  mongoProps: { url: 'mongodb://127.0.0.1:1', db: 'pronghorn', credentials: { user: 'itential', passwd: PASSWORD, dbAuth: true } },
};

describe('store operations on the embedded default profile', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.dispose();
  });

  it('GET /store/status shows the embedded store, connected, with its integrity check', async () => {
    // The check runs in the background from the store's open: wait for its first result.
    let res = await host.api('/store/status');
    for (let i = 0; i < 200 && !(await res.clone().json()).integrity; i++) {
      await new Promise((r) => setTimeout(r, 25));
      res = await host.api('/store/status');
    }
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      kind: 'embedded',
      location: `embedded store in ${path.join(host.dataDir, 'profiles', 'default', 'db', 'console.sqlite')}`,
      connected: true,
      integrity: { ok: true, problems: [], checkedAt: expect.any(Number) },
      safety: { state: 'ok', writable: true },
      backups: { count: 0, schedule: { everyMinutes: 60, keep: 24 } },
      // The store's identity, kept inside its file.
      identity: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), createdAt: expect.any(String), schemaVersion: 3, generation: expect.any(Number), highWater: expect.any(Object) },
    });
  });

  it('GET /health/status reports the embedded store running (not as the mongo service)', async () => {
    const body = await (await host.api('/health/status')).json();
    expect(body.store).toBe('embedded');
    expect(body.services).toContainEqual({ service: 'embedded-store', status: 'running', detail: expect.stringContaining('embedded store in') });
    expect(body.services.map((s: { service: string }) => s.service)).not.toContain('mongo');
  });

  it('POST /profiles/default/test-connection answers ok with the latency', async () => {
    const res = await host.api('/profiles/default/test-connection', { method: 'POST' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, kind: 'embedded' });
    expect(typeof body.latencyMs).toBe('number');
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await host.api('/profiles/nobody/test-connection', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ statusCode: 404, message: 'profile "nobody" not found' });
    const escape = await host.api(`/profiles/${encodeURIComponent('..')}/test-connection`, { method: 'POST' });
    expect(escape.status).toBe(404);
  });

  it('tests an unreachable MongoDB profile: the error names the host, never the password', async () => {
    await writeProfile(host.dataDir, unreachable);
    const res = await host.api('/profiles/remote/test-connection', { method: 'POST' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(PASSWORD);
    expect(JSON.parse(text)).toEqual({
      ok: false,
      kind: 'mongodb',
      location: 'MongoDB at 127.0.0.1:1 (db pronghorn)',
      error: 'cannot reach MongoDB at 127.0.0.1:1 within 5 s: connection refused',
    });
  }, 20_000);
});

describe('store operations when the active profile points at an unreachable MongoDB', () => {
  let host: TestHost;
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'store-api-'));
    await writeProfile(dataDir, unreachable);
    await writeFile(path.join(dataDir, 'console.json'), JSON.stringify({ activeProfile: 'remote' }));
    host = await startTestHost({ dataDir });
  }, 20_000);
  afterAll(async () => {
    await host.dispose();
  });

  it('answers the embedded store\'s backups 409 on MongoDB, naming the tool that makes them there', async () => {
    const take = await host.api('/store/backups', { method: 'POST' });
    expect(take.status).toBe(409);
    expect((await take.json()).message).toContain('its backups are made with mongodump');
    expect((await host.api('/store/backups')).status).toBe(409);
    const restore = await host.api('/store/backups/backup-20261126T010000000Z-abcdef/restore', { method: 'POST' });
    expect(restore.status).toBe(409);
    expect((await restore.json()).message).toContain('mongorestore');
  });

  it('the console still starts; /store/status and /health/status say why the store fails', async () => {
    const [status, health] = await Promise.all([host.api('/store/status').then((r) => r.text()), host.api('/health/status').then((r) => r.text())]);
    expect(status).not.toContain(PASSWORD);
    expect(health).not.toContain(PASSWORD);
    expect(JSON.parse(status)).toEqual({
      kind: 'mongodb',
      location: 'MongoDB at 127.0.0.1:1 (db pronghorn)',
      connected: false,
      error: 'cannot reach MongoDB at 127.0.0.1:1 within 5 s: connection refused',
    });
    const body = JSON.parse(health);
    expect(body.store).toBe('mongodb');
    expect(body.services).toContainEqual({
      service: 'mongo',
      status: 'failed',
      detail: 'cannot reach MongoDB at 127.0.0.1:1 within 5 s: connection refused',
    });
  }, 20_000);
});

describe('store operations on a MongoDB profile (jongodb)', () => {
  const found = jongodbBinary();
  let server: TestMongo | undefined;
  let host: TestHost;
  beforeAll(async () => {
    if ('unavailable' in found) return;
    server = await startJongodb();
    host = await startTestHost();
    await writeProfile(host.dataDir, { id: 'wire', mongoProps: { url: server.url, db: 'pronghorn' } });
  }, 30_000);
  afterAll(async () => {
    await host?.dispose();
    await server?.stop();
  });

  it('POST /profiles/wire/test-connection answers ok', async (ctx) => {
    if ('unavailable' in found) {
      console.warn(`[store api] jongodb case skipped: ${found.unavailable}`);
      ctx.skip(found.unavailable);
    }
    const body = await (await host.api('/profiles/wire/test-connection', { method: 'POST' })).json();
    expect(body).toMatchObject({ ok: true, kind: 'mongodb', location: `MongoDB at ${server!.url.replace('mongodb://', '')} (db pronghorn)` });
    expect(typeof body.latencyMs).toBe('number');
  });
});
