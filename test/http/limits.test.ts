// What one request may carry: nesting depth and body size have limits answered 400 and 413
// with a JSON body naming the cause; a document the store cannot keep is the caller's 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_DEPTH } from '../../core/dispatch/limits';
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
      expect(job.data.variables).toEqual({ 'a.b': 1, $set: { x: 1 } });
    } else {
      expect(response.status).toBe(400);
      expect(body.message).toMatch(/^the store cannot keep this data: .*(\.|\$)/);
    }
  });
});
