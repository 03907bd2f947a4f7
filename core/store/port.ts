// The store port: the narrow set of collection operations the engine, indexing,
// health and profiles use. Two adapters implement it: MongoDB (official driver)
// and the embedded file-backed store. Documents use string ids in both.

export type Doc = { _id?: string; [field: string]: unknown };

/**
 * A MongoDB query filter, the subset both adapters serve: equality on (dotted)
 * fields, $eq, $ne, $in, $nin, $lt, $lte, $gt, $gte, $exists, $or, $and.
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
}

export interface UpdateResult {
  matched: number;
  modified: number;
}

export interface Collection {
  readonly name: string;
  /** Inserts and returns the document's `_id` (generated when absent). */
  insertOne(doc: Doc): Promise<string>;
  insertMany(docs: Doc[]): Promise<string[]>;
  findOne(filter: Filter, options?: FindOptions): Promise<Doc | null>;
  find(filter: Filter, options?: FindOptions): Promise<Doc[]>;
  count(filter?: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomically updates the first match (by `sort`) and returns it after the update, or null. */
  findOneAndUpdate(filter: Filter, update: Update, options?: { sort?: Sort }): Promise<Doc | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(spec: IndexSpec): Promise<void>;
  /** Every index of the collection in MongoDB's shape, `_id_` included. */
  listIndexes(): Promise<IndexSpec[]>;
  dropIndex(name: string): Promise<void>;
}

export interface Store {
  readonly kind: 'embedded' | 'mongodb';
  /** Where the data is, for people: "embedded store in /data/profiles/x/db" or "MongoDB at db1:27017 (db pronghorn)". */
  readonly location: string;
  collection(name: string): Collection;
  listCollections(): Promise<string[]>;
  /** Resolves when the database answers; rejects with an error that names the cause. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
