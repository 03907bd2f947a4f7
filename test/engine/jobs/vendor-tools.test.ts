// The service's vendor tools run against the console's documents (DESIGN.md "Data"): the job and
// task archiver (itential/job-and-task-archiver: phase 1, phase 2 and the cascade by `job._id`), the
// orphan archiver's pipeline (a task whose `job._id` names no job), and the job metrics exporter's
// groupings (itential/job-metrics-exporter: jobs by status, tasks by status and `metrics.server_id`).
// Their filters and pipelines are copied here as the tools send them. On the wire test server they
// run as they are (the driver's find and aggregate); on the embedded store the filters run through
// the store, and the pipelines' few stages ($lookup, $match, $group) are evaluated over the
// store's finds. Each finds exactly what it should, and no live job's task is an orphan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { Engine } from '../../../core/engine/index';
import type { JobDoc } from '../../../core/engine/jobs/types';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Doc, Filter, Store } from '../../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { tempEmbeddedStore, waitFor, workflow } from '../queue/support';

// ── The tools' queries, as they send them ────────────────────────────────────────────────────────

/** job-and-task-archiver's statusDateField: error jobs age off their start, the others off their end. */
const statusDateField = (status: string) => (status === 'error' ? 'metrics.start_time' : 'metrics.end_time');
/** Phase 1: parent jobs (exactly one ancestor: themselves) of a status, older than the cutoff. */
const phase1 = (status: string, cutoffMs: number): Filter => ({
  $and: [{ [statusDateField(status)]: { $lt: cutoffMs } }, { status }, { ancestors: { $size: 1 } }],
});
/** Phase 2: every job whose first ancestor is one of the parents. */
const phase2 = (parentIds: string[]): Filter => ({ 'ancestors.0': { $in: parentIds } });
/** The cascade: what is exported and deleted with the jobs, by collection and key. */
const CASCADE = [
  { collection: 'tasks', key: 'job._id' },
  { collection: 'job_data', key: 'job_id' },
  { collection: 'jobs', key: '_id' },
] as const;
/** orphan-archiver's directOrphanPipeline for tasks. */
const orphanTasks = [
  { $lookup: { from: 'jobs', localField: 'job._id', foreignField: '_id', as: '_job' } },
  { $match: { _job: { $size: 0 } } },
  { $project: { _id: 1 } },
];
/** job-metrics-exporter: JobsByStatus / TasksByStatus, TasksByServerID, TasksByActiveStatusAndServer, TasksByCompletedAndServer. */
const byStatus = [{ $group: { _id: '$status', count: { $sum: 1 } } }];
const runningByServer = [{ $match: { status: 'running' } }, { $group: { _id: '$metrics.server_id', count: { $sum: 1 } } }];
const activeByStatusAndServer = [
  { $match: { status: { $in: ['running', 'error'] } } },
  { $group: { _id: { status: '$status', server_id: '$metrics.server_id' }, count: { $sum: 1 } } },
];
const completedByServer = [{ $match: { status: 'complete' } }, { $group: { _id: { status: '$status', server_id: '$metrics.server_id' }, count: { $sum: 1 } } }];

// ── Where they run ───────────────────────────────────────────────────────────────────────────────

type Stage = Record<string, unknown>;
interface Subject {
  name: string;
  open(): Promise<{ store: Store; find(collection: string, filter: Filter): Promise<Doc[]>; aggregate(collection: string, pipeline: Stage[]): Promise<Doc[]>; dispose(): Promise<void> }>;
}

const read = (doc: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), doc);
const groupKey = (spec: unknown, doc: Doc): unknown =>
  typeof spec === 'string' ? read(doc, spec.slice(1)) : Object.fromEntries(Object.entries(spec as Record<string, string>).map(([k, v]) => [k, read(doc, v.slice(1))]));

