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
    expect(body.services).toContainEqual(expect.objectContaining({ service: 'mongo' }));
  });

  it('answers an unknown route with a 404 JSON, not an HTML page', async () => {
    const response = await host.api('/no/such/route');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, message: 'no route GET /no/such/route' });
  });
});
