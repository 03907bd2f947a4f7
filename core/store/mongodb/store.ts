// The MongoDB adapter: one MongoClient per opened profile, on the official driver.
// The client connects at the first operation, so the Store exists even when the
// database is down; its operations and ping() then fail with a clear StoreError.
// Where the server has transactions (a replica set, a sharded cluster), a unit of work
// asked for as one (`sessionTransaction`) is a session transaction: the calls made in its
// async context carry its session while it is open.
import { AsyncLocalStorage } from 'node:async_hooks';
import { MongoClient, ObjectId, type ChangeStream, type ClientSession, type Collection as DriverCollection, type Db, type Document } from 'mongodb';
import type { Collection, Doc, Filter, FindOptions, IndexSpec, Sort, Update, UpdateResult, Store } from '../port';
import { checkCollectionName, checkFindMany, StoreError } from '../errors';
import { rewriteMongoError } from './errors';
import { decodeDocKeys, encodeDocKeys, encodeUpdateValues } from './keys';
import { eitherIdForm, plainIds } from './object-ids';
import { mongoSettings, type MongoProps, type MongoSettings } from './settings';

export interface MongoStoreOptions {
  timeoutMs?: number;
  /** Why this profile cannot connect at all (e.g. its sealed password cannot be read): every call fails with it. */
  unusable?: string;
}

export function openMongoStore(props: MongoProps, options: MongoStoreOptions = {}): Store {
  const s = mongoSettings(props, options.timeoutMs);
  let connecting: Promise<MongoClient> | undefined;
  let closed = false;

  // Connects at the first call; a failed connection is forgotten so the next call
  // tries again (a database that was down at startup is used once it is back).
  const client = (): Promise<MongoClient> => {
    if (closed) return Promise.reject(new StoreError('failed', `the connection to MongoDB at ${s.hosts} is closed`));
    if (options.unusable) return Promise.reject(new StoreError('auth', options.unusable));
    if (!connecting) {
      const attempt = (async () => {
        const c = new MongoClient(s.url, s.options);
        try {
          return await c.connect();
        } catch (error) {
          // The connect error is the one to report; closing the failed client is cleanup.
          await c.close().catch(() => undefined);
          throw error;
        }
      })();
      connecting = attempt;
      attempt.catch(() => {
        if (connecting === attempt) connecting = undefined;
      });
    }
    return connecting;
  };
  const db = async (): Promise<Db> => (await client()).db(s.db);
  // The session transaction open in the caller's async context (`open` false once it ended: a
  // timer or callback made inside it and run later writes outside it).
  const sessions = new AsyncLocalStorage<{ session: ClientSession; open: boolean }>();
  const inSession: SessionOf = () => {
    const current = sessions.getStore();
    return current?.open ? { session: current.session } : {};
  };
  // Whether the server has transactions, asked once per connected client.
  const transactional = new WeakMap<MongoClient, Promise<boolean>>();
  const hasTransactions = async (c: MongoClient): Promise<boolean> => {
    let known = transactional.get(c);
    if (!known) {
      known = c
        .db(s.db)
        .command({ hello: 1 })
        .then((hello) => typeof hello.setName === 'string' || hello.msg === 'isdbgrid');
      transactional.set(c, known);
    }
    return known;
  };
  const run = async <T>(fn: () => Promise<T>, collection?: string): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      throw rewriteMongoError(error, s, collection);
    }
  };

  return {
    kind: 'mongodb',
    location: `MongoDB at ${s.hosts} (db ${s.db})`,
    collection<T extends Doc = Doc>(name: string): Collection<T> {
      checkCollectionName(name);
      return new MongoCollection<T>(name, async () => (await db()).collection(name), run, inSession);
    },
    async sessionTransaction<R>(fn: () => Promise<R>): Promise<R> {
      if (sessions.getStore()?.open) return fn(); // a unit inside another joins it
      const c = await run(client);
      if (!(await run(() => hasTransactions(c)))) return fn();
      const session = c.startSession();
      const current = { session, open: true };
      try {
        session.startTransaction();
        const result = await sessions.run(current, fn);
        await run(() => session.commitTransaction());
        return result;
      } catch (error) {
        // The work's own error is the one to report; the abort only ends the transaction.
        if (session.inTransaction()) await session.abortTransaction().catch(() => undefined);
        throw error;
      } finally {
        current.open = false;
        await session.endSession();
      }
    },
    listCollections: () =>
      run(async () => {
        const names = await (await db()).listCollections({}, { nameOnly: true }).toArray();
        return names.map((c) => c.name).filter((n) => !n.startsWith('system.')).sort();
      }),
    watch(collection, match, handlers) {
      checkCollectionName(collection);
      let stream: ChangeStream | undefined;
      let closed = false;
      let failed = false;
      const fail = (error: unknown) => {
        if (failed || closed) return;
        failed = true;
        handlers.error(rewriteMongoError(error, s, collection));
        // Broken for good: closing it only frees the cursor.
        void stream?.close().catch(() => undefined);
      };
      db()
        .then((d) => {
          if (closed) return;
          stream = d.collection(collection).watch([{ $match: match }]);
          stream.on('change', () => handlers.change());
          stream.on('error', fail);
        })
        .catch(fail);
      return {
        async close() {
          closed = true;
          await stream?.close();
        },
      };
    },
    ping: () =>
      run(async () => {
        await (await db()).command({ ping: 1 });
      }),
    async close() {
      if (closed) return;
      closed = true;
      const pending = connecting;
      connecting = undefined;
      // Closing: a connection that failed to open has nothing to close, and a failing close leaves nothing to keep.
      const c = await pending?.catch(() => undefined);
      await c?.close().catch(() => undefined);
    },
  };
}