/** The exporter's $group: a count per value of its key. */
function group(docs: Doc[], key: unknown): Doc[] {
  const groups = new Map<string, Doc>();
  for (const d of docs) {
    const value = groupKey(key, d) ?? null;
    const found = groups.get(JSON.stringify(value)) ?? { _id: value as string, count: 0 };
    found.count = Number(found.count) + 1;
    groups.set(JSON.stringify(value), found);
  }
  return [...groups.values()];
}

/** The exporter's and orphan archiver's stages, over the embedded store's finds. */
async function evaluate(store: Store, collection: string, pipeline: Stage[]): Promise<Doc[]> {
  let docs: Doc[] | undefined;
  for (const stage of pipeline) {
    const [op, spec] = Object.entries(stage)[0]! as [string, Record<string, unknown>];
    if (op === '$match') {
      // A filter on stored fields goes to the store; one on a field a stage made is read here.
      if (docs === undefined) docs = await store.collection(collection).find(spec);
      else docs = docs.filter((d) => Object.entries(spec).every(([f, c]) => ((c as { $size: number }).$size === (read(d, f) as unknown[]).length)));
    } else if (op === '$lookup') {
      docs ??= await store.collection(collection).find({});
      const from = store.collection(String(spec.from));
      for (const d of docs) d[String(spec.as)] = await from.find({ [String(spec.foreignField)]: read(d, String(spec.localField)) ?? null });
    } else if (op === '$project') {
      docs = (docs ?? []).map((d) => ({ _id: d._id }));
    } else if (op === '$group') {
      docs = group(docs ?? (await store.collection(collection).find({})), spec._id);
    } else throw new Error(`stage ${op} is not one the tools use`);
  }
  return docs ?? [];
}

const JONGODB_GROUPS = 'the jongodb test server takes a $group _id of several fields as a literal';
let warned = false;

/** The pipeline on the server; a compound $group key, which jongodb does not evaluate, grouped here over the server's stages before it. */
async function aggregateOnServer(db: Db, collection: string, pipeline: Stage[]): Promise<Doc[]> {
  const at = pipeline.findIndex((stage) => '$group' in stage && typeof (stage.$group as { _id: unknown })._id === 'object');
  if (at < 0) return (await db.collection(collection).aggregate(pipeline).toArray());
  if (!warned) console.warn(`[vendor tools on the wire test server] ${JONGODB_GROUPS}: its grouping is done by the test over the server's $match`);
  warned = true;
  const before = (await db.collection(collection).aggregate(pipeline.slice(0, at)).toArray()) as Doc[];
  return group(before, (pipeline[at]!.$group as { _id: unknown })._id);
}

const subjects: Subject[] = [
  {
    name: 'embedded store',
    async open() {
      const { store, dispose } = await tempEmbeddedStore();
      return { store, dispose, find: (c, f) => store.collection(c).find(f), aggregate: (c, p) => evaluate(store, c, p) };
    },
  },
];
const found = jongodbBinary();
let mongo: TestMongo | undefined;
if ('unavailable' in found) console.warn(`[vendor tools on the wire test server] skipped: ${found.unavailable}`);
else {
  beforeAll(async () => {
    mongo = await startJongodb();
  }, 30_000);
  afterAll(async () => mongo?.stop());
  subjects.push({
    name: 'wire test server',
    async open() {
      if (!mongo) throw new Error('the wire test server did not start');
      const name = `vendor_${process.pid}_${Date.now()}`;
      const store = openMongoStore({ url: mongo.url, db: name });
      const client = await new MongoClient(mongo.url).connect();
      const db: Db = client.db(name);
      return {
        store,
        find: (c, f) => db.collection(c).find(f, { projection: { _id: 1 } }).toArray() as unknown as Promise<Doc[]>,
        aggregate: (c, p) => aggregateOnServer(db, c, p),
        async dispose() {
          await client.close();
          await store.close();
        },
      };
    },
  });
}

// ── The console's documents ──────────────────────────────────────────────────────────────────────

