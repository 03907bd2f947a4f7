// Large job and task values in job_data (issue 46), on both stores: the embedded store and MongoDB
// (the MongoDB adapter over the jongodb wire test server). Oracles: the Operations Manager API's
// "Export large data for a job or task variable" (GET /operations-manager/large-data/:id, the id of
// the job_data document in GridFS, 24 hex digits) and the collections the vendor's job archiver
// deletes a job's large data from (`job_data.job_id`, `job_data.files.metadata.job`,
// `job_data.chunks.files_id`, itential/job-and-task-archiver).
import { GridFSBucket, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { jobsHandlers } from '../../../core/engine/jobs/handlers';
import { openMongoStore } from '../../../core/store/mongodb/store';
import { createLargeDataIndexes, readLargeData } from '../../../core/store/large-data/bucket';
import { isLargeDataRef, LARGE_DATA, withLargeData } from '../../../core/store/large-data/large-data';
import type { Store } from '../../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { tempEmbeddedStore, waitFor, workflow } from '../queue/support';

interface Subject {
  name: string;
  open(): Promise<{ store: Store; dispose(): Promise<void> }>;
  /** The file's bytes as the MongoDB driver's GridFS reader reads them (MongoDB only). */
  gridfs?: (id: string) => Promise<Buffer>;
}
const subjects: Subject[] = [{ name: 'embedded store', open: tempEmbeddedStore }];
const found = jongodbBinary();
let mongo: TestMongo | undefined;
if ('unavailable' in found) console.warn(`[large data on the wire test server] skipped: ${found.unavailable}`);
else {
  beforeAll(async () => {
    mongo = await startJongodb();
  }, 30_000);
  afterAll(async () => mongo?.stop());
  subjects.push({
    name: 'MongoDB (wire test server)',
    async open() {
      if (!mongo) throw new Error('the wire test server did not start');
      const store = openMongoStore({ url: mongo.url, db: (this.db = `large_${process.pid}_${Date.now()}`) });
      return { store, dispose: () => store.close() };
    },
    db: '',
    async gridfs(id: string) {
      if (!mongo) throw new Error('the wire test server did not start');
      const client = await MongoClient.connect(mongo.url);
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of new GridFSBucket(client.db(this.db), { bucketName: 'job_data' }).openDownloadStream(id as never)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      } finally {
        await client.close();
      }
    },
  } as Subject & { db: string });
}

const THRESHOLD = 2048;
const UPPER = workflow('Upper', { up: { name: 'toUpperCase', variables: { incoming: { str: '$var.job.text' }, outgoing: { uppercaseString: '$var.job.result' } } } }, [
  ['workflow_start', 'up'],
  ['up', 'workflow_end'],
]);

