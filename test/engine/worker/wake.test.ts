// Waking idle workers when another server queues a task: by a change stream where the
// store offers one, by polling where it does not (the embedded store) or refuses (a
// standalone MongoDB; the wire test server answers $changeStream with NotImplemented).
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Engine } from '../../../core/engine/index';
import { watchQueuedTasks, QUEUED_EVENTS } from '../../../core/engine/worker/wake';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Store } from '../../../core/store/port';
import { StoreError } from '../../../core/store/errors';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { linearStrings, queuedRecord, tempEmbeddedStore, waitFor, type TempStore } from '../queue/support';

/** A logger whose lines the test reads. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}

/** A store's change stream, driven by the test. */
function fakeWatch() {
  const opened: { collection: string; match: unknown; handlers: { change(): void; error(e: Error): void }; closed: boolean }[] = [];
  return {
    opened,
    watch(collection: string, match: unknown, handlers: { change(): void; error(e: Error): void }) {
      const entry = { collection, match, handlers, closed: false };
      opened.push(entry);
      return { close: async () => void (entry.closed = true) };
    },
  };
}

/** The store with a watch added (everything else is the store's own). */
function withWatch(store: Store, watch: Store['watch']): Store {
  return new Proxy(store, { get: (target, key) => (key === 'watch' ? watch : Reflect.get(target, key, target)) });
}

describe('the wake logic (a fake change stream)', () => {
  it('watches tasks queued or resumed, wakes on each change, and on a refusal logs once at info with the cause', async () => {
    const fake = fakeWatch();
    const { log, lines } = capture();
    let woken = 0;
    let refused = 0;
    const watch = watchQueuedTasks({ location: 'MongoDB at db1:27017 (db x)', watch: fake.watch }, () => woken++, log, () => refused++);
    expect(fake.opened).toHaveLength(1);
    expect(fake.opened[0]).toMatchObject({ collection: 'tasks', match: QUEUED_EVENTS });
    expect(watch.live).toBe(true);
    fake.opened[0]!.handlers.change();
    fake.opened[0]!.handlers.change();
    expect(woken).toBe(2);

    fake.opened[0]!.handlers.error(new Error('The $changeStream stage is only supported on replica sets'));
    expect(watch.live).toBe(false);
    expect(refused).toBe(1);
    const info = lines.filter((l) => l.level === 30);
    expect(info).toHaveLength(1);
    expect(info[0]!.msg).toBe(
      'tasks queued by other servers are picked up by polling: the MongoDB at db1:27017 (db x) offers no change stream (The $changeStream stage is only supported on replica sets)',
    );
    await watch.close();
  });

  it('opens nothing on a store without change streams (the embedded store polls)', async () => {
    const { log, lines } = capture();
    const watch = watchQueuedTasks({ location: 'embedded store /x' }, () => undefined, log);
    expect(watch.live).toBe(false);
    expect(lines.filter((l) => (l.level as number) >= 30)).toEqual([]);
    await watch.close();
  });

  describe('in a worker', () => {
    let temp: TempStore;
    let engine: Engine | undefined;
    beforeAll(async () => {
      temp = await tempEmbeddedStore();
    });
    afterEach(async () => engine?.close());
    afterAll(async () => temp.dispose());

    it('an idle worker claims a task queued behind its back as soon as the stream tells, long before its next poll', async () => {
      const fake = fakeWatch();
      // After the first empty poll the worker sleeps a minute: only the stream can wake it sooner.
      engine = await new Engine({
        store: withWatch(temp.store, fake.watch),
        serverId: 'site-a',
        serverName: 'site-a',
        processTasksOnStart: true,
        worker: { idleMs: 60_000, firstIdleMs: 60_000, sweepMs: 60_000 },
      }).open();
      expect(engine.worker.woken).toBe(true);
      await new Promise((r) => setTimeout(r, 200)); // the first poll has found nothing
      // Another server queues a task: only the store knows.
      const record = queuedRecord(1);
      await temp.store.collection('tasks').insertOne(record);
      fake.opened[0]!.handlers.change();
      const claimed = await waitFor('the task to be claimed', async () => {
        const r = await temp.store.collection('tasks').findOne({ _id: record._id });
        return r && r.status !== 'queued' ? r : undefined;
      }, 10_000);
      expect(claimed.workerId).toMatch(/^site-a:/);
      await engine.close();
      expect(fake.opened[0]!.closed).toBe(true);
    });

    it('a stream lost because the database was down is opened again at the next sweep, without a refusal logged', async () => {
      const fake = fakeWatch();
      const { log, lines } = capture();
      engine = await new Engine({ store: withWatch(temp.store, fake.watch), serverId: 'site-a', serverName: 'site-a', processTasksOnStart: true, log, worker: { idleMs: 20, sweepMs: 50 } }).open();
      fake.opened[0]!.handlers.error(new StoreError('unreachable', 'cannot reach MongoDB at db1:27017 within 5 s: connection refused'));
      expect(engine.worker.woken).toBe(false);
      await waitFor('the stream to be opened again', async () => fake.opened.length >= 2 || undefined, 10_000);
      expect(fake.opened[0]!.closed).toBe(true);
      expect(engine.worker.woken).toBe(true);
      expect(lines.filter((l) => String(l.msg).includes('offers no change stream'))).toEqual([]);
    });

    it('a refused stream is not asked again when the worker is started again; it polls', async () => {
      const fake = fakeWatch();
      engine = await new Engine({ store: withWatch(temp.store, fake.watch), serverId: 'site-a', serverName: 'site-a', processTasksOnStart: true, worker: { idleMs: 20 } }).open();
      fake.opened[0]!.handlers.error(new Error('not a replica set'));
      expect(engine.worker.woken).toBe(false);
      await engine.stopWorker();
      await engine.startWorker();
      expect(fake.opened).toHaveLength(1);
      const record = queuedRecord(2);
      await temp.store.collection('tasks').insertOne(record);
      await waitFor('the polled task to be claimed', async () => ((await temp.store.collection('tasks').findOne({ _id: record._id }))?.status !== 'queued' ? true : undefined), 10_000);
    });
  });
});

