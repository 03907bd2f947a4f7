// The Jobs list sorted by duration (end time minus start time; a job not ended counts to now),
// paged by the server, and the ids a bulk action takes from the list's filter ("all N matching").
// On the embedded store, with jobs whose times are chosen.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import type { Store } from '../../../core/store/port';
import { jobDuration, listJobs, matchingJobIds, type JobsQuery } from '../../../core/engine/jobs/list';
import type { JobDoc } from '../../../core/engine/jobs/types';
import type { TaskRecord } from '../../../core/engine/queue/queue';

const NOW = Date.now();
const job = (n: number, start: number, took: number | undefined, status = took === undefined ? 'running' : 'complete', name = 'deploy') => ({
  _id: `job-${String(n).padStart(3, '0')}`,
  name,
  description: `change ${n}`,
  status,
  variables: {},
  metrics: { start_time: start, ...(took !== undefined ? { end_time: start + took } : {}), user: 'test' },
  children: [],
  tasks: {},
  transitions: {},
});

describe('jobs sorted by duration, and the ids of every matching job', () => {
  let dir: string;
  let store: Store;
  let list: (query: Partial<JobsQuery>) => ReturnType<typeof listJobs>;
  let deps: Parameters<typeof matchingJobIds>[0];
  // Started later is not shorter: the long job started last, and a running job has been going for an hour.
  const seeded = [
    job(1, NOW - 10_000_000, 1_000),
    job(2, NOW - 9_000_000, 60_000),
    job(3, NOW - 8_000_000, 5_000, 'error', 'backup'),
    job(4, NOW - 3_600_000, undefined),
    job(5, NOW - 1_000_000, 900_000),
    job(6, NOW - 500_000, 5_000),
  ];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'list-duration-'));
    store = await openEmbeddedStore(path.join(dir, 'db'));
    await store.collection('jobs').insertMany(seeded);
    const jobs = store.collection<JobDoc>('jobs');
    const tasks = store.collection<TaskRecord>('tasks');
    deps = { jobs, tasks };
    list = (query) => listJobs({ jobs, tasks, workflowNames: async () => ['deploy', 'backup'] }, { skip: 0, limit: 100, ...query });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('"Took" longest first: the running job (an hour so far), then 15 min, 1 min; ties newest first', async () => {
    const { results, total } = await list({ sort: 'duration', order: 'desc' });
    expect(total).toBe(6);
    expect(results.map((r) => r._id)).toEqual(['job-004', 'job-005', 'job-002', 'job-006', 'job-003', 'job-001']);
    const shortest = await list({ sort: 'duration', order: 'asc', limit: 2 });
    expect(shortest.results.map((r) => r._id)).toEqual(['job-001', 'job-006']);
  });

  it('pages by duration under the filters: page after page is the whole sorted list', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), fc.constantFrom(undefined, 'deploy'), async (limit, order, workflow) => {
        const whole = (await list({ sort: 'duration', order, workflow })).results;
        const paged = [];
        for (let skip = 0; skip < whole.length; skip += limit) paged.push(...(await list({ sort: 'duration', order, workflow, skip, limit })).results);
        expect(paged.map((r) => r._id)).toEqual(whole.map((r) => r._id));
        const took = whole.map((r) => jobDuration(r, Date.now()));
        for (let i = 1; i < took.length; i++) expect(order === 'asc' ? took[i]! >= took[i - 1]! - 1000 : took[i]! <= took[i - 1]! + 1000).toBe(true);
      }),
      { numRuns: 15 },
    );
  });

  it('the ids a bulk action takes from a filter are every matching job, not a page of them', async () => {
    expect(await matchingJobIds(deps, {})).toHaveLength(6);
    expect(await matchingJobIds(deps, { workflow: 'backup' })).toEqual(['job-003']);
    expect(await matchingJobIds(deps, { status: 'complete' })).toEqual(['job-006', 'job-005', 'job-002', 'job-001']);
    expect(await matchingJobIds(deps, { q: 'change 5' })).toEqual(['job-005']);
  });
});