describe.each(subjects)('large values in job_data: $name', (subject) => {
  let raw: Store;
  let dispose: () => Promise<void>;
  let engine: Engine;
  const text = 'large value '.repeat(600);

  beforeAll(async () => {
    ({ store: raw, dispose } = await subject.open());
    engine = await new Engine({ store: withLargeData(raw, THRESHOLD), serverId: 'console-1', serverName: 'console-1', processTasksOnStart: true, worker: { idleMs: 5 } }).open();
    await raw.collection('workflows').insertOne(UPPER);
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    await dispose?.();
  });

  it('keeps a value above the threshold in job_data, the job and task documents holding its reference; the engine works with the value', async () => {
    const job = await engine.runner.start('Upper', { variables: { text, small: 'kept in place' } });
    await waitFor('the job complete', async () => (await engine.runner.job(job._id))?.status === 'complete');

    const stored = await raw.collection('jobs').findOne({ _id: job._id });
    const variables = stored?.variables as Record<string, unknown>;
    expect(variables.small).toBe('kept in place');
    expect(isLargeDataRef(variables.text)).toBe(true);
    expect(isLargeDataRef(variables.result)).toBe(true);
    // The engine read the real value: the task upper-cased it.
    const read = await engine.runner.job(job._id);
    expect(read?.variables.text).toBe(text);
    expect(read?.variables.result).toBe(text.toUpperCase());

    // What the archiver deletes with the job: job_data by job_id, the files by metadata.job, the chunks by files_id.
    const data = await raw.collection('job_data').find({ job_id: job._id });
    const files = await raw.collection('job_data.files').find({ 'metadata.job': job._id });
    expect(data.length).toBeGreaterThanOrEqual(2);
    expect(files.map((f) => f._id).sort()).toEqual(data.map((d) => d._id).sort());
    for (const file of files) {
      expect(file._id).toMatch(/^[0-9a-f]{24}$/);
      expect(await raw.collection('job_data.chunks').count({ files_id: file._id })).toBeGreaterThan(0);
    }
    // The task document of the run holds references too (its incoming str and outgoing).
    const tasks = await raw.collection('tasks').find({ jobId: job._id });
    const up = tasks.find((t) => (t.incoming as Record<string, unknown> | undefined)?.str !== undefined);
    expect(isLargeDataRef((up?.incoming as Record<string, unknown>).str)).toBe(true);
  });

  it('serves the value at GET /operations-manager/large-data/:id, and a 404 naming an id no job_data holds', async () => {
    const job = await engine.runner.start('Upper', { variables: { text } });
    await waitFor('the job complete', async () => (await engine.runner.job(job._id))?.status === 'complete');
    const stored = await raw.collection('jobs').findOne({ _id: job._id });
    const ref = (stored?.variables as Record<string, unknown>).result;
    if (!isLargeDataRef(ref)) throw new Error('the result is not a reference');
    expect(ref[LARGE_DATA].size).toBe(Buffer.byteLength(JSON.stringify(text.toUpperCase())));
    const handlers = jobsHandlers({ engine: () => engine, workflowNames: async () => [] });
    const call = handlers['jobs.largeData'] as (input: { params: { id: string } }) => Promise<unknown>;
    expect(await call({ params: { id: ref[LARGE_DATA].id } })).toBe(text.toUpperCase());
    // The job page's answer lists it, and shows the value itself.
    const get = handlers['jobs.get'] as unknown as (input: { params: { id: string } }) => Promise<{ data: { largeData?: { id: string; variable: string }[]; variables: Record<string, unknown> } }>;
    const page = (await get({ params: { id: job._id } })).data;
    expect(page.largeData).toContainEqual(expect.objectContaining({ id: ref[LARGE_DATA].id, variable: 'variables.result' }));
    expect(page.variables.result).toBe(text.toUpperCase());
    await expect(call({ params: { id: 'a'.repeat(24) } })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('aaaaaaaaaaaaaaaaaaaaaaaa') });
  });

  it('keeps a value as a GridFS file: binary chunks of chunkSize bytes, a file length in bytes; read whole again, by GridFS too', async () => {
    // Two chunks of UTF-8 text whose characters are not one byte each: a chunk is cut by bytes, not characters.
    const wide = 'é✓'.repeat(60_000);
    const job = await engine.runner.start('Upper', { variables: { text: wide } });
    await waitFor('the job complete', async () => (await engine.runner.job(job._id))?.status === 'complete');
    const stored = await raw.collection('jobs').findOne({ _id: job._id });
    const ref = (stored?.variables as Record<string, unknown>).text;
    if (!isLargeDataRef(ref)) throw new Error('the text is not a reference');
    const id = ref[LARGE_DATA].id;
    const bytes = Buffer.from(JSON.stringify(wide), 'utf8');
    const file = await raw.collection('job_data.files').findOne({ _id: id });
    expect(file).toMatchObject({ length: bytes.length, chunkSize: 255 * 1024 });
    const chunks = await raw.collection('job_data.chunks').find({ files_id: id }, { sort: { n: 1 } });
    // Binary data, read back as a Buffer from either store.
    const sizes = chunks.map((c) => (Buffer.isBuffer(c.data) ? c.data.length : `not binary: ${typeof c.data}`));
    expect(sizes).toEqual([255 * 1024, bytes.length - 255 * 1024]);
    expect((await engine.runner.job(job._id))?.variables.text).toBe(wide);
    // Oracle: the MongoDB driver's own GridFS reader (what mongofiles and the service read a file with).
    if (subject.gridfs) expect((await subject.gridfs(id)).equals(bytes)).toBe(true);
  });

  it("makes job_data's indexes, GridFS's own among them, twice without harm", async () => {
    await createLargeDataIndexes(raw);
    await createLargeDataIndexes(raw);
    const names = async (collection: string) => (await raw.collection(collection).listIndexes()).map((i) => [i.name, i.key, i.unique ?? false]);
    expect(await names('job_data.chunks')).toContainEqual(['files_id_1_n_1', { files_id: 1, n: 1 }, true]);
    expect(await names('job_data.files')).toEqual(expect.arrayContaining([['filename_1_uploadDate_1', { filename: 1, uploadDate: 1 }, false], ['metadata.job_1', { 'metadata.job': 1 }, false]]));
    expect(await names('job_data')).toContainEqual(['job_id_1', { job_id: 1 }, false]);
  });

  it('reads a value an earlier version wrote as text chunks', async () => {
    const id = 'b'.repeat(24);
    await raw.collection('job_data.chunks').insertMany([
      { _id: `${id}000000`, files_id: id, n: 0, data: '{"a":"é' },
      { _id: `${id}000001`, files_id: id, n: 1, data: '✓"}' },
    ]);
    await raw.collection('job_data.files').insertOne({ _id: id, length: 14, chunkSize: 255 * 1024, metadata: { job: 'old' } });
    expect((await readLargeData(raw, id))?.value).toEqual({ a: 'é✓' });
  });

  it('writes the same value once: written again, it keeps its one job_data document', async () => {
    const job = await engine.runner.start('Upper', { variables: { text } });
    await waitFor('the job complete', async () => (await engine.runner.job(job._id))?.status === 'complete');
    const count = await raw.collection('job_data').count({ job_id: job._id });
    const shaped = withLargeData(raw, THRESHOLD).collection('jobs');
    await shaped.updateOne({ _id: job._id }, { $set: { 'variables.text': text } });
    expect(await raw.collection('job_data').count({ job_id: job._id })).toBe(count);
  });
});
