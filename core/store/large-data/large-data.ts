// Large job and task values in `job_data`, as the service keeps them (issue 46). The service stores
// a job or task variable too large for the job document in the `job_data` GridFS bucket and serves
// it at GET /operations-manager/large-data/:id, `id` being "the id of the job_data document in
// GridFS" (24 hex digits; Operations Manager API, "Export large data for a job or task variable").
// Its tools delete a job's large data with it by `job_data.job_id`, `job_data.files.metadata.job`
// and `job_data.chunks.files_id` (itential/job-and-task-archiver), so the console writes those three:
//   job_data         { _id, job_id, task_id?, variable, size }
//   job_data.files   { _id, length, chunkSize, uploadDate, filename, metadata: { job, task?, variable } }
//   job_data.chunks  { _id, files_id, n, data }   (data: binary, the n-th chunkSize bytes of the value's JSON text in UTF-8)
// as a GridFS bucket holds a file (bucket.ts), so a GridFS reader (the driver's GridFSBucket, mongofiles)
// reads it whole; and the job or task document holds, in the value's place, the reference `{ "~4largeData": { id, size } }`
// (the service's own reference shape is not documented; this one is the console's, in the style of
// the undefined codec's "~4undefined").
//
// `withLargeData` shapes the documents of `jobs` and `tasks` on their way through the store port:
// a value above the threshold goes to job_data on write, and comes back whole on read, so the
// engine, which reads through it, always works with the real value. Same store port, so the
// embedded store and MongoDB hold the same documents.
import type { Collection, Doc, Filter, FindOptions, Sort, Store, Update } from '../port';
import { readLargeData, writeLargeDataFile, type Owner } from './bucket';

export const LARGE_DATA = '~4largeData';
/** The console's threshold (bytes of a value's JSON text): the service documents none. */
export const LARGE_DATA_BYTES = 1024 * 1024;

export interface LargeDataRef {
  [LARGE_DATA]: { id: string; size: number };
}

/** The fields of each collection whose values (each of their keys) may be large. */
const FIELDS: Record<string, readonly string[]> = { jobs: ['variables'], tasks: ['incoming', 'outgoing', 'incomingOverride'] };

export const isLargeDataRef = (value: unknown): value is LargeDataRef => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== LARGE_DATA) return false;
  const inner: unknown = Reflect.get(value, LARGE_DATA);
  return inner !== null && typeof inner === 'object' && typeof Reflect.get(inner, 'id') === 'string';
};

export const LARGE_DATA_ID = /^[0-9a-f]{24}$/;


/** Writes the value to job_data and answers its reference. */
async function writeLargeData(store: Store, owner: Owner, variable: string, text: string): Promise<LargeDataRef> {
  const file = await writeLargeDataFile(store, owner, variable, text);
  return { [LARGE_DATA]: file };
}

/**
 * What is left of `budget` bytes once the JSON text of `value` is counted: an upper bound (a
 * character of a string as 6 bytes, `\uXXXX`), the walk stopping as soon as it is below 0.
 * A function of the module, not a closure made per call: a start checks every value it writes.
 */
function bytesLeft(v: unknown, budget: number): number {
  if (typeof v === 'string') return budget - (v.length * 6 + 2);
  if (v === null || typeof v !== 'object') return budget - 24;
  let left = budget - 2;
  if (Array.isArray(v)) {
    for (const item of v) if ((left = bytesLeft(item, left)) < 0) return left;
    return left;
  }
  for (const key in v) {
    left -= key.length * 6 + 4;
    if ((left = bytesLeft(Reflect.get(v, key), left)) < 0) return left;
  }
  return left;
}

/** Whether the JSON text of `value` may be above `budget` bytes (bytesLeft). */
const mayExceed = (value: unknown, budget: number): boolean => bytesLeft(value, budget) < 0;

class LargeDataCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly inner: Collection<T>,
    private readonly store: Store,
    private readonly fields: readonly string[],
    private readonly threshold: number,
  ) {}

  get name() {
    return this.inner.name;
  }

  /** The owner of the documents a write reaches: the job (and task) ids, read only when a value is large. */
  private async owner(doc: Doc | undefined, filter: Filter | undefined): Promise<Owner> {
    const found = doc ?? (filter ? ((await this.inner.findOne(filter, { projection: { _id: 1, jobId: 1, job: 1 } })) ?? undefined) : undefined);
    const id = String(found?._id ?? (filter && typeof filter._id === 'string' ? filter._id : 'unknown'));
    if (this.inner.name !== 'tasks') return { job: id };
    const nested: unknown = found?.job;
    const job: unknown = found?.jobId ?? (nested !== null && typeof nested === 'object' ? Reflect.get(nested, '_id') : undefined);
    return { job: typeof job === 'string' ? job : 'unknown', task: id };
  }

  /** `value` as written: its reference when its JSON text is above the threshold. */
  private async shape(value: unknown, variable: string, owner: () => Promise<Owner>): Promise<unknown> {
    if (value === undefined || value === null || (typeof value !== 'object' && typeof value !== 'string') || isLargeDataRef(value)) return value;
    // Most values are small: a walk bounding their JSON text's size answers without writing it.
    if (!mayExceed(value, this.threshold)) return value;
    const text = JSON.stringify(value);
    if (text === undefined || Buffer.byteLength(text) <= this.threshold) return value;
    return writeLargeData(this.store, await owner(), variable, text);
  }

  /** The record of values (`variables`, `incoming`…) with each large one replaced by its reference. */
  private async shapeRecord(record: unknown, field: string, owner: () => Promise<Owner>): Promise<unknown> {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(record)) {
      const shaped = await this.shape(value, `${field}.${key}`, owner);
      if (shaped !== value) (out ??= Object.fromEntries(Object.entries(record)))[key] = shaped;
    }
    return out ?? record;
  }

  /** Whether a record of values (`variables`, `incoming`…) holds a value that may be above the threshold (a bounded walk, no await). */
  private mayHoldLarge(record: unknown): boolean {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) return false;
    for (const key in record) {
      const value: unknown = Reflect.get(record, key);
      if ((typeof value === 'string' || (value !== null && typeof value === 'object')) && !isLargeDataRef(value) && mayExceed(value, this.threshold)) return true;
    }
    return false;
  }

  /** `doc` as written; the same object, with no await, when none of its values may be large (nearly every write). */
  private shapeDoc(doc: T): T | Promise<T> {
    for (const field of this.fields) if (this.mayHoldLarge(doc[field])) return this.shapeLarge(doc);
    return doc;
  }

  private async shapeLarge(doc: T): Promise<T> {
    const out: T = { ...doc };
    let changed = false;
    for (const field of this.fields) {
      if (!(field in doc)) continue;
      const shaped = await this.shapeRecord(doc[field], field, () => this.owner(doc, undefined));
      if (shaped !== doc[field]) {
        Reflect.set(out, field, shaped);
        changed = true;
      }
    }
    return changed ? out : doc;
  }

  /** A $set key that writes a record of values (`variables`) or one of its values (`variables.x`); undefined for any other. */
  private valuesAt(key: string): { field: string; name?: string } | undefined {
    const [field, name, ...rest] = key.split('.');
    return field && this.fields.includes(field) && !rest.length ? { field, name } : undefined;
  }

  /** `update` as written; the same object, with no await, when none of the values it sets may be large. */
  private shapeUpdate(filter: Filter, update: Update): Update | Promise<Update> {
    const set = update.$set;
    if (!set) return update;
    const large = Object.keys(set).some((key) => {
      const at = this.valuesAt(key);
      return at !== undefined && (at.name === undefined ? this.mayHoldLarge(set[key]) : this.mayHoldLarge({ [at.name]: set[key] }));
    });
    return large ? this.shapeLargeUpdate(filter, update, set) : update;
  }

  private async shapeLargeUpdate(filter: Filter, update: Update, set: Record<string, unknown>): Promise<Update> {
    let known: Promise<Owner> | undefined;
    const owner = () => (known ??= this.owner(undefined, filter));
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(set)) {
      const at = this.valuesAt(key);
      if (!at) continue;
      const shaped = at.name === undefined ? await this.shapeRecord(value, at.field, owner) : await this.shape(value, key, owner);
      if (shaped !== value) (out ??= { ...set })[key] = shaped;
    }
    return out ? { ...update, $set: out } : update;
  }

  /** The documents with each reference replaced by the value it names; the same array, with no await, when they hold none. */
  private resolve<D extends Doc | null>(docs: D[]): D[] | Promise<D[]> {
    const refs: { record: object; key: string; id: string }[] = [];
    for (const doc of docs) {
      if (!doc) continue;
      for (const field of this.fields) {
        const record = doc[field];
        if (record === null || typeof record !== 'object' || Array.isArray(record)) continue;
        for (const key in record) {
          const value: unknown = Reflect.get(record, key);
          if (isLargeDataRef(value)) refs.push({ record, key, id: value[LARGE_DATA].id });
        }
      }
    }
    return refs.length ? this.readRefs(docs, refs) : docs;
  }

  private resolveOne(doc: T): T | Promise<T> {
    const resolved = this.resolve([doc]);
    return resolved instanceof Promise ? resolved.then(() => doc) : doc;
  }

  private async readRefs<D>(docs: D[], refs: { record: object; key: string; id: string }[]): Promise<D[]> {
    for (const ref of refs) {
      const found = await readLargeData(this.store, ref.id);
      // A reference whose data is gone (deleted by a tool) stays as it is: the page shows what is missing.
      if (found) Reflect.set(ref.record, ref.key, found.value);
    }
    return docs;
  }

  // No async layer of its own on the common path (values small, no reference): the inner call's promise as it is.
  insertOne(doc: T) {
    const shaped = this.shapeDoc(doc);
    return shaped instanceof Promise ? shaped.then((d) => this.inner.insertOne(d)) : this.inner.insertOne(shaped);
  }
  async insertMany(docs: T[]) {
    const shaped = [];
    for (const doc of docs) shaped.push(await this.shapeDoc(doc));
    return this.inner.insertMany(shaped);
  }
  findOne(filter: Filter, options?: FindOptions) {
    return this.inner.findOne(filter, options).then((doc) => (doc ? this.resolveOne(doc) : null));
  }
  find(filter: Filter, options?: FindOptions) {
    return this.inner.find(filter, options).then((docs) => this.resolve(docs));
  }
  count(filter?: Filter) {
    return this.inner.count(filter);
  }
  updateOne(filter: Filter, update: Update) {
    const shaped = this.shapeUpdate(filter, update);
    return shaped instanceof Promise ? shaped.then((u) => this.inner.updateOne(filter, u)) : this.inner.updateOne(filter, shaped);
  }
  async updateMany(filter: Filter, update: Update) {
    return this.inner.updateMany(filter, await this.shapeUpdate(filter, update));
  }
  async findOneAndUpdate(filter: Filter, update: Update, options?: { sort?: Sort }) {
    const doc = await this.inner.findOneAndUpdate(filter, await this.shapeUpdate(filter, update), options);
    return doc ? this.resolveOne(doc) : null;
  }
  async findManyAndUpdate(filter: Filter, update: Update, options: { sort?: Sort; limit: number }) {
    return this.resolve(await this.inner.findManyAndUpdate(filter, await this.shapeUpdate(filter, update), options));
  }
  deleteOne(filter: Filter) {
    return this.inner.deleteOne(filter);
  }
  deleteMany(filter: Filter) {
    return this.inner.deleteMany(filter);
  }
  createIndex(...args: Parameters<Collection<T>['createIndex']>) {
    return this.inner.createIndex(...args);
  }
  listIndexes() {
    return this.inner.listIndexes();
  }
  dropIndex(name: string) {
    return this.inner.dropIndex(name);
  }
}

