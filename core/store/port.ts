// The store port: the narrow set of collection operations the engine, indexing,
// health and profiles use. Two adapters implement it: MongoDB (official driver)
// and the embedded store (one SQLite file). Documents use string ids in both.

export type Doc = { _id?: string; [field: string]: unknown };

/**
 * A MongoDB query filter, the subset both adapters serve: equality on (dotted)
 * fields, $eq, $ne, $in, $nin, $lt, $lte, $gt, $gte, $exists, $or, $and; an array's
 * length ($size) and its element by index (`ancestors.0`); $regex (with $options)
 * on strings. The embedded store does not match a value inside an array by equality.
 */
export type Filter = Record<string, unknown>;

export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  /** Inclusion (1) or exclusion (0) of top-level or dotted fields; `_id` is kept unless excluded. */
  projection?: Record<string, 0 | 1>;
}

export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, '' | 1 | true>;
  $inc?: Record<string, number>;
}

export interface IndexSpec {
  key: Record<string, 1 | -1>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  /** MongoDB's partial index: only the documents matching this filter are in the index. */
  partialFilterExpression?: Record<string, unknown>;
}

export interface UpdateResult {
  matched: number;
  modified: number;
}

/** A collection whose documents have the shape `T` (callers name it; the store does not check it). */
export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  /** Inserts and returns the document's `_id` (generated when absent). */
  insertOne(doc: T): Promise<string>;
  insertMany(docs: T[]): Promise<string[]>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter?: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomically updates the first match (by `sort`) and returns it after the update, or null. */
  findOneAndUpdate(filter: Filter, update: Update, options?: { sort?: Sort }): Promise<T | null>;
  /**
   * Updates up to `limit` matches, the first ones by `sort`, each atomically (no two callers get the same
   * document), and returns them after the update in `sort` order (empty when none matches). The embedded
   * store does it in one statement; MongoDB, which has no multi-document find-and-modify, as findOneAndUpdate
   * calls until one finds nothing. The update must not change a field of `sort`.
   */
  findManyAndUpdate(filter: Filter, update: Update, options: { sort?: Sort; limit: number }): Promise<T[]>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(spec: IndexSpec): Promise<void>;
  /** Every index of the collection in MongoDB's shape, `_id_` included. */
  listIndexes(): Promise<IndexSpec[]>;
  dropIndex(name: string): Promise<void>;
}

/** What a reader of a collection may do: read, never write (the engine's jobs and task records, outside its executor). */
export type ReadOnlyCollection<T extends Doc = Doc> = Pick<Collection<T>, 'name' | 'findOne' | 'find' | 'count'>;

/**
 * ok: reads and writes work; read-only: the check at open failed (writes answer 503); write-failing:
 * the last write failed (disk full, read-only file, I/O error); stopped: the file was not opened.
 */
export interface StoreSafety {
  state: 'ok' | 'read-only' | 'write-failing' | 'stopped';
  writable: boolean;
  /** What happened, naming the file and the cause. */
  reason?: string;
  /** Since when (ms since the epoch). */
  since?: number;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  /** Where the data is, for people: "embedded store /data/profiles/x/db/console.sqlite" or "MongoDB at db1:27017 (db pronghorn)". */
  readonly location: string;
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /**
   * Runs `fn` as one transaction where the store has them (the embedded store):
   * the calls `fn` makes (in its async context, through `tx` or any collection of
   * this store) commit together or not at all, and other calls of this process wait
   * for it. Absent where the store has none; callers then write in an order a
   * sweeper can recover from.
   */
  transaction?<R>(fn: (tx: Store) => Promise<R>): Promise<R>;
  /**
   * MongoDB: runs `fn` as one session transaction where the server has them (a replica set or a
   * sharded cluster): the calls `fn` makes in its async context commit together or not at all.
   * On a standalone server `fn` runs as it is. `fn` must leave no write running once it returns.
   * Absent where the store has `transaction` (the embedded store).
   */
  sessionTransaction?<R>(fn: () => Promise<R>): Promise<R>;
  /**
   * Where the store can tell without reading (the embedded store): counts the writes to the
   * documents of `collection` by the value of their `field`, for `changeVersion`.
   */
  trackChanges?(collection: string, field: string): void;
  /**
   * A version of the documents of `collection` (tracked by `trackChanges`) whose field equals
   * `value`: equal versions mean none of them was written in between, by this process or
   * another. Undefined when the collection is not tracked. `before`: taken before a read, to be
   * compared only with a version taken later inside a transaction (the store may then answer
   * another process's part as it last saw it, not asking again: a commit since moves the later one).
   */
  changeVersion?(collection: string, value: string, before?: boolean): string | undefined;
  /**
   * Tells `handlers.change` of each change to `collection` that matches `match` (a filter on
   * MongoDB change events: `operationType`, `fullDocument.x`, `updateDescription.updatedFields.x`),
   * as a MongoDB change stream does. Absent where the store has none (the embedded store).
   * `handlers.error` is called once when the stream cannot be opened or breaks for good (a
   * standalone server offers no change streams); the stream is then closed.
   */
  watch?(collection: string, match: Filter, handlers: { change(): void; error(error: Error): void }): { close(): Promise<void> };
  /** The last PRAGMA integrity_check of an embedded file, where the store has one (undefined until one has ended). */
  integrity?(): Promise<{ ok: boolean; problems: string[]; checkedAt: number } | undefined>;
  /** Whether the store can be written now, and why not (the embedded store: read-only after a failed check, writes failing, or stopped at open). */
  safety?(): StoreSafety;
  /** The store's identity inside its file (the embedded store; undefined for a file opened read-only before it had one). */
  identity?(): { id: string; createdAt: string; schemaVersion: number; generation: number; highWater: Record<string, number> } | undefined;
  listCollections(): Promise<string[]>;
  /** Resolves when the database answers; rejects with an error that names the cause. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
