// The operator's cockpit on a big console: what needs attention (one call), the Jobs
// page's first request with its counts, "waiting for an operator", free text over
// description, id and variables, and the work queue, with BENCH_COCKPIT_JOBS (20,000)
// jobs stored on the embedded store, 2% in error and 1% waiting for an operator, the
// engine's declared indexes created. Each figure is the median of 5 runs.
// Run alone: node --import tsx bench/cockpit.ts
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openEmbeddedStore } from '../core/store/embedded/store';
import type { Store } from '../core/store/port';
import { listJobs, type JobsQuery } from '../core/engine/jobs/list';
import type { JobDoc } from '../core/engine/jobs/types';
import type { TaskRecord } from '../core/engine/queue/queue';
import { createAttentionService } from '../core/attention/service';
import { createWorklistService } from '../core/worklist/service';
import { declaredCollections, indexesBuiltOn } from '../core/indexes/declared';

const JOBS = Number(process.env.BENCH_COCKPIT_JOBS ?? 20_000);
const WORKFLOWS = 20;

async function seed(store: Store) {
  for (const declared of declaredCollections.filter((c) => ['jobs', 'tasks', 'workflows'].includes(c.collection))) {
    for (const index of indexesBuiltOn(declared, store.kind)) await store.collection(declared.collection).createIndex({ key: index.key, name: index.name, unique: index.unique, partialFilterExpression: index.partialFilterExpression });
  }
  await store.collection('workflows').insertMany(Array.from({ length: WORKFLOWS }, (_v, i) => ({ name: `workflow-${i}`, tasks: {}, transitions: {} })));
  const base = Date.now() - JOBS * 1000;
  for (let i = 0; i < JOBS; i += 1000) {
    const jobs = [];
    const tasks = [];
    for (let n = i; n < Math.min(JOBS, i + 1000); n++) {
      const status = n % 50 === 0 ? 'error' : n % 100 === 1 ? 'running' : 'complete';
      jobs.push({
        _id: `job-${n}`,
        name: `workflow-${n % WORKFLOWS}`,
        description: `change ${n}`,
        status,
        variables: { ticket: `INC-${n}`, device: `router-${n % 300}` },
        metrics: { start_time: base + n * 1000, ...(status === 'complete' ? { end_time: base + n * 1000 + 500 } : {}), user: 'bench' },
        ...(status === 'error' ? { error: 'task cp (codePointAt) failed with no error transition' } : {}),
        children: [],
        tasks: { ask: { name: 'approve', type: 'manual', variables: { outgoing: { decision: '' } } } },
        transitions: {},
      });
      if (status === 'running') {
        tasks.push({ _id: `job-${n}:ask:0`, jobId: `job-${n}`, taskId: 'ask', iteration: 0, name: 'approve', app: 'WorkFlowEngine', type: 'manual', status: 'waiting', queuedAt: base + n * 1000, runAfter: 0, attempt: 0, metrics: {} });
      }
    }
    await store.collection('jobs').insertMany(jobs);
    if (tasks.length) await store.collection('tasks').insertMany(tasks);
  }
}

async function median(work: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(runs / 2)]! * 10) / 10;
}

export async function benchCockpit() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-cockpit-'));
  const store = await openEmbeddedStore(path.join(dir, 'db'));
  try {
    await seed(store);
    const jobs = store.collection<JobDoc>('jobs');
    const tasks = store.collection<TaskRecord>('tasks');
    const deps = { jobs, tasks, workflowNames: async () => (await store.collection('workflows').find({}, { projection: { name: 1 } })).map((w) => String(w.name)) };
    const list = (query: Partial<JobsQuery>) => listJobs(deps, { skip: 0, limit: 100, ...query });
    const attention = createAttentionService({
      jobs: () => jobs,
      tasks: () => tasks,
      adapters: async () => [],
      applications: () => [],
      indexes: async () => [],
      deprecatedCalls: () => [],
      worker: () => ({ profile: 'bench', processTasksOnStart: true, running: true }),
    });
    const worklist = createWorklistService({ tasks: () => tasks, jobs: () => jobs, jobTasks: async (id) => (await jobs.findOne({ _id: id }))?.tasks });
    const sample = await attention.summary();
    const found = (id: string) => sample.items.find((i) => i.id === id)?.count;
    return [
      {
        store: 'embedded',
        jobs: JOBS,
        'in error / waiting found': `${found('jobs-error')} / ${found('operator-tasks')}`,
        'attention ms': await median(() => attention.summary()),
        'jobs page 1 + counts ms': await median(() => list({ counts: true })),
        'status=waiting ms': await median(() => list({ status: 'waiting' })),
        'q=INC-12345 (text) ms': await median(() => list({ q: 'INC-12345' })),
        'sort=name asc ms': await median(() => list({ sort: 'name', order: 'asc' })),
        'worklist ms': await median(() => worklist.list({ skip: 0, limit: 100 })),
      },
    ];
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  console.table(await benchCockpit());
}