const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[wake on the wire test server] skipped: ${found.unavailable}`);

describe.skipIf('unavailable' in found)('on the wire test server (no change streams: the fallback)', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await startJongodb();
  }, 30_000);
  afterAll(async () => mongo?.stop());

  it('the refusal is logged once at info with the cause, and jobs still run by polling', async () => {
    const store = openMongoStore({ url: mongo.url, db: 'wake_fallback' });
    const { log, lines } = capture();
    await store.collection('workflows').insertOne(linearStrings('poll', 2));
    const engine = await new Engine({ store, serverId: 'site-a', serverName: 'site-a', processTasksOnStart: true, log, worker: { idleMs: 50 } }).open();
    try {
      const refusal = await waitFor('the refusal to be logged', async () => lines.find((l) => String(l.msg).includes('offers no change stream')), 10_000);
      expect(refusal.level).toBe(30);
      expect(refusal.msg).toMatch(/^tasks queued by other servers are picked up by polling: the MongoDB at 127\.0\.0\.1:\d+ \(db wake_fallback\) offers no change stream \(.*changeStream.*\)$/);
      expect(engine.worker.woken).toBe(false);
      // Another server (another store client) starts a job; this worker picks its tasks up by polling.
      const other = openMongoStore({ url: mongo.url, db: 'wake_fallback' });
      const otherEngine = await new Engine({ store: other, serverId: 'site-b', serverName: 'site-b', processTasksOnStart: false }).open();
      const job = await otherEngine.runner.start('poll', { variables: { text: 'Up' } });
      const done = await waitFor('the job to complete', async () => {
        const j = await engine.runner.job(job._id);
        return j?.status === 'complete' ? j : undefined;
      });
      expect(done.variables.result).toBe('up');
      await otherEngine.close();
      await other.close();
      await engine.stopWorker();
      await engine.startWorker();
      expect(lines.filter((l) => String(l.msg).includes('offers no change stream'))).toHaveLength(1);
    } finally {
      await engine.close();
      await store.close();
    }
  });
});

// The change-stream path itself needs a server that has change streams: a replica set.
const REAL = process.env.MONGODB_URL;
if (!REAL) console.warn('[wake by change stream] skipped: the wire test server answers $changeStream with NotImplemented (in standalone and single-node replica-set profiles); set MONGODB_URL to a MongoDB replica set to run it');

describe('on a MongoDB replica set (change streams)', () => {
  it.skipIf(!REAL)('an idle worker is woken by the change stream and claims a task another server queued, long before its next poll', async () => {
    const db = `wake_stream_${process.pid}`;
    const store = openMongoStore({ url: REAL!, db });
    const engine = await new Engine({ store, serverId: 'site-a', serverName: 'site-a', processTasksOnStart: true, worker: { idleMs: 60_000, firstIdleMs: 60_000, sweepMs: 60_000 } }).open();
    try {
      await waitFor('the change stream to open', async () => engine.worker.woken || undefined, 5_000);
      await new Promise((r) => setTimeout(r, 500));
      const other = openMongoStore({ url: REAL!, db });
      const record = queuedRecord(3);
      await other.collection('tasks').insertOne(record);
      await other.close();
      const claimed = await waitFor('the task to be claimed', async () => {
        const r = await store.collection('tasks').findOne({ _id: record._id });
        return r && r.status !== 'queued' ? r : undefined;
      }, 20_000);
      expect(claimed.workerId).toMatch(/^site-a:/);
    } finally {
      await engine.close();
      await store.close();
    }
  });
});
