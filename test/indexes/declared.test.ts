// The declared indexes: MongoDB's default names, the collections of the reference,
// and each index really serving the query it is declared for.
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredCollections, declaringApplications, defaultIndexName, findDeclaringApplication } from '../../core/indexes/declared';
import { indexServes } from '../../core/indexes/serves';

describe('declared indexes', () => {
  it('covers exactly the collections of the reference, per owning application', () => {
    const owners = Object.fromEntries(declaringApplications.map((app) => [app.name, app.collections.map((c) => c.collection)]));
    expect(owners).toEqual({
      workflow_engine: ['jobs', 'job_history', 'tasks', 'workflows', 'wfe_job_metrics', 'wfe_task_metrics'],
      mop: ['mop_templates', 'mop_analytic_templates'],
      service_catalog: ['catalog_store'],
    });
  });

  it("names every index in MongoDB's default form, but those the service's tools name", () => {
    expect(defaultIndexName({ status: 1, 'metrics.start_time': -1 })).toBe('status_1_metrics.start_time_-1');
    const named = new Map([
      ['itential_status', { status: 1, _id: 1 }],
      ['iap_status_server_id', { status: 1, 'metrics.server_id': 1 }],
    ]);
    for (const c of declaredCollections) {
      for (const index of c.indexes) expect(index.name === defaultIndexName(index.key) || named.get(index.name)).toBeTruthy();
      for (const index of c.indexes) if (named.has(index.name)) expect(index.key).toEqual(named.get(index.name));
      expect(new Set(c.indexes.map((i) => i.name)).size).toBe(c.indexes.length);
    }
  });

  it('keeps workflow names unique', () => {
    const workflows = declaredCollections.find((c) => c.collection === 'workflows')!;
    expect(workflows.indexes).toContainEqual(expect.objectContaining({ name: 'name_1', unique: true }));
  });

  it('finds an application by its name, package name or health name', () => {
    expect(findDeclaringApplication('workflow_engine')?.name).toBe('workflow_engine');
    expect(findDeclaringApplication('app-mop')?.name).toBe('mop');
    expect(findDeclaringApplication('ServiceCatalog')?.name).toBe('service_catalog');
    expect(findDeclaringApplication('nope')).toBeUndefined();
  });
});

// The queries the engine and the console make (interfaces between the tasks), each
// with the declared index that must serve it.
const NOW = new Date();
const engineQueries: { what: string; collection: string; index: string; filter: Record<string, unknown>; sort?: Record<string, 1 | -1> }[] = [
  { what: 'claim', collection: 'tasks', index: 'status_1_queuedAt_1_runAfter_1', filter: { status: 'queued', runAfter: { $lte: NOW } }, sort: { queuedAt: 1 } },
  { what: 'sweeper', collection: 'tasks', index: 'status_1_leaseUntil_1', filter: { status: 'running', leaseUntil: { $lt: NOW } } },
  { what: 'jobs by status', collection: 'jobs', index: 'status_1_metrics.start_time_-1', filter: { status: 'error' }, sort: { 'metrics.start_time': -1 } },
  { what: 'jobs by name', collection: 'jobs', index: 'name_1_metrics.start_time_-1', filter: { name: 'wf' }, sort: { 'metrics.start_time': -1 } },
  { what: 'jobs by status in a time window', collection: 'jobs', index: 'status_1_metrics.start_time_-1', filter: { status: 'error', 'metrics.start_time': { $gte: 1, $lte: 2 } }, sort: { 'metrics.start_time': -1 } },
  { what: 'jobs by workflow and status', collection: 'jobs', index: 'name_1_metrics.start_time_-1', filter: { name: 'wf', status: 'error' }, sort: { 'metrics.start_time': -1 } },
  { what: 'jobs in a time window', collection: 'jobs', index: 'metrics.start_time_-1', filter: { 'metrics.start_time': { $gte: 1 } }, sort: { 'metrics.start_time': -1 } },
  { what: 'all jobs', collection: 'jobs', index: 'metrics.start_time_-1', filter: {}, sort: { 'metrics.start_time': -1 } },
  { what: 'tasks of a job', collection: 'tasks', index: 'jobId_1_queuedAt_1', filter: { jobId: 'j' }, sort: { queuedAt: 1 } },
  { what: 'cancel a job\'s tasks', collection: 'tasks', index: 'jobId_1_queuedAt_1', filter: { jobId: 'j', status: { $in: ['queued', 'running'] } } },
  { what: 'unadvanced tasks', collection: 'tasks', index: 'advanced_1_metrics.end_time_1', filter: { advanced: false, 'metrics.end_time': { $lt: 1 } }, sort: { 'metrics.end_time': 1 } },
  { what: 'half-started jobs (recovery)', collection: 'jobs', index: 'status_1_last_updated_1', filter: { status: 'running', last_updated: { $lt: 2, $gte: 1 } }, sort: { last_updated: 1 } },
  { what: 'child jobs', collection: 'jobs', index: 'parent.job_1_metrics.start_time_1', filter: { 'parent.job': 'j' }, sort: { 'metrics.start_time': 1 } },
  { what: 'workflows list', collection: 'workflows', index: 'name_1', filter: {}, sort: { name: 1 } },
  { what: 'workflow by name', collection: 'workflows', index: 'name_1', filter: { name: 'wf' } },
];

