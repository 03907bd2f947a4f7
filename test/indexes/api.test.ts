// The index operations over HTTP on a real console host: the embedded store of the
// first profile, and a profile pointing at MongoDB (the jongodb test server).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/host';
import { startJongodb, type TestMongo } from '../store/jongodb';

const COLLECTIONS = ['jobs', 'job_history', 'tasks', 'workflows', 'wfe_job_metrics', 'wfe_task_metrics', 'mop_templates', 'mop_analytic_templates', 'catalog_store'];

async function json(response: Response) {
  return { status: response.status, body: await response.json() };
}

/** Polls the status until no build runs on the collection. */
async function settledStatus(host: TestHost, collection: string) {
  const deadline = Date.now() + 20_000;
  let body;
  do {
    body = (await json(await host.api(`/indexes/${collection}/status`))).body;
    if (!body.running) return body;
    await new Promise((r) => setTimeout(r, 25));
  } while (Date.now() < deadline);
  throw new Error(`the build of ${collection} did not end within 20 s: ${JSON.stringify(body)}`);
}

describe('index operations on the embedded store', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.dispose());

  it('creates the declared collections with their indexes at startup', async () => {
    const { status, body } = await json(await host.api('/indexes/status'));
    expect(status).toBe(200);
    expect(body.total).toBe(9);
    expect(body.results.map((r: { collection: string }) => r.collection)).toEqual(COLLECTIONS);
    for (const result of body.results) expect(result, result.collection).toMatchObject({ indexed: true, running: false });
  });

  it('answers the status of one collection in the reference shape', async () => {
    const { status, body } = await json(await host.api('/indexes/jobs/status'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ collection: 'jobs', indexed: true, running: false, missing: [], misnamed: [], external: [] });
  });

  it('reports an index dropped behind its back, and re-creates it on POST without a body', async () => {
    await host.state.runtime.store.collection('jobs').dropIndex('status_1_metrics.start_time_-1');
    const before = (await json(await host.api('/indexes/jobs/status'))).body;
    expect(before.indexed).toBe(false);
    expect(before.missing).toEqual([{ key: { status: 1, 'metrics.start_time': -1 }, name: 'status_1_metrics.start_time_-1', unique: false }]);

    const started = await json(await host.api('/indexes/jobs', { method: 'POST' }));
    expect(started).toEqual({ status: 200, body: { unchanged: 4, changed: 1, total: 5, running: true } });
    const after = await settledStatus(host, 'jobs');
    expect(after, `failure: ${JSON.stringify(after.failure)}`).toMatchObject({ indexed: true, missing: [], current: 5 });
  });

  it('ignores a request body, and an empty JSON body is no body', async () => {
    const withBody = await json(await host.api('/indexes/tasks', { method: 'POST', json: { force: true, indexes: ['x'] } }));
    expect(withBody).toEqual({ status: 200, body: { unchanged: 5, changed: 0, total: 5, running: false } });
    const empty = await host.api('/indexes/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    expect(empty.status).toBe(200);
  });

  it('answers an undeclared collection with a 404 naming the collections that can be indexed', async () => {
    for (const request of [host.api('/indexes/users', { method: 'POST' }), host.api('/indexes/users/status')]) {
      const { status, body } = await json(await request);
      expect(status).toBe(404);
      expect(body.message).toContain('collection "users" has no declared indexes');
      expect(body.message).toContain('jobs, job_history, tasks');
      expect(body.collections).toEqual(COLLECTIONS);
    }
  });

  it('keeps and shows the failure of a unique index over duplicate data', async () => {
    const workflows = host.state.runtime.store.collection('workflows');
    await workflows.dropIndex('name_1');
    await workflows.insertMany([{ name: 'provision' }, { name: 'provision' }]);
    expect((await json(await host.api('/indexes/workflows', { method: 'POST' }))).body).toMatchObject({ changed: 1, running: true });
    const failed = await settledStatus(host, 'workflows');
    expect(failed).toMatchObject({ indexed: false, missing: [{ name: 'name_1', unique: true }], failure: { index: 'name_1' } });
    expect(failed.failure.message).toContain('unique index "name_1" on workflows failed');

    await workflows.deleteOne({ name: 'provision' });
    await host.api('/indexes/workflows', { method: 'POST' });
    const fixed = await settledStatus(host, 'workflows');
    expect(fixed.indexed).toBe(true);
    expect(fixed.failure).toBeUndefined();
  });

  it('lists what each application declares', async () => {
    const all = (await json(await host.api('/indexes'))).body;
    expect(all.total).toBe(9);
    const mop = await json(await host.api('/indexes?application=mop'));
    expect(mop.status).toBe(200);
    expect(mop.body.results.map((r: { collection: string }) => r.collection)).toEqual(['mop_templates', 'mop_analytic_templates']);
    expect(mop.body.results[0].indexes[0]).toMatchObject({ key: { name: 1 }, name: 'name_1', unique: true, purpose: expect.any(String) });
    const wfe = (await json(await host.api('/indexes?application=app-workflow_engine'))).body;
    expect(wfe.results[2].indexes.map((i: { name: string }) => i.name)).toContain('status_1_queuedAt_1_runAfter_1');
    const unknown = await json(await host.api('/indexes?application=nope'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('applications that do: workflow_engine, mop, service_catalog');
  });
});

describe('an existing collection is not re-indexed at startup', () => {
  it('leaves a dropped index missing across a restart until an operator asks', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'indexes-restart-'));
    try {
      const first = await startTestHost({ dataDir });
      await first.state.runtime.store.collection('jobs').insertOne({ name: 'wf', status: 'complete' });
      await first.state.runtime.store.collection('jobs').dropIndex('metrics.start_time_-1');
      await first.dispose();

      const second = await startTestHost({ dataDir });
      try {
        const status = (await json(await second.api('/indexes/jobs/status'))).body;
        expect(status).toMatchObject({ indexed: false, running: false });
        expect(status.missing.map((i: { name: string }) => i.name)).toEqual(['metrics.start_time_-1']);
      } finally {
        await second.dispose();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('index operations on a profile that points at MongoDB (jongodb test server)', () => {
  let mongo: TestMongo;
  let host: TestHost;
  let dataDir: string;
  beforeAll(async () => {
    mongo = await startJongodb();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'indexes-mongo-'));
    const profileDir = path.join(dataDir, 'profiles', 'mongo');
    await mkdir(profileDir, { recursive: true });
    await writeFile(path.join(profileDir, 'properties.json'), JSON.stringify({ id: 'mongo', mongoProps: { url: mongo.url, db: 'indexes_api' } }));
    await writeFile(path.join(dataDir, 'console.json'), JSON.stringify({ activeProfile: 'mongo' }));
    host = await startTestHost({ dataDir });
  });
  afterAll(async () => {
    await host?.dispose();
    await mongo?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports, builds and reports again over the wire', async () => {
    // This server cannot list collections, so startup created nothing: every index is missing.
    const all = (await json(await host.api('/indexes/status'))).body;
    expect(all.total).toBe(9);
    const tasks = all.results.find((r: { collection: string }) => r.collection === 'tasks');
    // On MongoDB, also the two the service's tools read: job._id_1 and iap_status_server_id.
    expect(tasks).toMatchObject({ indexed: false, current: 0, total: 7 });
    expect(tasks.missing.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['job._id_1', 'iap_status_server_id']));

    const started = await json(await host.api('/indexes/tasks', { method: 'POST' }));
    expect(started).toEqual({ status: 200, body: { unchanged: 0, changed: 7, total: 7, running: true } });
    const after = await settledStatus(host, 'tasks');
    expect(after, `failure: ${JSON.stringify(after.failure)}`).toMatchObject({ collection: 'tasks', indexed: true, current: 7, missing: [] });
  });
});
