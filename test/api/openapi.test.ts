// GET /help/openapi: the console's API as an OpenAPI 3.1 document made from its contract, read as the
// vendor's builder guides read the service's (`paths[path].post.requestBody...schema`). The contract
// itself is the oracle: every operation is there, under its path and method, with its summary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, operationNames } from '../../core/contract';
import { openApiPath } from '../../core/help/openapi';
import { callJson, startTestHost, type TestHost } from '../support/host';

describe('the API described', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  }, 60_000);
  afterAll(() => host?.dispose());

  it('lists every operation of the contract under its path and method, with its body and answer', async () => {
    const { status, body } = await callJson(host, '/help/openapi');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toMatch(/^2022\.1\./);
    for (const name of operationNames) {
      const op = contract[name];
      const entry = body.paths[openApiPath(op.path)]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${op.path}`).toMatchObject({ operationId: name, summary: op.summary });
      if ('body' in op && op.body) expect(entry.requestBody.content['application/json'].schema, name).toEqual(expect.any(Object));
    }
    const methods = Object.values(body.paths as Record<string, object>).reduce((n, p) => n + Object.keys(p).length, 0);
    expect(methods).toBe(operationNames.length);
    // What a builder reads before creating a workflow: the body the route takes.
    const create = body.paths['/automation-studio/automations'].post;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', required: ['automation'] });
    expect(body.paths['/operations-manager/jobs/{id}'].get.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });

  it('answers one path when asked, and names a path the API does not have', async () => {
    const one = await callJson(host, `/help/openapi?${new URLSearchParams({ url: '/operations-manager/jobs/:id?x=1' })}`);
    expect(Object.keys(one.body.paths)).toEqual(['/operations-manager/jobs/{id}']);
    const braces = await callJson(host, `/help/openapi?${new URLSearchParams({ url: '/operations-manager/jobs/{id}' })}`);
    expect(braces.body.paths).toEqual(one.body.paths);
    const none = await callJson(host, `/help/openapi?${new URLSearchParams({ url: '/no/such/route' })}`);
    expect([none.status, none.body.message]).toEqual([404, "query.url: the console's API has no path /no/such/route"]);
  });
});
