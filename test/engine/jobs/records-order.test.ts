// A job's task records come back oldest first (by queuedAt), as MongoDB's sort orders them: the
// engine orders numbers itself (core/engine/jobs/reads.ts), and leaves any other value to the
// store's sorted find. Oracle: MongoDB's sort order (null before numbers before strings), with
// fast-check's queue times in any insertion order.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { openEmbeddedStore, type EmbeddedStore } from '../../../core/store/embedded/store';

let dir: string;
let store: EmbeddedStore;
let engine: Engine;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'records-order-'));
  // No index on jobId and queuedAt: an unsorted find answers the rows as inserted.
  store = await openEmbeddedStore(path.join(dir, 'db'));
  engine = await new Engine({ store, serverId: 's', serverName: 's', processTasksOnStart: false }).open();
});
afterAll(async () => {
  await engine.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a job's task records", () => {
  it('come back oldest first whatever order they were written in', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 0, max: 1e13 }), { minLength: 1, maxLength: 8 }), async (times) => {
        const jobId = `job-${n++}`;
        await store.collection('tasks').insertMany(times.map((queuedAt, i) => ({ _id: `${jobId}:${i}`, jobId, taskId: `t${i}`, queuedAt })));
        const records = await engine.runner.records(jobId);
        expect(records.map((r) => r.queuedAt)).toEqual([...times].sort((a, b) => a - b));
      }),
      { numRuns: 25 },
    );
  });

  it('of other types are ordered as MongoDB orders them (null, numbers, strings)', async () => {
    const jobId = 'mixed';
    await store.collection('tasks').insertMany([
      { _id: 'm:3', jobId, taskId: 'c', queuedAt: 3 },
      { _id: 'm:s', jobId, taskId: 's', queuedAt: 'later' },
      { _id: 'm:1', jobId, taskId: 'a', queuedAt: 1 },
      { _id: 'm:n', jobId, taskId: 'n', queuedAt: null },
    ]);
    expect((await engine.runner.records(jobId)).map((r) => r._id)).toEqual(['m:n', 'm:1', 'm:3', 'm:s']);
  });
});