/**
 * The store as the engine uses it: the same store, whose `jobs` and `tasks` keep values above
 * `threshold` bytes in job_data (a transaction's store too).
 */
export function withLargeData(store: Store, threshold = LARGE_DATA_BYTES): Store {
  // Made once per wrapped store, not at every access: the engine asks for them on every write.
  // Collections are asked of the store each time (a closed store says so).
  const collection = <T extends Doc>(name: string): Collection<T> => {
    const inner = store.collection<T>(name);
    const fields = FIELDS[name];
    return fields ? new LargeDataCollection<T>(inner, shaped, fields, threshold) : inner;
  };
  const inner = store.transaction?.bind(store);
  // A transaction's store wrapped once: the embedded store hands itself (this wrapper, then), MongoDB a session's store.
  const wrapped = new WeakMap<Store, Store>();
  const wrap = (tx: Store): Store => {
    if (tx === store) return shaped;
    let found = wrapped.get(tx);
    if (!found) wrapped.set(tx, (found = withLargeData(tx, threshold)));
    return found;
  };
  const transaction = inner && (<R>(fn: (tx: Store) => Promise<R>) => inner((tx) => fn(wrap(tx))));
  const bound = new Map<PropertyKey, unknown>();
  const shaped: Store = new Proxy(store, {
    get(target, property) {
      if (property === 'collection') return collection;
      if (property === 'transaction' && transaction) return transaction;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (!method) bound.set(property, (method = value.bind(target)));
      return method;
    },
  });
  return shaped;
}