// String ids, not ObjectIds: the driver's default document type does not fit them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RawCollection = DriverCollection<any>;

type Run = <T>(fn: () => Promise<T>, collection?: string) => Promise<T>;
/** The session of the transaction open in the caller's async context, as driver options (none: `{}`). */
type SessionOf = () => { session?: ClientSession };

class MongoCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(
    readonly name: string,
    private readonly coll: () => Promise<RawCollection>,
    private readonly runner: Run,
    private readonly session: SessionOf,
  ) {}

  private run<T>(fn: (c: RawCollection) => Promise<T>) {
    return this.runner(async () => fn(await this.coll()), this.name);
  }

  /** A document read back, keys decoded, as the caller's document type: the store keeps what it was given. */
  private read(doc: Document): T;
  private read(doc: Document | null): T | null;
  private read(doc: Document | null): T | null {
    return doc === null ? null : (plainIds(decodeDocKeys(doc)) as T);
  }

  insertOne(doc: T) {
    return this.run(async (c) => {
      const copy = withId(doc);
      await c.insertOne(encodeDocKeys(copy), this.session());
      return copy._id;
    });
  }

  insertMany(docs: T[]) {
    return this.run(async (c) => {
      if (docs.length === 0) return [];
      const copies = docs.map(withId);
      await c.insertMany(copies.map(encodeDocKeys), this.session());
      return copies.map((d) => d._id);
    });
  }

  findOne(filter: Filter, options: FindOptions = {}) {
    return this.run(async (c) => this.read(await c.findOne(eitherIdForm(filter), { ...findOptions(options), ...this.session() })));
  }

  find(filter: Filter, options: FindOptions = {}) {
    return this.run(async (c) => (await c.find(eitherIdForm(filter), { ...findOptions(options), ...this.session() }).toArray()).map((doc) => this.read(doc)));
  }

  count(filter: Filter = {}) {
    return this.run((c) => c.countDocuments(eitherIdForm(filter), this.session()));
  }

  updateOne(filter: Filter, update: Update) {
    return this.run(async (c) => updateResult(await c.updateOne(eitherIdForm(filter), encodeUpdateValues(update), this.session())));
  }

  updateMany(filter: Filter, update: Update) {
    return this.run(async (c) => updateResult(await c.updateMany(eitherIdForm(filter), encodeUpdateValues(update), this.session())));
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { sort?: Sort } = {}) {
    return this.run(
      async (c) =>
        this.read(
          await c.findOneAndUpdate(eitherIdForm(filter), encodeUpdateValues(update), {
            ...(options.sort ? { sort: options.sort } : {}),
            returnDocument: 'after',
            includeResultMetadata: false,
            ...this.session(),
          }),
        ),
    );
  }

  /** MongoDB has no multi-document find-and-modify: one findOneAndUpdate per document, each atomic, until one finds none. */
  async findManyAndUpdate(filter: Filter, update: Update, options: { sort?: Sort; limit: number }) {
    const limit = checkFindMany(update, options);
    const docs: T[] = [];
    for (let i = 0; i < limit; i++) {
      const doc = await this.findOneAndUpdate(filter, update, options);
      if (!doc) break;
      docs.push(doc);
    }
    return docs;
  }

  deleteOne(filter: Filter) {
    return this.run(async (c) => (await c.deleteOne(eitherIdForm(filter), this.session())).deletedCount);
  }

  deleteMany(filter: Filter) {
    return this.run(async (c) => (await c.deleteMany(eitherIdForm(filter), this.session())).deletedCount);
  }

  createIndex(spec: IndexSpec) {
    return this.run(async (c) => {
      if (spec.name === '_id_') return;
      await c.createIndex(spec.key, {
        name: spec.name,
        ...(spec.unique ? { unique: true } : {}),
        ...(spec.sparse ? { sparse: true } : {}),
        ...(spec.expireAfterSeconds !== undefined ? { expireAfterSeconds: spec.expireAfterSeconds } : {}),
        ...(spec.partialFilterExpression ? { partialFilterExpression: spec.partialFilterExpression } : {}),
      });
    });
  }

  listIndexes() {
    return this.run(async (c) => {
      try {
        const raw = await c.listIndexes().toArray();
        return raw.map(toSpec);
      } catch (error) {
        // A collection that does not exist yet has no indexes (not an error for callers).
        if (typeof error === 'object' && error !== null && 'code' in error && error.code === 26) return [];
        throw error;
      }
    });
  }

  dropIndex(name: string) {
    return this.run(async (c) => {
      if (name === '_id_') throw new StoreError('invalid', `cannot drop the _id_ index of ${this.name}`);
      await c.dropIndex(name);
    });
  }
}

function withId(doc: Doc): Doc & { _id: string } {
  return { ...doc, _id: doc._id ?? new ObjectId().toHexString() };
}

function findOptions(options: FindOptions) {
  return {
    ...(options.sort ? { sort: options.sort } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.projection ? { projection: options.projection } : {}),
  };
}

function updateResult(r: { matchedCount: number; modifiedCount: number }): UpdateResult {
  return { matched: r.matchedCount, modified: r.modifiedCount };
}

function toSpec(raw: Document): IndexSpec {
  const spec: IndexSpec = { key: raw.key, name: String(raw.name) };
  // MongoDB never lists `unique` on _id_; some compatible servers do.
  if (raw.unique && spec.name !== '_id_') spec.unique = true;
  if (raw.sparse) spec.sparse = true;
  if (typeof raw.expireAfterSeconds === 'number') spec.expireAfterSeconds = raw.expireAfterSeconds;
  if (raw.partialFilterExpression && typeof raw.partialFilterExpression === 'object') spec.partialFilterExpression = raw.partialFilterExpression as Record<string, unknown>;
  return spec;
}

export type { MongoSettings };
