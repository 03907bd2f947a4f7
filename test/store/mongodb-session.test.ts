// The MongoDB adapter's session transaction (what an operator's action runs in): on a replica set
// the writes of the work's async context commit together or not at all, and a unit inside another
// joins it; on a standalone server, which has no transactions, the work runs as it is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMongoStore } from '../../core/store/mongodb/store';
import type { Store } from '../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from './jongodb';

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[MongoDB session transactions] skipped: ${found.unavailable}`);

const failing = async (store: Store, id: string) => {
  await expect(
    store.sessionTransaction!(async () => {
      await store.collection('things').insertOne({ _id: id, n: 1 });
      await store.collection('things').updateOne({ _id: 'kept' }, { $set: { n: 2 } });
      throw new Error('the work failed after its writes');
    }),
  ).rejects.toThrow('the work failed after its writes');
};

describe.skipIf('unavailable' in found)('MongoDB session transactions', () => {
  let replicaSet: TestMongo;
  let standalone: TestMongo;
  let rs: Store;
  let single: Store;
  beforeAll(async () => {
    [replicaSet, standalone] = await Promise.all([startJongodb({ replicaSet: 'rs0' }), startJongodb()]);
    rs = openMongoStore({ url: `${replicaSet.url}/?replicaSet=rs0`, db: 'session' });
    single = openMongoStore({ url: standalone.url, db: 'session' });
    for (const store of [rs, single]) await store.collection('things').insertOne({ _id: 'kept', n: 1 });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([rs?.close(), single?.close()]);
    await Promise.all([replicaSet?.stop(), standalone?.stop()]);
  });

  it('on a replica set, writes nothing of a work that fails, and commits a work that ends, with a unit inside it', async () => {
    await failing(rs, 'gone');
    expect(await rs.collection('things').findOne({ _id: 'gone' })).toBeNull();
    expect(await rs.collection('things').findOne({ _id: 'kept' })).toMatchObject({ n: 1 });

    await rs.sessionTransaction!(async () => {
      await rs.collection('things').insertOne({ _id: 'outer' });
      await rs.sessionTransaction!(() => rs.collection('things').insertOne({ _id: 'inner' }));
      // Reads inside the unit see its own writes.
      expect(await rs.collection('things').count({ _id: { $in: ['outer', 'inner'] } })).toBe(2);
    });
    expect(await rs.collection('things').count({ _id: { $in: ['outer', 'inner'] } })).toBe(2);
  });

  it('on a standalone server, runs the work as it is (its writes before the failure stay)', async () => {
    await failing(single, 'stays');
    expect(await single.collection('things').findOne({ _id: 'stays' })).toMatchObject({ n: 1 });
    expect(await single.collection('things').findOne({ _id: 'kept' })).toMatchObject({ n: 2 });
  });
});