describe('each declared index serves its query (key-prefix analysis)', () => {
  for (const c of declaredCollections) {
    for (const index of c.indexes) {
      it(`${c.collection}.${index.name}: ${index.purpose}`, () => {
        const fit = indexServes(index.key, index.query);
        console.log(`[key prefix] ${c.collection}.${index.name}: ${fit.reason}`);
        expect(fit, fit.reason).toMatchObject({ serves: true });
      });
    }
  }

  for (const q of engineQueries) {
    it(`the ${q.what} query is served by ${q.collection}.${q.index}`, () => {
      const index = declaredCollections.find((c) => c.collection === q.collection)!.indexes.find((i) => i.name === q.index);
      expect(index, `${q.index} is declared on ${q.collection}`).toBeDefined();
      expect(indexServes(index!.key, { filter: q.filter, sort: q.sort }).serves).toBe(true);
    });
  }

  it('tells when a key cannot serve a query', () => {
    expect(indexServes({ queuedAt: 1, status: 1 }, { filter: { status: 'queued' }, sort: { queuedAt: 1 } }).serves).toBe(true);
    expect(indexServes({ runAfter: 1, status: 1 }, { filter: { status: 'queued' }, sort: { queuedAt: 1 } })).toMatchObject({ serves: false });
    expect(indexServes({ status: 1, 'metrics.start_time': 1 }, { filter: { status: 'x' }, sort: { 'metrics.start_time': -1 } }).serves).toBe(true);
    expect(indexServes({ a: 1, b: 1 }, { filter: {}, sort: { a: 1, b: -1 } }).serves).toBe(false);
    expect(indexServes({ name: 1 }, { filter: { status: 'x' } }).serves).toBe(false);
  });
});

// Where a real MongoDB is at hand, its query planner says which index a query uses.
const mongoUrl = process.env.MONGODB_URL;
describe.runIf(Boolean(mongoUrl))('each declared index serves its query (explain on MongoDB)', () => {
  let client: MongoClient;
  const dbName = `indexes_explain_${process.pid}`;
  afterAll(async () => {
    await client?.db(dbName).dropDatabase();
    await client?.close();
  });

  const stages = (plan: Record<string, unknown> | undefined): Record<string, unknown>[] => {
    if (!plan) return [];
    const children = [plan.inputStage, ...((plan.inputStages as unknown[]) ?? [])] as Record<string, unknown>[];
    return [plan, ...children.flatMap((child) => stages(child))];
  };

  it('uses the declared index without sorting in memory', async () => {
    client = await MongoClient.connect(mongoUrl!, { serverSelectionTimeoutMS: 5000 });
    const db = client.db(dbName);
    for (const c of declaredCollections) {
      const collection = db.collection(c.collection);
      // Varied data, so the planner has a reason to prefer one index over another.
      await collection.insertMany(
        Array.from({ length: 300 }, (_v, i) => ({
          status: ['queued', 'running', 'complete', 'error'][i % 4],
          name: `n${i}`,
          app: `a${i % 7}`,
          jobId: `j${i % 50}`,
          workflow: `w${i % 20}`,
          queuedAt: new Date(Date.now() - i * 1000),
          runAfter: new Date(Date.now() - i * 500),
          leaseUntil: new Date(Date.now() + (i % 2 ? 1 : -1) * i * 1000),
          timestamp: i,
          metrics: { start_time: new Date(Date.now() - i * 1000) },
        })),
      );
      for (const index of c.indexes) await collection.createIndex(index.key, { name: index.name, unique: index.unique });
      for (const index of c.indexes) {
        const explained = (await collection.find(index.query.filter).sort(index.query.sort ?? {}).explain('queryPlanner')) as {
          queryPlanner: { winningPlan: Record<string, unknown> & { queryPlan?: Record<string, unknown> } };
        };
        const winning = explained.queryPlanner.winningPlan.queryPlan ?? explained.queryPlanner.winningPlan;
        const all = stages(winning);
        const used = all.filter((s) => s.stage === 'IXSCAN').map((s) => s.indexName);
        console.log(`[explain] ${c.collection}.${index.name}: plan uses ${used.join(', ') || 'no index'}`);
        expect(used, `${c.collection}: ${index.purpose}`).toContain(index.name);
        expect(all.map((s) => s.stage)).not.toContain('SORT');
      }
    }
  });
});
if (!mongoUrl) console.log('[explain] skipped: MONGODB_URL is not set, so only the key-prefix analysis checks the declared indexes');
