// GET /json-forms/forms/:id: a form as the pre-built imports store it, by its unique name, as stored
// (JSON Schema's `$`-keys included), or by its _id; an unknown one is a 404 naming it; a bad one a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { JSON_FORMS_COLLECTION } from '../../core/json-forms/service';
import { escapeKeys } from '../../core/store/documents';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.dispose());

describe('JSON forms over HTTP', () => {
  it('answers a stored form by name, keys as imported', async () => {
    const form = { name: 'License keys (BIG-IP)', description: 'Keys to install', schema: { $id: 'keys', type: 'object', required: ['key'], properties: { key: { type: 'string', title: 'License key' } } }, uiSchema: {}, struct: { type: 'object', items: [] } };
    // Stored as the pre-built import stores it: keys the store cannot hold (`$id`) escaped.
    await host.state.runtime.store.collection(JSON_FORMS_COLLECTION).insertOne(escapeKeys(form));
    const answer = await host.api(`/json-forms/forms/${encodeURIComponent(form.name)}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ name: form.name, description: 'Keys to install', schema: form.schema, struct: form.struct });

    // Its forms stop with the JsonForms application.
    expect((await host.api('/applications/JsonForms/stop', { method: 'PUT' })).status).toBe(200);
    const stopped = await host.api(`/json-forms/forms/${encodeURIComponent(form.name)}`);
    expect(stopped.status).toBe(503);
    expect((await stopped.json()).message).toBe('JsonForms is STOPPED, so reading a JSON form is refused; start it from the Health page or with PUT /applications/JsonForms/start');
    expect((await host.api('/applications/JsonForms/start', { method: 'PUT' })).status).toBe(200);
    expect((await host.api(`/json-forms/forms/${encodeURIComponent(form.name)}`)).status).toBe(200);
  });

  it("answers a form by its _id too, as the service's clients ask for it (a manual trigger's formId)", async () => {
    await host.state.runtime.store.collection(JSON_FORMS_COLLECTION).insertOne({ _id: '6b0c1e5a0000000000000a01', name: 'Approve change', schema: { type: 'object' } });
    const answer = await host.api('/json-forms/forms/6b0c1e5a0000000000000a01');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ name: 'Approve change', id: '6b0c1e5a0000000000000a01' });
  });

  it('names a form it does not have, and refuses a name that is a path', async () => {
    const unknown = await host.api('/json-forms/forms/Nope');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe('no JSON form named "Nope" or of that _id: import the pre-built or project that carries it');
    expect((await host.api('/json-forms/forms/%2Fetc%2Fpasswd')).status).toBe(400);
  });
});

describe("JSON forms made and removed as the service's JsonForms does", () => {
  it('creates one by a unique name, lists it among the others, and deletes by _id', async () => {
    const form = { name: 'Site survey', description: 'What a site has', schema: { $id: 'survey', type: 'object', properties: { racks: { type: 'integer' } } }, uiSchema: {}, struct: { type: 'object', items: [] }, bindingSchema: {}, validationSchema: {} };
    const created = await host.api('/json-forms/forms', { method: 'POST', json: form });
    expect(created.status).toBe(200);
    const doc = await created.json();
    // The document created: the form as sent (`$`-keys too), who made it and when, its _id.
    expect(doc).toMatchObject({ ...form, _id: expect.any(String), id: doc._id, createdBy: expect.any(String), lastUpdatedBy: doc.createdBy, created: expect.any(String), lastUpdated: doc.created });
    expect(await (await host.api(`/json-forms/forms/${doc._id}`)).json()).toMatchObject({ name: 'Site survey', schema: form.schema });
    const list = (await (await host.api('/json-forms/forms')).json()) as { _id: string; name: string }[];
    expect(list.find((f) => f._id === doc._id)).toMatchObject({ name: 'Site survey', schema: form.schema });
    expect(list.map((f) => f.name)).toEqual([...list.map((f) => f.name)].sort());

    const again = await host.api('/json-forms/forms', { method: 'POST', json: form });
    expect([again.status, (await again.json()).message]).toEqual([409, 'a JSON form named "Site survey" exists already']);
    const nameless = await host.api('/json-forms/forms', { method: 'POST', json: { description: 'no name' } });
    expect([nameless.status, (await nameless.json()).message]).toEqual([400, expect.stringContaining('name')]);

    // Updated by _id with the fields `options` gives; who made it and when are kept.
    const put = (id: string, options: unknown) => host.api(`/json-forms/forms/${id}`, { method: 'PUT', json: { options } });
    const updated = await put(doc._id, { ...doc, description: 'What a site has now', createdBy: 'someone else' });
    expect(await updated.json()).toEqual({ status: 'success', message: 'form "Site survey" updated' });
    expect(await (await host.api(`/json-forms/forms/${doc._id}`)).json()).toMatchObject({ name: 'Site survey', description: 'What a site has now', createdBy: doc.createdBy, created: doc.created, schema: form.schema });
    const taken = await put(doc._id, { name: 'Approve change' });
    expect([taken.status, (await taken.json()).message]).toEqual([409, 'a JSON form named "Approve change" exists already']);
    const missing = await put('6b0c1e5a0000000000000fff', { description: 'x' });
    expect([missing.status, (await missing.json()).message]).toEqual([404, 'no JSON form has the _id "6b0c1e5a0000000000000fff"']);

    const removed = await host.api('/json-forms/forms', { method: 'DELETE', json: { ids: [doc._id, 'not-a-form'] } });
    expect(await removed.json()).toEqual({ status: 'success', n: 1 });
    expect((await host.api(`/json-forms/forms/${doc._id}`)).status).toBe(404);
    expect((await host.api('/json-forms/forms', { method: 'DELETE', json: { ids: [] } })).status).toBe(400);
  });
});
