// On a store without transactions (MongoDB) a task's end is marked `advanced: true` after its
// job was advanced. That mark is bookkeeping for the recovery pass: the job's next task,
// handed to the same worker, starts while it is written rather than a round trip later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Update } from '../../../core/store/port';
import { interceptCollections } from '../../store/support/intercept';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { stepsWorkflow } from '../../store/support/steps';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[mark while the next task runs] skipped: ${found.unavailable}`);

describe.skipIf('unavailable' in found)('the advanced mark on MongoDB (wire test server)', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await startJongodb();
  });
  afterAll(() => mongo?.stop());

  it("a job's next task starts while its previous task's mark is still being written, and every record ends marked", async () => {
    const inner = openMongoStore({ url: mongo.url, db: 'mark_while_next_runs' });
    let secondStarted!: () => void;
    const second = new Promise<void>((resolve) => (secondStarted = resolve));
    let marksHeld = 0;
    // Each mark's write waits for t2 to start (3 s at most, so a runner that waits for the mark first still ends).
    const holdMark = async (update: Update) => {
      if ((update as { $set?: { advanced?: boolean } }).$set?.advanced !== true) return;
      marksHeld++;
      await Promise.race([second, new Promise((r) => setTimeout(r, 3_000))]);
      marksHeld--;
    };
    const store = interceptCollections(inner, (name, tasks) =>
      name === 'tasks'
        ? {
            updateOne: async (filter, update) => (await holdMark(update), tasks.updateOne(filter, update)),
            updateMany: async (filter, update) => (await holdMark(update), tasks.updateMany(filter, update)),
          }
        : undefined,
    );
    const heldWhenT2Started: number[] = [];
    const upperCase: TaskMethodRunner = async (_task, incoming, options) => {
      if (options?.iteration === 0 && String(incoming.step) === 't2') {
        heldWhenT2Started.push(marksHeld);
        secondStarted();
      }
      return { state: 'success', outgoing: { uppercaseString: String(incoming.str).toUpperCase() } };
    };
    await store.collection('workflows').insertOne(stepsWorkflow('two', 2));
    const engine = new Engine({ store, serverId: 's', serverName: 's', processTasksOnStart: true, runMethod: upperCase, worker: { idleMs: 5 } });
    try {
      await engine.open();
      const job = await engine.runner.start('two', { variables: { text: 'abc' } });
      await expect.poll(async () => (await engine.runner.job(job._id))?.status, { timeout: 15_000 }).toBe('complete');
      expect((await engine.runner.job(job._id))?.variables).toMatchObject({ result: 'ABC' });
      // t1's mark was still on its way when t2 started.
      expect(heldWhenT2Started).toEqual([1]);
      await expect.poll(async () => inner.collection('tasks').count({ jobId: job._id, taskId: { $in: ['t1', 't2'] }, advanced: true }), { timeout: 10_000 }).toBe(2);
    } finally {
      await engine.close();
      await inner.close();
    }
  });
});
