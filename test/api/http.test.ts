import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

describe('HTTP API built from the contract', () => {
  it('binds 127.0.0.1 by default', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('answers 401 with a JSON error without the token', async () => {
    const response = await fetch(`${host.url}/health/status`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect(body.message).toContain('Authorization: Bearer');
  });

  it('answers 401 with a wrong token', async () => {
    const response = await host.api('/health/status', { headers: { authorization: 'Bearer nope' } });
    expect(response.status).toBe(401);
  });

  it('answers /health/status with the release, the server and the active profile', async () => {
    const response = await host.api('/health/status');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      release: '2022.1',
      profile: 'default',
      store: 'embedded',
      taskWorker: { running: expect.any(Boolean) },
    });
    expect(body.serverId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.services).toContainEqual(expect.objectContaining({ service: 'embedded-store', status: 'running' }));
  });

  it('answers an unknown route with a 404 JSON, not an HTML page', async () => {
    const response = await host.api('/no/such/route');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, message: 'no route GET /no/such/route' });
  });
});

describe('request bodies', () => {
  it('answers a malformed body with a 400 JSON naming the field', async () => {
    const response = await host.api('/profiles', { method: 'POST', json: { id: 'lab', processTasksOnStart: 'yes' } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.statusCode).toBe(400);
    expect(body.message).toContain('processTasksOnStart');
    expect(body.issues.map((i: { path: string }) => i.path)).toContain('body.processTasksOnStart');
  });

  it('answers a body that is not JSON with a 400 for an operation that takes one', async () => {
    const response = await host.api('/profiles', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": ' });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('body: not valid JSON');
  });

  it('asks for JSON when a body of another type is sent where one is needed', async () => {
    const response = await host.api('/profiles', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'id=lab' });
    expect(response.status).toBe(415);
    expect((await response.json()).message).toContain('Content-Type: application/json');
  });

  it('ignores any body sent to an operation that takes none (POST /indexes/:name)', async () => {
    for (const init of [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
      { headers: { 'content-type': 'application/octet-stream' }, body: 'xyz' },
      { headers: { 'content-type': 'application/json' }, body: 'not json' },
    ]) {
      const response = await host.api('/indexes/jobs', { method: 'POST', ...init });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ total: expect.any(Number), running: expect.any(Boolean) });
    }
  });
});
