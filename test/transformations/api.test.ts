// The transformations operations over HTTP on a real host: import (one, many),
// list with search, get, replace, delete, run; bad input answers a 4xx naming the cause. The
// documents are the project's own, in the service's export format (test/fixtures/iap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { fixtures } from './corpus';

const fixtureDoc = (name: string) => fixtures.transformation(name);

describe('transformations API', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host?.dispose();
  });

  it('imports a document with its _id kept and reads it back whole', async () => {
    const doc = fixtureDoc('Build Tag Filter - Example');
    const created = await host.api('/transformations', { method: 'POST', json: doc });
    expect(created.status).toBe(201);
    const got = await host.api(`/transformations/${doc._id}`);
    expect(got.status).toBe(200);
    const body = await got.json();
    expect(body._id).toBe(doc._id);
    expect(body.incoming).toEqual(doc.incoming);
    expect(body.steps).toEqual(doc.steps);
    expect(body.view).toEqual(doc.view); // fields the console does not use are kept
    expect(body.createdBy).toEqual(doc.createdBy);
  });

  it('refuses the same _id again (409) unless overwrite=true', async () => {
    const doc = fixtureDoc('Build Tag Filter - Example');
    const again = await host.api('/transformations', { method: 'POST', json: doc });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toContain(doc._id);
    expect((await host.api('/transformations?overwrite=true', { method: 'POST', json: doc })).status).toBe(201);
  });

  it('refuses a document without a name or with steps of the wrong shape, naming the field', async () => {
    const res = await host.api('/transformations', { method: 'POST', json: { incoming: [], steps: 'no' } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toContain('body.name');
    expect(body.message).toContain('body.steps');
  });

  it('imports many at once, listing each refused one', async () => {
    const docs = fixtures.transformations().map((c) => c.doc);
    const res = await host.api('/transformations/import', { method: 'POST', json: { transformations: [...docs, { name: '' }], overwrite: true } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.imported).toHaveLength(docs.length);
    expect(body.problems).toEqual([{ name: '', message: expect.stringContaining('name: a transformation needs a name') }]);
    expect(body.warnings).toEqual([]);
  });

  it("takes the service's single import body too, and names an empty one", async () => {
    const doc = fixtureDoc('Build Tag Filter - Example');
    const res = await host.api('/transformations/import', { method: 'POST', json: { transformation: doc, overwrite: true } });
    expect((await res.json()).imported).toEqual([{ _id: doc._id, name: doc.name }]);
    const empty = await host.api('/transformations/import', { method: 'POST', json: { transformations: [] } });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toContain('body.transformations: send a `transformation` or a non-empty `transformations` list');
  });

  it('lists with a search on the name', async () => {
    const all = await (await host.api('/transformations')).json();
    expect(all.total).toBe(4);
    const some = await (await host.api('/transformations?contains=instance')).json();
    expect(some.results.map((d: { name: string }) => d.name)).toEqual(['Build Instance Tags - Example', 'Process Instance State - Example']);
  });

  it('runs a stored document: outgoing values, or a 4xx naming the step', async () => {
    const doc = fixtureDoc('Build Change Update Payload - Example');
    const ok = await host.api(`/transformations/${doc._id}/run`, {
      method: 'POST',
      json: { incoming: { changeRequest: { response: [{ id: 'cr1', current_state: '1' }] }, comments: 'done', state: 'Review' } },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ outgoing: { changeId: 'cr1', updatePayload: { comments: 'done', state: 2 } } });

    const vpc = fixtureDoc('Build Tag Filter - Example');
    const extracted = await host.api(`/transformations/${vpc._id}/run`, { method: 'POST', json: { incoming: { deviceName: 'core-1' }, options: { extractOutput: true } } });
    expect(await extracted.json()).toEqual({ outgoing: [{ Name: 'tag:Name', Values: 'core-1' }] });

    const badInput = await host.api(`/transformations/${doc._id}/run`, { method: 'POST', json: { incoming: { comments: 5 } } });
    expect(badInput.status).toBe(400);
    expect((await badInput.json()).issues).toEqual([{ path: 'body.incoming.comments', message: 'must be string' }]);

    const failing = await host.api(`/transformations/${doc._id}/run`, { method: 'POST', json: { incoming: { changeRequest: { response: null }, comments: 'x', state: 'Review' }, options: { validateIncoming: false } } });
    expect(failing.status).toBe(422);
    const error = await failing.json();
    expect(error).toMatchObject({ step: 24, method: 'Array.getIndex', pointer: '/args/0/value', document: doc.name });
    expect(error.message).toContain('Array.getIndex needs an array as its first argument, got null');
  });

  it('answers 404 naming the id for a run, get, replace or delete of a missing document', async () => {
    for (const [method, path] of [['POST', '/transformations/nope/run'], ['GET', '/transformations/nope'], ['DELETE', '/transformations/nope']] as const) {
      const res = await host.api(path, { method, json: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await res.json()).message).toContain('"nope"');
    }
    const replace = await host.api('/transformations/nope', { method: 'PUT', json: fixtureDoc('Process Instance State - Example') });
    expect(replace.status).toBe(404);
  });

  it("answers as JavaScript does over HTTP (oracle: JavaScript itself): an unset new String, unique items of a set, json-query in WorkFlowEngine.query", async () => {
    const doc = {
      _id: 'aa00000000000000000000f1',
      name: 'fidelity cases',
      incoming: [{ $id: 'list', type: 'array' }, { $id: 'result', type: 'object' }],
      outgoing: [{ $id: 'empty' }, { $id: 'unique' }, { $id: 'value' }, { $id: 'keys' }],
      steps: [
        { id: 1, type: 'declaration', library: 'String', method: 'new String', args: [null] },
        { id: 2, type: 'declaration', library: 'Set', method: 'new Set', args: [null] },
        { id: 3, type: 'method', library: 'Array', method: 'from', args: [null] },
        { id: 4, type: 'method', library: 'WorkFlowEngine', method: 'query', args: [false, 'result.[0].value', null] },
        { id: 5, type: 'method', library: 'Object', method: 'keys', args: [12] },
        { id: 10, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'empty', ptr: '' } },
        { id: 11, type: 'assign', from: { location: 'incoming', name: 'list', ptr: '' }, to: { location: 'method', name: 2, ptr: '/args/0/value' } },
        { id: 12, type: 'assign', from: { location: 'method', name: 2, ptr: '/return' }, to: { location: 'method', name: 3, ptr: '/args/0/value' } },
        { id: 13, type: 'assign', from: { location: 'method', name: 3, ptr: '/return' }, to: { location: 'outgoing', name: 'unique', ptr: '' } },
        { id: 14, type: 'assign', from: { location: 'incoming', name: 'result', ptr: '' }, to: { location: 'method', name: 4, ptr: '/args/2/value' } },
        { id: 15, type: 'assign', from: { location: 'method', name: 4, ptr: '/return' }, to: { location: 'outgoing', name: 'value', ptr: '' } },
        { id: 16, type: 'assign', from: { location: 'method', name: 5, ptr: '/return' }, to: { location: 'outgoing', name: 'keys', ptr: '' } },
      ],
      functions: [],
    };
    expect((await host.api('/transformations?overwrite=true', { method: 'POST', json: doc })).status).toBe(201);
    const list = ['b', 'a', 'b'];
    const res = await host.api(`/transformations/${doc._id}/run`, { method: 'POST', json: { incoming: { list, result: { result: [{ value: 5 }] } } } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ outgoing: { empty: String(), unique: Array.from(new Set(list)), value: 5, keys: Object.keys(12) } });
  });

  it('replaces and deletes', async () => {
    const doc = fixtureDoc('Process Instance State - Example');
    const replaced = await host.api(`/transformations/${doc._id}`, { method: 'PUT', json: { ...doc, description: 'edited' } });
    expect(replaced.status).toBe(200);
    expect((await (await host.api(`/transformations/${doc._id}`)).json()).description).toBe('edited');
    expect((await host.api(`/transformations/${doc._id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await host.api(`/transformations/${doc._id}`)).status).toBe(404);
  });

  it('keeps two documents of the same name (workflows name them by _id), with a warning', async () => {
    const doc = fixtureDoc('Build Instance Tags - Example');
    const twin = { ...doc, _id: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
    const res = await host.api('/transformations', { method: 'POST', json: twin });
    expect(res.status).toBe(201);
    expect((await res.json()).warnings).toEqual([`transformation "Build Instance Tags - Example" (_id aaaaaaaaaaaaaaaaaaaaaaaa): another transformation has the same name (_id ${doc._id})`]);
    expect((await host.api(`/transformations/${doc._id}`)).status).toBe(200);
    expect((await host.api('/transformations/aaaaaaaaaaaaaaaaaaaaaaaa', { method: 'DELETE' })).status).toBe(200);
  });

  it('stores a document it cannot run, saying why', async () => {
    const res = await host.api('/transformations', { method: 'POST', json: { name: 'future', steps: [{ id: 1, type: 'method', library: 'String', method: 'toKlingon', args: [] }] } });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.warnings).toEqual(['transformation "future", step 1 (String.toKlingon): unsupported method String.toKlingon']);
  });
});
