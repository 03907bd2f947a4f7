// The store contract: what every adapter of core/store/port.ts must do. Each
// backend's test file calls `storeContract` with a factory; cases a backend
// cannot serve are listed in `lacks` and skipped with that reason printed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Collection, Doc, Store } from '../../core/store/port';
import { StoreError } from '../../core/store/errors';

export type Feature =
  | 'projection'
  | 'dropIndexes'
  | 'listCollections'
  | 'ttlIndexes'
  | 'sparseIndexes'
  | 'indexConflicts'
  | 'atomicFindOneAndUpdate';

export interface StoreBackend {
  /** Opens a new client on the same database: two opens are two racing clients. */
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** A backend, or why none is available here (the whole suite is then skipped with that reason). */
  backend: () => Promise<StoreBackend | { unavailable: string }>;
  lacks?: Partial<Record<Feature, string>>;
  kind: Store['kind'];
}

export function storeContract(label: string, options: ContractOptions) {
  describe(`store contract: ${label}`, () => {
    let backend: StoreBackend | undefined;
    let unavailable: string | undefined;
    let store: Store;

    beforeAll(async () => {
      const made = await options.backend();
      if ('unavailable' in made) {
        unavailable = made.unavailable;
        console.warn(`[store contract: ${label}] skipped: ${unavailable}`);
        return;
      }
      backend = made;
      store = await backend.open();
    }, 30_000);

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    /** Skips (printing why) when there is no backend or it lacks a feature. */
    function need(ctx: TestContext, feature?: Feature) {
      if (unavailable) ctx.skip(unavailable);
      const reason = feature && options.lacks?.[feature];
      if (reason) {
        console.warn(`[store contract: ${label}] "${ctx.task.name}" skipped: ${reason}`);
        ctx.skip(reason);
      }
    }

    const fresh = (prefix: string): Collection => store.collection(`${prefix}_${randomBytes(4).toString('hex')}`);
    const stripIds = (docs: Doc[]) => docs.map(({ _id, ...rest }) => rest);

    it('says what kind of store it is and where', (ctx) => {
      need(ctx);
      expect(store.kind).toBe(options.kind);
      expect(store.location.length).toBeGreaterThan(0);
    });

    it('answers a ping', async (ctx) => {
      need(ctx);
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('inserts documents with string ids, generated or given', async (ctx) => {
      need(ctx);
      const c = fresh('insert');
      const generated = await c.insertOne({ name: 'a' });
      expect(typeof generated).toBe('string');
      expect(await c.insertOne({ _id: 'given-1', name: 'b' })).toBe('given-1');
      const many = await c.insertMany([{ name: 'c' }, { _id: 'given-2', name: 'd' }]);
      expect(many).toHaveLength(2);
      expect(many[1]).toBe('given-2');
      expect(await c.findOne({ _id: generated })).toEqual({ _id: generated, name: 'a' });
      expect(await c.count()).toBe(4);
    });

    it('keeps dates, nested objects and arrays', async (ctx) => {
      need(ctx);
      const c = fresh('values');
      const at = new Date('2022-03-01T10:00:00.000Z');
      const id = await c.insertOne({ metrics: { start_time: at, user: 'admin' }, children: ['j1', 'j2'], n: 1.5, ok: false });
      const doc = await c.findOne({ _id: id });
      expect(doc?.metrics).toEqual({ start_time: at, user: 'admin' });
      expect((doc?.metrics as { start_time: unknown }).start_time).toBeInstanceOf(Date);
      expect(doc?.children).toEqual(['j1', 'j2']);
      expect(doc?.n).toBe(1.5);
      expect(doc?.ok).toBe(false);
    });

    it('keeps binary data (BinData, a GridFS chunk), inserted and set, read back as a Buffer of the same bytes', async (ctx) => {
      need(ctx);
      const c = fresh('binary');
      const bytes = randomBytes(300);
      const id = await c.insertOne({ n: 0, data: bytes });
      const inserted = await c.findOne({ _id: id });
      expect(Buffer.isBuffer(inserted?.data) && inserted.data.equals(bytes)).toBe(true);
      const other = Buffer.from('chunk ✓', 'utf8');
      await c.updateOne({ _id: id }, { $set: { data: other, 'nested.data': bytes.subarray(0, 10) } });
      const updated = await c.findOne({ _id: id });
      expect(Buffer.isBuffer(updated?.data) && updated.data.equals(other)).toBe(true);
      const nested = (updated?.nested as { data?: unknown } | undefined)?.data;
      expect(Buffer.isBuffer(nested) && nested.equals(bytes.subarray(0, 10))).toBe(true);
    });

    it('finds with filters, dotted fields, sort, skip and limit', async (ctx) => {
      need(ctx);
      const c = fresh('find');
      await c.insertMany([
        { name: 'a', status: 'running', metrics: { start_time: 3 }, tag: 'x' },
        { name: 'b', status: 'complete', metrics: { start_time: 1 } },
        { name: 'c', status: 'error', metrics: { start_time: 5 }, tag: 'y' },
        { name: 'd', status: 'running', metrics: { start_time: 2 } },
        { name: 'e', status: 'paused', metrics: { start_time: 4 } },
      ]);
      const names = (docs: Doc[]) => docs.map((d) => d.name);
      expect(names(await c.find({ status: 'running' }, { sort: { name: 1 } }))).toEqual(['a', 'd']);
      expect(names(await c.find({ status: { $in: ['error', 'paused'] } }, { sort: { name: 1 } }))).toEqual(['c', 'e']);
      expect(names(await c.find({ status: { $nin: ['running', 'complete'] } }, { sort: { name: 1 } }))).toEqual(['c', 'e']);
      expect(names(await c.find({ status: { $ne: 'running' } }, { sort: { name: 1 } }))).toEqual(['b', 'c', 'e']);
      expect(names(await c.find({ 'metrics.start_time': { $gte: 2, $lt: 4 } }, { sort: { name: 1 } }))).toEqual(['a', 'd']);
      expect(names(await c.find({ 'metrics.start_time': { $gt: 4 } }))).toEqual(['c']);
      expect(names(await c.find({ 'metrics.start_time': { $lte: 1 } }))).toEqual(['b']);
      expect(names(await c.find({ tag: { $exists: true } }, { sort: { name: 1 } }))).toEqual(['a', 'c']);
      expect(names(await c.find({ $or: [{ name: 'a' }, { status: 'paused' }] }, { sort: { name: 1 } }))).toEqual(['a', 'e']);
      expect(names(await c.find({ $and: [{ status: 'running' }, { name: 'd' }] }))).toEqual(['d']);
      expect(names(await c.find({}, { sort: { 'metrics.start_time': -1 } }))).toEqual(['c', 'e', 'a', 'd', 'b']);
      expect(names(await c.find({}, { sort: { 'metrics.start_time': 1 }, skip: 1, limit: 2 }))).toEqual(['d', 'a']);
      expect((await c.findOne({ status: 'running' }, { sort: { name: -1 } }))?.name).toBe('d');
      expect(await c.findOne({ status: 'canceled' })).toBeNull();
      expect(await c.count({ status: 'running' })).toBe(2);
    });

    it("finds by an array's length, by its element at an index, and by a pattern (the service's ancestors and query forms)", async (ctx) => {
      need(ctx);
      const c = fresh('arrays');
      await c.insertMany([
        { _id: 'root', name: 'Deploy router', ancestors: ['root'] },
        { _id: 'child', name: 'deploy switch', ancestors: ['root', 'child'] },
        { _id: 'other', name: 'Backup', ancestors: ['other'] },
        { _id: 'none', name: 'no lineage' },
      ]);
      const ids = (docs: Doc[]) => docs.map((d) => d._id).sort();
      expect(ids(await c.find({ ancestors: { $size: 1 } }))).toEqual(['other', 'root']);
      expect(ids(await c.find({ 'ancestors.0': { $in: ['root'] } }))).toEqual(['child', 'root']);
      expect(ids(await c.find({ 'ancestors.1': 'child' }))).toEqual(['child']);
      expect(ids(await c.find({ $and: [{ ancestors: { $size: 1 } }, { name: { $regex: '^Deploy' } }] }))).toEqual(['root']);
      expect(ids(await c.find({ name: { $regex: 'deploy', $options: 'i' } }))).toEqual(['child', 'root']);
      expect(ids(await c.find({ name: /^b/i }))).toEqual(['other']);
      expect(await c.count({ name: { $regex: 'lineage$' }, ancestors: { $exists: false } })).toBe(1);
    });

    it('projects fields in and out', async (ctx) => {
      need(ctx, 'projection');
      const c = fresh('projection');
      const id = await c.insertOne({ name: 'a', status: 'running', metrics: { start_time: 1, user: 'u' } });
      expect(await c.findOne({ _id: id }, { projection: { name: 1, 'metrics.user': 1 } })).toEqual({
        _id: id,
        name: 'a',
        metrics: { user: 'u' },
      });
      expect(await c.find({}, { projection: { metrics: 0, _id: 0 } })).toEqual([{ name: 'a', status: 'running' }]);
      // `_id: 1` alone keeps the id only (how callers list ids).
      expect(await c.find({}, { projection: { _id: 1 } })).toEqual([{ _id: id }]);
    });

    it("reads a job's workflow copy (tasks, transitions) as inserted, key order included, through finds, projections, filters and updates on its paths", async (ctx) => {
      need(ctx);
      // `jobs`: the collection whose tasks and transitions the embedded store keeps once per value.
      const jobs = store.collection('jobs');
      const id = `contract-${randomBytes(4).toString('hex')}`;
      const tasks = { b2: { name: 'query', summary: 'Query data', status: 'incomplete', at: new Date('2022-03-01T10:00:00.000Z') }, workflow_start: { name: 'workflow_start', status: 'complete' } };
      const transitions = { workflow_start: { b2: { type: 'standard', state: 'success' } }, b2: { workflow_end: { type: 'standard', state: 'success' } } };
      const job = { _id: id, name: 'wf', tasks, status: 'running', transitions, variables: { x: 1 } };
      await jobs.insertMany([job, { ...job, _id: `${id}-2`, tasks: { ...tasks, b2: { ...tasks.b2, status: 'complete' } } }]);
      const inOrder = (got: unknown, want: unknown) => {
        expect(got).toEqual(want);
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      };
      inOrder(await jobs.findOne({ _id: id }), job);
      // Projections where the backend has them (the jongodb test server has none).
      if (!options.lacks?.projection) {
        inOrder(await jobs.findOne({ _id: id }, { projection: { name: 1, 'tasks.b2.status': 1 } }), { _id: id, name: 'wf', tasks: { b2: { status: 'incomplete' } } });
        inOrder(await jobs.findOne({ _id: id }, { projection: { transitions: 0, 'tasks.workflow_start': 0 } }), { _id: id, name: 'wf', tasks: { b2: tasks.b2 }, status: 'running', variables: { x: 1 } });
      }
      const ours = { _id: { $in: [id, `${id}-2`] } };
      expect((await jobs.find({ ...ours, 'tasks.b2.status': 'complete' })).map((d) => d._id)).toEqual([`${id}-2`]);
      expect((await jobs.find(ours, { sort: { 'tasks.b2.status': -1 } })).map((d) => d._id)).toEqual([id, `${id}-2`]);
      expect(await jobs.updateOne({ _id: id }, { $set: { 'tasks.b2.status': 'complete', status: 'complete' } })).toEqual({ matched: 1, modified: 1 });
      inOrder(await jobs.findOneAndUpdate({ _id: id }, { $inc: { 'variables.x': 1 } }), { ...job, tasks: { ...tasks, b2: { ...tasks.b2, status: 'complete' } }, status: 'complete', variables: { x: 2 } });
      expect(await jobs.count({ ...ours, 'transitions.b2.workflow_end.state': 'success' })).toBe(2);
      expect(await jobs.deleteMany(ours)).toBe(2);
    });

    it('updates with $set, $unset and $inc and counts matched and modified', async (ctx) => {
      need(ctx);
      const c = fresh('update');
      const id = await c.insertOne({ name: 'a', attempt: 1, workerId: 'w1', incoming: { x: 1 } });
      await c.insertOne({ name: 'b', attempt: 1 });
      expect(await c.updateOne({ _id: id }, { $set: { status: 'running', 'incoming.y': 2 }, $unset: { workerId: '' }, $inc: { attempt: 1 } })).toEqual({
        matched: 1,
        modified: 1,
      });
      expect(await c.findOne({ _id: id })).toEqual({ _id: id, name: 'a', attempt: 2, status: 'running', incoming: { x: 1, y: 2 } });
      expect(await c.updateOne({ _id: id }, { $set: { status: 'running' } })).toEqual({ matched: 1, modified: 0 });
      expect(await c.updateOne({ name: 'nobody' }, { $set: { status: 'x' } })).toEqual({ matched: 0, modified: 0 });
      expect(await c.updateMany({ attempt: { $gte: 1 } }, { $inc: { attempt: 10 } })).toEqual({ matched: 2, modified: 2 });
      expect(stripIds(await c.find({}, { sort: { name: 1 } })).map((d) => d.attempt)).toEqual([12, 11]);
    });

    it('finds one and updates it, by sort, returning the document after the update', async (ctx) => {
      need(ctx);
      const c = fresh('claim');
      await c.insertMany([
        { name: 't2', status: 'queued', queuedAt: 2, runAfter: 0 },
        { name: 't1', status: 'queued', queuedAt: 1, runAfter: 0 },
        { name: 't3', status: 'queued', queuedAt: 3, runAfter: 99 },
      ]);
      const claim = () =>
        c.findOneAndUpdate({ status: 'queued', runAfter: { $lte: 10 } }, { $set: { status: 'running', workerId: 'w' }, $inc: { attempt: 1 } }, { sort: { queuedAt: 1 } });
      expect(await claim()).toMatchObject({ name: 't1', status: 'running', workerId: 'w', attempt: 1 });
      expect(await claim()).toMatchObject({ name: 't2', status: 'running' });
      expect(await claim()).toBeNull();
      expect(await c.count({ status: 'queued' })).toBe(1);
    });

    it('finds one and updates it by a sort on several fields, descending first', async (ctx) => {
      need(ctx);
      const c = fresh('claimsort');
      await c.insertMany([
        { name: 'low-early', priority: 1, queuedAt: 1, status: 'queued' },
        { name: 'high-late', priority: 5, queuedAt: 9, status: 'queued' },
        { name: 'high-early', priority: 5, queuedAt: 2, status: 'queued' },
        { name: 'done', priority: 9, queuedAt: 0, status: 'complete' },
      ]);
      const order: unknown[] = [];
      for (;;) {
        const doc = await c.findOneAndUpdate({ status: 'queued' }, { $set: { status: 'running' } }, { sort: { priority: -1, queuedAt: 1 } });
        if (!doc) break;
        order.push(doc.name);
      }
      expect(order).toEqual(['high-early', 'high-late', 'low-early']);
    });

    it('finds many and updates each, the first `limit` by sort, answering them after the update in sort order', async (ctx) => {
      need(ctx);
      const c = fresh('claimmany');
      // Inserted out of sort order: the answer follows the sort, not the order the documents were written in.
      await c.insertMany([
        { name: 'p1-q5', priority: 1, queuedAt: 5, status: 'queued', runAfter: 0 },
        { name: 'p5-q3', priority: 5, queuedAt: 3, status: 'queued', runAfter: 0 },
        { name: 'p1-q1', priority: 1, queuedAt: 1, status: 'queued', runAfter: 0 },
        { name: 'p5-q2', priority: 5, queuedAt: 2, status: 'queued', runAfter: 0 },
        { name: 'later', priority: 9, queuedAt: 0, status: 'queued', runAfter: 99 },
        { name: 'done', priority: 9, queuedAt: 0, status: 'complete', runAfter: 0 },
      ]);
      const claim = (workerId: string, limit: number) =>
        c.findManyAndUpdate({ status: 'queued', runAfter: { $lte: 10 } }, { $set: { status: 'running', workerId }, $inc: { attempt: 1 } }, { sort: { priority: -1, queuedAt: 1 }, limit });
      const first = await claim('w1', 3);
      expect(first.map((d) => d.name)).toEqual(['p5-q2', 'p5-q3', 'p1-q1']);
      for (const doc of first) expect(doc).toMatchObject({ status: 'running', workerId: 'w1', attempt: 1 });
      expect((await claim('w2', 8)).map((d) => [d.name, d.workerId])).toEqual([['p1-q5', 'w2']]);
      expect(await claim('w3', 8)).toEqual([]);
      // What was answered is what is stored; the documents not matched are untouched.
      const stored = await c.find({}, { sort: { name: 1 } });
      expect(stored.filter((d) => d.status === 'running').map((d) => [d.name, d.workerId])).toEqual([['p1-q1', 'w1'], ['p1-q5', 'w2'], ['p5-q2', 'w1'], ['p5-q3', 'w1']]);
      expect(stored.filter((d) => d.status !== 'running').map((d) => d.name)).toEqual(['done', 'later']);
      expect(await fresh('never').findManyAndUpdate({}, { $set: { a: 1 } }, { limit: 4 })).toEqual([]);
    });

    it('refuses a findManyAndUpdate whose limit is not a whole number, or whose update changes a sort field', async (ctx) => {
      need(ctx);
      const c = fresh('claimbad');
      await c.insertOne({ queuedAt: 1, status: 'queued' });
      await expect(c.findManyAndUpdate({}, { $set: { status: 'running' } }, { limit: 0 })).rejects.toThrow(/limit must be a whole number/);
      await expect(c.findManyAndUpdate({}, { $set: { status: 'running' } }, { limit: 1.5 })).rejects.toThrow(/limit must be a whole number/);
      await expect(c.findManyAndUpdate({}, { $inc: { queuedAt: 1 } }, { sort: { queuedAt: 1 }, limit: 2 })).rejects.toThrow(/changes the sort field queuedAt/);
      await expect(c.findManyAndUpdate({}, { $set: { status: 'running' } }, { limit: 0 })).rejects.toBeInstanceOf(StoreError);
      expect(await c.count({ status: 'queued' })).toBe(1);
    });

    it('deletes one or many and says how many', async (ctx) => {
      need(ctx);
      const c = fresh('delete');
      await c.insertMany([{ s: 1 }, { s: 1 }, { s: 1 }, { s: 2 }]);
      expect(await c.deleteOne({ s: 1 })).toBe(1);
      expect(await c.deleteMany({ s: 1 })).toBe(2);
      expect(await c.deleteMany({ s: 9 })).toBe(0);
      expect(await c.count()).toBe(1);
    });

    it('creates indexes with names and options and lists them in MongoDB shape', async (ctx) => {
      need(ctx);
      const c = fresh('indexes');
      await c.insertOne({ name: 'w1', status: 'queued' });
      await c.createIndex({ key: { status: 1, 'metrics.start_time': -1 }, name: 'status_1_metrics.start_time_-1' });
      await c.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
      // The same definition again is a no-op.
      await c.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
      const listed = await c.listIndexes();
      expect(listed.find((i) => i.name === '_id_')).toEqual({ key: { _id: 1 }, name: '_id_' });
      expect(listed.find((i) => i.name === 'name_1')).toEqual({ key: { name: 1 }, name: 'name_1', unique: true });
      const compound = listed.find((i) => i.name === 'status_1_metrics.start_time_-1');
      expect(compound?.key).toEqual({ status: 1, 'metrics.start_time': -1 });
      expect(Object.keys(compound!.key)).toEqual(['status', 'metrics.start_time']);
      expect(compound?.unique).toBeFalsy();
      expect(listed).toHaveLength(3);
    });

    it('keeps sparse and TTL options', async (ctx) => {
      need(ctx, 'sparseIndexes');
      const c = fresh('options');
      await c.insertOne({ x: 1 });
      await c.createIndex({ key: { code: 1 }, name: 'code_1', unique: true, sparse: true });
      // Sparse: documents without the field do not collide.
      await c.insertMany([{ other: 1 }, { other: 2 }]);
      if (!options.lacks?.ttlIndexes) {
        await c.createIndex({ key: { heartbeatAt: 1 }, name: 'heartbeatAt_1', expireAfterSeconds: 3600 });
        expect((await c.listIndexes()).find((i) => i.name === 'heartbeatAt_1')).toEqual({
          key: { heartbeatAt: 1 },
          name: 'heartbeatAt_1',
          expireAfterSeconds: 3600,
        });
      }
      expect((await c.listIndexes()).find((i) => i.name === 'code_1')).toEqual({ key: { code: 1 }, name: 'code_1', unique: true, sparse: true });
    });

    it('enforces unique indexes on insert and update', async (ctx) => {
      need(ctx);
      const c = fresh('unique');
      await c.createIndex({ key: { name: 1 }, name: 'name_1', unique: true });
      await c.insertOne({ name: 'wf-a' });
      const id = await c.insertOne({ name: 'wf-b' });
      const insert = await c.insertOne({ name: 'wf-a' }).catch((e: unknown) => e);
      expect(insert).toBeInstanceOf(StoreError);
      expect((insert as StoreError).reason).toBe('duplicate-key');
      expect((insert as Error).message).toMatch(/duplicate key in collection unique_\w+/);
      const update = await c.updateOne({ _id: id }, { $set: { name: 'wf-a' } }).catch((e: unknown) => e);
      expect((update as StoreError).reason).toBe('duplicate-key');
      expect(await c.count({ name: 'wf-a' })).toBe(1);
    });

    it('refuses a unique index over duplicate data', async (ctx) => {
      need(ctx);
      const c = fresh('dupdata');
      await c.insertMany([{ name: 'x' }, { name: 'x' }]);
      const dup = await c.createIndex({ key: { name: 1 }, name: 'name_1', unique: true }).catch((e: unknown) => e);
      expect((dup as StoreError).reason).toBe('duplicate-key');
      expect((await c.listIndexes()).map((i) => i.name)).toEqual(['_id_']);
    });

    it('refuses an index name reused for another key', async (ctx) => {
      need(ctx, 'indexConflicts');
      const c = fresh('conflict');
      await c.insertOne({ name: 'x' });
      await c.createIndex({ key: { name: 1 }, name: 'by_name' });
      const conflict = await c.createIndex({ key: { other: 1 }, name: 'by_name' }).catch((e: unknown) => e);
      expect((conflict as StoreError).reason).toBe('index-conflict');
    });

    it('drops an index by name', async (ctx) => {
      need(ctx, 'dropIndexes');
      const c = fresh('drop');
      await c.insertOne({ name: 'a' });
      await c.createIndex({ key: { name: 1 }, name: 'wrong_name', unique: true });
      await c.dropIndex('wrong_name');
      expect((await c.listIndexes()).map((i) => i.name)).toEqual(['_id_']);
      // The unique constraint went with it.
      await c.insertOne({ name: 'a' });
      const missing = await c.dropIndex('wrong_name').catch((e: unknown) => e);
      expect((missing as StoreError).reason).toBe('index-not-found');
    });

    it('lists the collections that hold data', async (ctx) => {
      need(ctx, 'listCollections');
      const c = fresh('listed');
      await c.insertOne({ a: 1 });
      expect(await store.listCollections()).toContain(c.name);
    });

    it('has no indexes and no documents for a collection never written', async (ctx) => {
      need(ctx);
      const c = fresh('never');
      expect(await c.find({})).toEqual([]);
      expect(await c.count()).toBe(0);
      // MongoDB lists nothing; a server may list the implicit _id_ index.
      for (const index of await c.listIndexes()) expect(index.name).toBe('_id_');
      expect(await c.findOneAndUpdate({}, { $set: { a: 1 } })).toBeNull();
    });

    it('two clients racing find-one-and-update on one queue never take the same document', async (ctx) => {
      need(ctx, 'atomicFindOneAndUpdate');
      const N = 60;
      const name = `queue_${randomBytes(4).toString('hex')}`;
      const other = await backend!.open();
      try {
        const queue = store.collection(name);
        await queue.createIndex({ key: { status: 1, queuedAt: 1 }, name: 'status_1_queuedAt_1' });
        await queue.insertMany(Array.from({ length: N }, (_, i) => ({ status: 'queued', queuedAt: i, runAfter: 0 })));
        const worker = async (client: Store, workerId: string) => {
          const taken: string[] = [];
          for (;;) {
            const doc = await client
              .collection(name)
              .findOneAndUpdate({ status: 'queued', runAfter: { $lte: 1 } }, { $set: { status: 'running', workerId } }, { sort: { queuedAt: 1 } });
            if (!doc) return taken;
            expect(doc.workerId).toBe(workerId);
            taken.push(doc._id!);
          }
        };
        // Several claim loops per client, so the claims really interleave.
        const results = await Promise.all([
          ...[1, 2, 3].map((i) => worker(store, `a${i}`)),
          ...[1, 2, 3].map((i) => worker(other, `b${i}`)),
        ]);
        const all = results.flat();
        expect(all).toHaveLength(N);
        expect(new Set(all).size).toBe(N);
        // Each document is owned by the worker that claimed it.
        const byWorker = new Map<string, string>();
        results.forEach((ids, i) => ids.forEach((id) => byWorker.set(id, i < 3 ? `a${i + 1}` : `b${i - 2}`)));
        for (const doc of await queue.find({})) expect(doc.workerId).toBe(byWorker.get(doc._id!));
        expect(await queue.count({ status: 'queued' })).toBe(0);
      } finally {
        await other.close();
      }
    });

    it('two clients racing find-many-and-update on one queue never take the same document', async (ctx) => {
      need(ctx, 'atomicFindOneAndUpdate');
      const N = 90;
      const name = `queuemany_${randomBytes(4).toString('hex')}`;
      const other = await backend!.open();
      try {
        const queue = store.collection(name);
        await queue.createIndex({ key: { status: 1, queuedAt: 1 }, name: 'status_1_queuedAt_1' });
        await queue.insertMany(Array.from({ length: N }, (_, i) => ({ status: 'queued', queuedAt: i, runAfter: 0 })));
        const worker = async (client: Store, workerId: string, limit: number) => {
          const taken: string[] = [];
          for (;;) {
            const docs = await client.collection(name).findManyAndUpdate({ status: 'queued', runAfter: { $lte: 1 } }, { $set: { status: 'running', workerId } }, { sort: { queuedAt: 1 }, limit });
            if (!docs.length) return taken;
            expect(docs.length).toBeLessThanOrEqual(limit);
            // Each answer in sort order.
            expect(docs.map((d) => d.queuedAt)).toEqual(docs.map((d) => d.queuedAt).sort((a, b) => Number(a) - Number(b)));
            for (const doc of docs) expect(doc.workerId).toBe(workerId);
            taken.push(...docs.map((d) => d._id!));
          }
        };
        const results = await Promise.all([worker(store, 'a1', 3), worker(store, 'a2', 8), worker(other, 'b1', 5), worker(other, 'b2', 1)]);
        const all = results.flat();
        expect(all).toHaveLength(N);
        expect(new Set(all).size).toBe(N);
        const owners = ['a1', 'a2', 'b1', 'b2'];
        const byWorker = new Map<string, string>();
        results.forEach((ids, i) => ids.forEach((id) => byWorker.set(id, owners[i]!)));
        for (const doc of await queue.find({})) expect(doc.workerId).toBe(byWorker.get(doc._id!));
      } finally {
        await other.close();
      }
    });

    it('refuses an unsafe collection name', (ctx) => {
      need(ctx);
      expect(() => store.collection('../escape')).toThrow(/invalid collection name/);
    });
  });
}
