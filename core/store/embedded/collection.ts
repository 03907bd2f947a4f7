// One collection of the embedded store: a datastore file `<name>.db` loaded on
// first use. Reads of a collection that has no file yet answer empty without
// creating it, so listCollections shows only collections that were written to.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Datastore from '@seald-io/nedb';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, Sort, Update, UpdateResult } from '../port';
import { StoreError } from '../errors';
import { checkDataFile } from './data-file';
import { firstMatchId } from './first-match';
import { applyIndexes, checkNewSpec, ID_INDEX, normalizeSpec } from './index-specs';
import { Serial } from './serial';

/** What the collection needs from the database that holds it: the shared index metadata. */
export interface IndexBook {
  get(collection: string): IndexSpec[] | undefined;
  set(collection: string, specs: IndexSpec[] | undefined): Promise<void>;
}

export class EmbeddedCollection implements Collection {
  readonly file: string;
  /**
   * Every write to this collection runs through this queue. findOneAndUpdate is a find
   * followed by an update: with the two inside one queued step no other write can come
   * between them, so two claims never take the same document. That is enough here
   * because the embedded store belongs to one process (the console that opened the
   * profile) and every Store opened on the same folder in that process shares this
   * object; the datastore files are never written by another process.
   */
  private readonly writes = new Serial();
  private loading: Promise<Datastore> | undefined;

  constructor(
    readonly name: string,
    dir: string,
    private readonly book: IndexBook,
  ) {
    this.file = path.join(dir, `${name}.db`);
  }

  /** The loaded datastore, creating the file (a write is coming). */
  private load(): Promise<Datastore> {
    this.loading ??= this.open();
    return this.loading;
  }

  /** The loaded datastore, or null when the collection has no file yet (a read). */
  private async loadIfExists(): Promise<Datastore | null> {
    if (this.loading) return this.loading;
    const exists = await fs.access(this.file).then(
      () => true,
      () => false,
    );
    return exists ? this.load() : null;
  }

  private async open(): Promise<Datastore> {
    try {
      await checkDataFile(this.file);
      // corruptAlertThreshold 0: refuse any damaged line (checkDataFile already named it).
      const ds = new Datastore({ filename: this.file, corruptAlertThreshold: 0 });
      await ds.loadDatabaseAsync();
      await applyIndexes(ds, this.book.get(this.name) ?? []);
      return ds;
    } catch (error) {
      // Try again at the next call rather than keeping a failure forever.
      this.loading = undefined;
      throw this.rewrite(error);
    }
  }

  /** Loads the file now, reporting a damaged one. */
  async check(): Promise<void> {
    await this.loadIfExists();
  }

  async compact(): Promise<void> {
    if (!this.loading) return;
    const ds = await this.loading.catch(() => null);
    await ds?.compactDatafileAsync();
  }

