// What one request may carry: nesting depth and body size have limits answered 400 and 413
// with a JSON body naming the cause; a document the store cannot keep is the caller's 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_DEPTH, MAX_VALUES, tooDeep } from '../../core/dispatch/limits';
import { workflow } from '../engine/queue/support';
import { startTestHost, type TestHost } from '../support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.dispose());

const post = (pathname: string, text: string) =>
  host.api(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

describe('request limits', () => {
  it('answers a workflow nested 10,000 deep with a 400 naming the body, and stays up', async () => {
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    const response = await post('/workflows', `{"name":"deep","tasks":{},"x":${deep}}`);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe(`body: nested deeper than ${MAX_DEPTH} levels (at body.x.a...a.a)`);
    expect(body.issues[0].path).toMatch(/^body/);
    expect((await host.api('/health/status')).status).toBe(200);
  });

  it('refuses a 4.5 MB body 250 levels deep and 1.5 million values wide with a 4xx, and stays up', async () => {
    // Inside the depth and size limits: a check that copied a path per node ran out of heap on it.
    const text = '{"a":'.repeat(249) + '[' + '[],'.repeat(1_500_000) + '[]]' + '}'.repeat(249);
    expect(text.length).toBeGreaterThan(4_500_000);
    expect(text.length).toBeLessThan(MAX_BODY_BYTES);
    const response = await post('/workflows', text);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe(`body: more than ${MAX_VALUES.toLocaleString('en')} values, the most one request may carry`);
    expect((await host.api('/health/status')).status).toBe(200);
  });

  it('names the path of a body nested too deep inside arrays', async () => {
    const response = await post('/workflows', `{"name":"deep","tasks":{"t":[${'['.repeat(300)}${']'.repeat(300)}]}}`);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(`body: nested deeper than ${MAX_DEPTH} levels (at body.tasks.t...0.0)`);
  });

  it('checks the token before reading the body: a body over the limit without a token is a 401, not a 413', async () => {
    const response = await fetch(`${host.url}/profiles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'big', serverName: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toContain('Authorization: Bearer');
  });

  it('answers an unknown route 401 without a token and 404 with it', async () => {
    expect((await fetch(`${host.url}/no/such/route`, { method: 'POST' })).status).toBe(401);
    expect((await fetch(`${host.url}/no/such/route`)).status).toBe(401);
    expect((await host.api('/no/such/route')).status).toBe(404);
  });

  it('accepts a document nested as deep as real exports (30 levels)', async () => {
    const nested = '{"a":'.repeat(30) + '1' + '}'.repeat(30);
    const flow = { ...workflow('nested-ok', {}, [['workflow_start', 'workflow_end']]), extra: JSON.parse(nested) };
    const response = await host.api('/workflows', { method: 'POST', json: flow });
    expect(response.status).toBe(201);
  });

  it('answers a body over the size limit with a 413 JSON naming the limit', async () => {
    const response = await post('/profiles', JSON.stringify({ id: 'big', serverName: 'x'.repeat(MAX_BODY_BYTES) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large', message: expect.stringContaining('body: larger than 10 MB') });
  });

  it('never answers 5xx for job variables whose keys hold a dot or start with $', async () => {
    await host.api('/workflows', { method: 'POST', json: workflow('keys', {}, [['workflow_start', 'workflow_end']]) });
    const response = await host.api('/operations-manager/jobs/start', {
      method: 'POST',
      json: { workflow: 'keys', options: { variables: { 'a.b': 1, $set: { x: 1 } } } },
    });
    const body = await response.json();
    // Stored exactly where the store can keep such keys; otherwise refused naming the cause.
    if (response.status === 200) {
      const job = await (await host.api(`/operations-manager/jobs/${body.data._id}`)).json();
      // Beside the service's own job variables (_id, initiator).
      expect(job.data.variables).toEqual({ 'a.b': 1, $set: { x: 1 }, _id: job.data._id, initiator: expect.any(String) });
    } else {
      expect(response.status).toBe(400);
      expect(body.message).toMatch(/^the store cannot keep this data: .*(\.|\$)/);
    }
  });
});

describe('the depth check of a parsed value (IPC and queries)', () => {
  it('returns the path to the first container nested too deep, arrays by position', () => {
    const value = { a: [{ b: [[[1]]] }] };
    expect(tooDeep(value, 3)).toEqual(['a', '0', 'b']);
    expect(tooDeep(value, 6)).toBeUndefined();
  });

  it('reads a value 1.5 million arrays wide at depth 250 without copying a path per node', () => {
    let value: unknown = Array.from({ length: 1_500_000 }, () => []);
    for (let i = 0; i < 249; i++) value = { a: value };
    expect(tooDeep(value)).toBeUndefined();
    expect(tooDeep(value, 250)).toHaveLength(250);
  });
});
