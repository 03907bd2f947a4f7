// `advanced: true` marks on a store without transactions (MongoDB): those asked for while a
// write is on its way go together in the next one, and each caller waits for its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdvancedMarks } from '../../../core/engine/queue/advanced-marks';
import type { TaskRecord } from '../../../core/engine/queue/queue';
import type { Collection } from '../../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Store } from '../../../core/store/port';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`advanced-marks: the wire test server is not here (${found.unavailable}); those cases are skipped`);

describe.skipIf('unavailable' in found)('advanced marks on the MongoDB adapter (wire test server)', () => {
  let server: TestMongo;
  let store: Store;
  beforeEach(async () => {
    server = await startJongodb();
    store = openMongoStore({ url: server.url, db: 'marks' });
  });
  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  it('writes marks asked for while one is on its way in one call, and every record says advanced', async () => {
    const tasks = store.collection<TaskRecord>('tasks');
    await tasks.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `r${i}`, jobId: 'j', advanced: false }) as unknown as TaskRecord));
    const calls: string[] = [];
    const counted = new Proxy(tasks, {
      get(target, key) {
        const value = Reflect.get(target, key);
        if (key === 'updateOne' || key === 'updateMany') return (...args: unknown[]) => (calls.push(String(key)), (value as (...a: unknown[]) => unknown).apply(target, args));
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const marks = new AdvancedMarks(counted);
    await Promise.all(Array.from({ length: 10 }, (_, i) => marks.mark(`r${i}`)));
    // The first goes at once; the nine asked for meanwhile, together.
    expect(calls).toEqual(['updateOne', 'updateMany']);
    expect(await tasks.count({ advanced: true })).toBe(10);
  });
});

describe('advanced marks when the store fails', () => {
  it('tells each caller of a batch that its write failed', async () => {
    const failing = {
      updateOne: async () => {
        throw new Error('the server is gone');
      },
      updateMany: async () => {
        throw new Error('the server is gone');
      },
    } as unknown as Collection<TaskRecord>;
    const marks = new AdvancedMarks(failing);
    const results = await Promise.allSettled([marks.mark('a'), marks.mark('b'), marks.mark('c')]);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'ok'))).toEqual(['the server is gone', 'the server is gone', 'the server is gone']);
    // Another mark after a failure is written again (the loop was not left stuck).
    await expect(marks.mark('d')).rejects.toThrow('the server is gone');
  });
});