  private rewrite(error: unknown): Error {
    if (error instanceof StoreError) return error;
    const e = error as Error & { errorType?: string; key?: unknown };
    if (e.errorType === 'uniqueViolated') {
      return new StoreError('duplicate-key', `duplicate key in collection ${this.name}: ${JSON.stringify(e.key)} already exists`);
    }
    return new StoreError('failed', `collection ${this.name}: ${e.message}`);
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.rewrite(error);
    }
  }

  insertOne(doc: Doc): Promise<string> {
    return this.guard(async () => {
      const ds = await this.load();
      const saved = await this.writes.run(() => ds.insertAsync(doc));
      return saved._id;
    });
  }

  insertMany(docs: Doc[]): Promise<string[]> {
    return this.guard(async () => {
      if (docs.length === 0) return [];
      const ds = await this.load();
      const saved = await this.writes.run(() => ds.insertAsync(docs));
      return saved.map((d) => d._id as string);
    });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<Doc | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  find(filter: Filter, options: FindOptions = {}): Promise<Doc[]> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      if (!ds) return [];
      return (await cursor(ds, filter, options)) as Doc[];
    });
  }

  count(filter: Filter = {}): Promise<number> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      return ds ? ds.countAsync(filter) : 0;
    });
  }

  updateOne(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.updateMatching(filter, update, 1);
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.updateMatching(filter, update);
  }

  private updateMatching(filter: Filter, update: Update, limit?: number): Promise<UpdateResult> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      if (!ds) return { matched: 0, modified: 0 };
      return this.writes.run(async () => {
        const before = (await cursor(ds, filter, { limit })) as Doc[];
        if (before.length === 0) return { matched: 0, modified: 0 };
        const { affectedDocuments } = await ds.updateAsync({ _id: { $in: before.map((d) => d._id) } }, update, {
          multi: true,
          returnUpdatedDocs: true,
        });
        const after = new Map(((affectedDocuments ?? []) as Doc[]).map((d) => [d._id, d]));
        const modified = before.filter((d) => JSON.stringify(d) !== JSON.stringify(after.get(d._id))).length;
        return { matched: before.length, modified };
      });
    });
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { sort?: Sort } = {}): Promise<Doc | null> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      if (!ds) return null;
      // One queued step: see `writes`.
      return this.writes.run(async () => {
        const id = await firstMatchId(ds, filter, options.sort);
        if (id === undefined) return null;
        const { affectedDocuments } = await ds.updateAsync({ _id: id }, update, { returnUpdatedDocs: true });
        return (affectedDocuments as Doc | null) ?? null;
      });
    });
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.remove(filter, false);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.remove(filter, true);
  }

  private remove(filter: Filter, multi: boolean): Promise<number> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      if (!ds) return 0;
      return this.writes.run(async () => {
        if (multi) return ds.removeAsync(filter, { multi: true });
        const [first] = (await cursor(ds, filter, { limit: 1 })) as Doc[];
        return first ? ds.removeAsync({ _id: first._id }, {}) : 0;
      });
    });
  }

  createIndex(spec: IndexSpec): Promise<void> {
    return this.guard(async () => {
      if (spec.name === ID_INDEX.name) return;
      const ds = await this.load();
      await this.writes.run(async () => {
        const existing = this.book.get(this.name) ?? [];
        if (checkNewSpec(this.name, existing, spec) === 'exists') return;
        const next = [...existing, normalizeSpec(spec)];
        try {
          await applyIndexes(ds, next);
        } catch (error) {
          await applyIndexes(ds, existing);
          throw error;
        }
        await this.book.set(this.name, next);
      });
    });
  }

  listIndexes(): Promise<IndexSpec[]> {
    return this.guard(async () => {
      const ds = await this.loadIfExists();
      if (!ds) return [];
      return [ID_INDEX, ...(this.book.get(this.name) ?? [])].map(normalizeSpec);
    });
  }

  dropIndex(name: string): Promise<void> {
    return this.guard(async () => {
      if (name === ID_INDEX.name) throw new StoreError('invalid', `cannot drop the _id_ index of ${this.name}`);
      const ds = await this.loadIfExists();
      await this.writes.run(async () => {
        const existing = this.book.get(this.name) ?? [];
        if (!ds || !existing.some((s) => s.name === name)) {
          throw new StoreError('index-not-found', `index ${name} not found on ${this.name}`);
        }
        const next = existing.filter((s) => s.name !== name);
        await applyIndexes(ds, next);
        await this.book.set(this.name, next.length ? next : undefined);
      });
    });
  }
}

function cursor(ds: Datastore, filter: Filter, options: FindOptions) {
  let c = ds.findAsync(filter);
  if (options.sort && Object.keys(options.sort).length) c = c.sort(options.sort);
  if (options.skip) c = c.skip(options.skip);
  if (options.limit) c = c.limit(options.limit);
  if (options.projection && Object.keys(options.projection).length) c = c.projection(options.projection);
  return c;
}
