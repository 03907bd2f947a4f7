// A database the service wrote, opened through a profile (on the MongoDB wire test server): its
// jobs and task documents, with ObjectId ids, are listed, opened and shown whole; an operator's
// action on one of them is refused with a 409 that says to act on the service; the console's
// worker claims none of its task documents. Documents as the service writes them: ObjectId `_id`s,
// `ancestors` of ObjectIds, `last_updated` a date, task documents keyed by `job._id`.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, ObjectId, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/host';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[a database the service wrote] skipped: ${found.unavailable}`);

describe.skipIf('unavailable' in found)('a database the service wrote, opened through a profile', () => {
  let mongo: TestMongo;
  let client: MongoClient;
  let db: Db;
  let host: TestHost;
  let dataDir: string;
  const root = new ObjectId();
  const child = new ObjectId();
  const rootTasks = [new ObjectId(), new ObjectId()];
  const queuedTask = new ObjectId();
  const now = Date.now();

  beforeAll(async () => {
    mongo = await startJongodb();
    client = await new MongoClient(mongo.url).connect();
    db = client.db('pronghorn');
    const tasks = { workflow_start: { name: 'workflow_start' }, a1b2: { name: 'restCall', app: 'WorkFlowEngine', type: 'automatic' }, workflow_end: { name: 'workflow_end' } };
    const transitions = { workflow_start: { a1b2: { type: 'standard', state: 'success' } }, a1b2: { workflow_end: { type: 'standard', state: 'success' } } };
    await db.collection('jobs').insertMany([
      { _id: root, name: 'Service workflow', description: 'started on the service', type: 'automation', status: 'running', variables: { device: 'r1' }, tasks, transitions, ancestors: [root], metrics: { start_time: now - 5000, user: 'admin@pronghorn' }, last_updated: new Date(now - 1000) },
      { _id: child, name: 'Service child', description: '', type: 'automation', status: 'complete', variables: {}, tasks, transitions, ancestors: [root, child], parent: { job: root, task: 'c3d4' }, metrics: { start_time: now - 4000, end_time: now - 3000 }, last_updated: new Date(now - 3000) },
    ]);
    await db.collection('tasks').insertMany([
      { _id: rootTasks[0], id: 'a1b2', job: { _id: root, name: 'Service workflow' }, name: 'restCall', app: 'WorkFlowEngine', type: 'automatic', status: 'running', variables: { incoming: { uri: '/x' }, outgoing: {} }, metrics: { start_time: now - 4500, server_id: 'iap-1' } },
      { _id: rootTasks[1], id: 'workflow_start', job: { _id: root, name: 'Service workflow' }, name: 'workflow_start', app: 'WorkFlowEngine', type: 'automatic', status: 'complete', metrics: { start_time: now - 5000, end_time: now - 5000, server_id: 'iap-1' } },
      // A document with a status the console's queue reads: the service's, not the console's to run.
      { _id: queuedTask, id: 'e5f6', job: { _id: child }, name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', status: 'queued', variables: { incoming: { str: 'x' } }, metrics: {} },
    ]);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'service-db-'));
    const profileDir = path.join(dataDir, 'profiles', 'site');
    await mkdir(profileDir, { recursive: true });
    await writeFile(path.join(profileDir, 'properties.json'), JSON.stringify({ id: 'site', mongoProps: { url: mongo.url, db: 'pronghorn' } }));
    await writeFile(path.join(dataDir, 'console.json'), JSON.stringify({ activeProfile: 'site' }));
    host = await startTestHost({ dataDir });
  }, 30_000);

  afterAll(async () => {
    await host?.dispose();
    await client?.close();
    await mongo?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const api = async (url: string, init?: Parameters<TestHost['api']>[1]) => {
    const response = await host.api(url, init);
    return { status: response.status, body: (await response.json()) };
  };

  it('lists its jobs and opens one by its ObjectId, whole, with its task documents', async () => {
    const list = await api('/operations-manager/jobs');
    expect(list.status).toBe(200);
    expect(list.body.data.map((j: any) => j._id).sort()).toEqual([root.toHexString(), child.toHexString()].sort());
    expect(list.body.data.find((j: any) => j._id === child.toHexString())).toMatchObject({ type: 'automation', ancestors: [root.toHexString(), child.toHexString()], last_updated: new Date(now - 3000).toISOString() });
    // The service's query forms on its own documents: a child by ancestors.0.
    expect((await api(`/operations-manager/jobs?equals[ancestors.0]=${root.toHexString()}`)).body.metadata.total).toBe(2);

    const opened = await api(`/operations-manager/jobs/${root.toHexString()}`);
    expect(opened.status).toBe(200);
    const job = opened.body.data;
    expect(job).toMatchObject({ _id: root.toHexString(), writtenBy: 'service', name: 'Service workflow', status: 'running', variables: { device: 'r1' }, ancestors: [root.toHexString()], tasks: { a1b2: { name: 'restCall' } } });
    expect(job.taskRuns.map((t: any) => t._id).sort()).toEqual(rootTasks.map((id) => id.toHexString()).sort());
    const rest = job.taskRuns.find((t: any) => t.taskId === 'a1b2');
    expect(rest).toMatchObject({ name: 'restCall', status: 'running', incoming: { uri: '/x' }, job: { _id: root.toHexString(), name: 'Service workflow' }, metrics: { server_id: 'iap-1' } });
    expect(job.children).toEqual([child.toHexString()]);
  });

  it("refuses an operator's action on its jobs with a 409 that says to act on the service, and changes nothing", async () => {
    for (const action of ['cancel', 'pause']) {
      const refused = await api(`/operations-manager/jobs/${root.toHexString()}/${action}`, { method: 'POST' });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain(`${action} it on the service`);
    }
    const retry = await api(`/operations-manager/jobs/${root.toHexString()}/tasks/a1b2/retry`, { method: 'POST' });
    expect(retry.status).toBe(409);
    const bulk = await api('/operations-manager/jobs/cancel', { method: 'POST', json: { jobIds: [root.toHexString()] } });
    expect(bulk.body.data).toMatchObject({ done: 0, failed: 1 });
    expect(bulk.body.data.results[0].message).toContain('on the service');
    expect(await db.collection('jobs').findOne({ _id: root })).toMatchObject({ status: 'running' });
    expect(await db.collection('tasks').findOne({ _id: rootTasks[0] })).toMatchObject({ status: 'running' });
  });

  it('its worker claims none of the task documents the service wrote', async () => {
    // The worker runs (processTasksOnStart defaults to true) and polls: give it several rounds.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const queued = await db.collection('tasks').findOne({ _id: queuedTask });
    expect(queued).toMatchObject({ status: 'queued', metrics: {} });
    expect(queued).not.toHaveProperty('workerId');
    expect(await db.collection('tasks').countDocuments({ workerId: { $exists: true } })).toBe(0);
  });
});
