// job_data as a GridFS bucket (large-data.ts says what goes there and why): each value a file of
// `job_data.files`, its JSON text in UTF-8 cut into `job_data.chunks` of chunkSize bytes of binary data,
// and a `job_data` entry naming its job, task and variable; the bucket's indexes as a GridFS writer makes them.
import { createHash } from 'node:crypto';
import type { Doc, IndexSpec, Store } from '../port';

/** GridFS's default chunk size (255 KiB). */
const CHUNK = 255 * 1024;

/**
 * The indexes of job_data: the GridFS bucket's own, as a GridFS writer (the driver's GridFSBucket)
 * makes them before its first file, and the job's id, by which the job page and the vendor's job
 * archiver look a job's large values up.
 */
const LARGE_DATA_INDEXES: readonly (IndexSpec & { collection: string })[] = [
  { collection: 'job_data', key: { job_id: 1 }, name: 'job_id_1' },
  { collection: 'job_data.files', key: { filename: 1, uploadDate: 1 }, name: 'filename_1_uploadDate_1' },
  { collection: 'job_data.files', key: { 'metadata.job': 1 }, name: 'metadata.job_1' },
  { collection: 'job_data.chunks', key: { files_id: 1, n: 1 }, name: 'files_id_1_n_1', unique: true },
];

/** Makes job_data's indexes (each kept as it is when it exists already). */
export async function createLargeDataIndexes(store: Store): Promise<void> {
  for (const { collection, ...spec } of LARGE_DATA_INDEXES) await store.collection(collection).createIndex(spec);
}

/** The value a large-data id names, or undefined when none does. */
export async function readLargeData(store: Store, id: string): Promise<{ value: unknown; file: Doc } | undefined> {
  const file = await store.collection('job_data.files').findOne({ _id: id });
  if (!file) return undefined;
  const chunks = await store.collection('job_data.chunks').find({ files_id: id }, { sort: { n: 1 } });
  return { value: JSON.parse(Buffer.concat(chunks.map((c) => chunkBytes(c.data))).toString('utf8')), file };
}

/** A chunk's bytes: binary data as both stores read it (a Buffer), or the text slice an earlier version of the console wrote. */
function chunkBytes(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  throw new Error(`a job_data chunk holds ${data === null ? 'null' : typeof data}, not binary data`);
}

/** A job's values kept in job_data (its tasks' too), as the job page lists them. */
export async function largeDataOf(store: Store, jobId: string): Promise<{ id: string; variable: string; task?: string; size: number }[]> {
  const docs = await store.collection('job_data').find({ job_id: jobId }, { sort: { variable: 1 } });
  return docs.map((d) => ({ id: String(d._id), variable: String(d.variable), ...(typeof d.task_id === 'string' ? { task: d.task_id } : {}), size: Number(d.size) }));
}

export interface Owner {
  job: string;
  task?: string;
}

/** Writes the value's JSON text to job_data as a GridFS file (once: the id is the hash of where it belongs and what it is); answers its id and size. */
export async function writeLargeDataFile(store: Store, owner: Owner, variable: string, text: string): Promise<{ id: string; size: number }> {
  const id = createHash('sha256').update(`${owner.job}\0${owner.task ?? ''}\0${variable}\0${text}`).digest('hex').slice(0, 24);
  const size = Buffer.byteLength(text);
  const files = store.collection('job_data.files');
  if (!(await files.findOne({ _id: id }, { projection: { _id: 1 } }))) {
    const bytes = Buffer.from(text, 'utf8');
    const chunks = [];
    // Cut by bytes, as GridFS does: every chunk but the last holds chunkSize bytes (a reader checks it).
    for (let n = 0; n * CHUNK < bytes.length; n++) chunks.push({ _id: `${id}${String(n).padStart(6, '0')}`, files_id: id, n, data: bytes.subarray(n * CHUNK, (n + 1) * CHUNK) });
    // The chunks first: a files document always names complete data.
    await store.collection('job_data.chunks').insertMany(chunks);
    await store.collection('job_data').insertOne({ _id: id, job_id: owner.job, ...(owner.task ? { task_id: owner.task } : {}), variable, size });
    await files.insertOne({
      _id: id,
      length: size,
      chunkSize: CHUNK,
      uploadDate: new Date(),
      filename: `${owner.job}/${owner.task ? `${owner.task}/` : ''}${variable}`,
      metadata: { job: owner.job, ...(owner.task ? { task: owner.task } : {}), variable },
    });
  }
  return { id, size };
}