const viewData = { name: 'ViewData', type: 'manual', variables: { incoming: { header: 'Check', body: 'b', btn_success: 'OK', btn_failure: 'No', variables: '' } } };
const WORKFLOWS = [
  workflow('Child', { up: { name: 'toUpperCase', variables: { incoming: { str: 'x' }, outgoing: {} } } }, [['workflow_start', 'up'], ['up', 'workflow_end']]),
  workflow('Parent', { kid: { name: 'childJob', type: 'operation', variables: { incoming: { task: '', workflow: 'Child', variables: {} }, outgoing: {} } } }, [['workflow_start', 'kid'], ['kid', 'workflow_end']]),
  workflow('Fails', { bad: { name: 'arrayPop', variables: { incoming: { array: 'not an array' }, outgoing: {} } } }, [['workflow_start', 'bad'], ['bad', 'workflow_end']]),
  workflow('Waits', { check: viewData }, [['workflow_start', 'check'], ['check', 'workflow_end']]),
];

const ids = (docs: Doc[]) => docs.map((d) => String(d._id)).sort();

describe.each(subjects)('the vendor tools on the console documents: $name', (subject) => {
  let opened: Awaited<ReturnType<Subject['open']>>;
  let engine: Engine;
  let jobs: { parent: JobDoc; child: JobDoc; failed: JobDoc; live: JobDoc };
  let cutoff: number;

  beforeAll(async () => {
    opened = await subject.open();
    engine = await new Engine({ store: opened.store, serverId: 'console-1', serverName: 'console-1', processTasksOnStart: true, worker: { idleMs: 5 } }).open();
    await opened.store.collection('workflows').insertMany(WORKFLOWS);
    const settled = (id: string, status: string) => waitFor(`job ${id} ${status}`, async () => ((await engine.runner.job(id))?.status === status ? engine.runner.job(id) : undefined));
    const parent = await engine.runner.start('Parent');
    const failed = await engine.runner.start('Fails');
    const live = await engine.runner.start('Waits');
    await settled(parent._id, 'complete');
    await settled(failed._id, 'error');
    await waitFor('the manual task waiting', async () => (await opened.store.collection('tasks').count({ jobId: live._id, status: 'waiting' })) === 1);
    const child = (await engine.runner.job((await engine.runner.job(parent._id))!.children[0]!))!;
    jobs = { parent: (await engine.runner.job(parent._id))!, child, failed: (await engine.runner.job(failed._id))!, live };
    cutoff = Date.now() + 1;
  }, 60_000);

  afterAll(async () => {
    await engine?.close();
    await opened?.dispose();
  });

  it('stores the lineage the archiver reads: a root job is its own only ancestor, a child starts with its root', async () => {
    const raw = (id: string) => opened.store.collection('jobs').findOne({ _id: id });
    expect((await raw(jobs.parent._id))!.ancestors).toEqual([jobs.parent._id]);
    expect((await raw(jobs.child._id))!.ancestors).toEqual([jobs.parent._id, jobs.child._id]);
    expect((await raw(jobs.child._id))!.parent).toMatchObject({ job: jobs.parent._id, task: 'kid' });
    // A parent found by `ancestors`, its child by `ancestors.0`, its task documents by `job._id`.
    expect(ids(await opened.find('jobs', { ancestors: { $size: 1 }, _id: jobs.parent._id }))).toEqual([jobs.parent._id]);
    expect(ids(await opened.find('jobs', { 'ancestors.0': jobs.parent._id }))).toEqual([jobs.parent._id, jobs.child._id].sort());
    if (subject.name === 'wire test server') {
      // MongoDB's equality on an array: the root job and every job under it.
      expect(ids(await opened.find('jobs', { ancestors: jobs.parent._id }))).toEqual([jobs.parent._id, jobs.child._id].sort());
      expect(ids(await opened.find('jobs', { ancestors: jobs.child._id }))).toEqual([jobs.child._id]);
    } else console.warn('[vendor tools on the embedded store] equality on an array field (ancestors: id) not asked: the embedded store compares whole values (core/store/port.ts)');
    const tasks = await opened.store.collection('tasks').find({ jobId: jobs.parent._id });
    expect(tasks.length).toBeGreaterThan(0);
    expect(ids(await opened.find('tasks', { 'job._id': jobs.parent._id }))).toEqual(ids(tasks));
    // No field written as null for a value the engine left out (MongoDB's driver stores undefined as null).
    for (const task of tasks) expect(Object.entries(task).filter(([, value]) => value === null).map(([key]) => key), String(task._id)).toEqual([]);
  });

  it('archiver phase 1 finds the old finished parent jobs only; phase 2 adds their children; the cascade takes exactly their tasks', async () => {
    const parents: string[] = [];
    for (const status of ['complete', 'canceled', 'error']) parents.push(...ids(await opened.find('jobs', phase1(status, cutoff))));
    expect(parents.sort()).toEqual([jobs.parent._id, jobs.failed._id].sort());
    // Nothing is old yet an hour earlier.
    expect(await opened.find('jobs', phase1('complete', jobs.parent.metrics.start_time - 3_600_000))).toEqual([]);

    const all = ids(await opened.find('jobs', phase2(parents)));
    expect(all).toEqual([jobs.parent._id, jobs.child._id, jobs.failed._id].sort());

    const [tasks, jobData, jobDocs] = await Promise.all(CASCADE.map(({ collection, key }) => opened.find(collection, { [key]: { $in: all } })));
    const expected = await opened.store.collection('tasks').find({ jobId: { $in: all } });
    expect(ids(tasks!)).toEqual(ids(expected));
    expect(ids(tasks!).some((id) => id.startsWith(jobs.live._id))).toBe(false);
    expect(jobData).toEqual([]);
    expect(ids(jobDocs!)).toEqual(all);
  });

  it("the orphan pipeline finds no console task an orphan, and exactly a removed job's tasks once its document is gone", async () => {
    expect(await opened.aggregate('tasks', orphanTasks)).toEqual([]);
    const kept = await opened.store.collection('jobs').findOne({ _id: jobs.failed._id });
    const its = ids(await opened.store.collection('tasks').find({ jobId: jobs.failed._id }));
    await opened.store.collection('jobs').deleteOne({ _id: jobs.failed._id });
    try {
      expect(ids(await opened.aggregate('tasks', orphanTasks))).toEqual(its);
    } finally {
      await opened.store.collection('jobs').insertOne(kept!);
    }
    expect(await opened.aggregate('tasks', orphanTasks)).toEqual([]);
  });

  it("the metrics exporter's groupings count jobs by status and the tasks each server ran", async () => {
    const counts = (rows: Doc[]) => Object.fromEntries(rows.map((r) => [JSON.stringify(r._id), r.count]));
    expect(counts(await opened.aggregate('jobs', byStatus))).toEqual({ '"complete"': 2, '"error"': 1, '"running"': 1 });
    const tasks = await opened.store.collection('tasks').find({});
    const byTaskStatus: Record<string, number> = {};
    for (const t of tasks) byTaskStatus[JSON.stringify(t.status)] = (byTaskStatus[JSON.stringify(t.status)] ?? 0) + 1;
    expect(counts(await opened.aggregate('tasks', byStatus))).toEqual(byTaskStatus);
    // Nothing runs now; the error and every completed task the worker ran are this server's.
    expect(await opened.aggregate('tasks', runningByServer)).toEqual([]);
    expect(counts(await opened.aggregate('tasks', activeByStatusAndServer))).toEqual({ [JSON.stringify({ status: 'error', server_id: 'console-1' })]: 1 });
    const completed = tasks.filter((t) => t.status === 'complete').length;
    expect(counts(await opened.aggregate('tasks', completedByServer))).toEqual({ [JSON.stringify({ status: 'complete', server_id: 'console-1' })]: completed });
  });
});
