// The embedded store: a folder with one datastore file per collection and
// `indexes.json` holding the collections' index specifications. Every Store
// opened on the same folder in this process shares one database object (and so
// one in-memory copy and one write queue per collection); the last close
// compacts the files and lets it go.
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';
import type { Collection, IndexSpec, Store } from '../port';
import { checkCollectionName, StoreError } from '../errors';
import { EmbeddedCollection, type IndexBook } from './collection';
import { readIndexFile, writeIndexFile } from './index-specs';

class EmbeddedDatabase implements IndexBook {
  users = 0;
  private readonly collections = new Map<string, EmbeddedCollection>();
  private specs: Record<string, IndexSpec[]> = {};

  constructor(readonly dir: string) {}

  /** A damaged indexes.json: every collection refuses to load until it is fixed (the console still starts). */
  problem: StoreError | undefined;

  async open() {
    await fs.mkdir(this.dir, { recursive: true });
    try {
      this.specs = await readIndexFile(this.dir);
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      this.problem = error;
    }
  }

  collection(name: string): EmbeddedCollection {
    checkCollectionName(name);
    let c = this.collections.get(name);
    if (!c) {
      c = new EmbeddedCollection(name, this.dir, this);
      this.collections.set(name, c);
    }
    return c;
  }

  get(collection: string) {
    if (this.problem) throw this.problem;
    return this.specs[collection];
  }

  private writes: Promise<unknown> = Promise.resolve();

  /** Index changes of all collections go through one queue, so two changes never overwrite each other's file. */
  set(collection: string, specs: IndexSpec[] | undefined): Promise<void> {
    const write = this.writes.then(async () => {
      const next = { ...this.specs };
      if (specs) next[collection] = specs;
      else delete next[collection];
      await writeIndexFile(this.dir, next);
      this.specs = next;
    });
    // The caller gets `write`'s error; the chain only orders the next write after this one.
    this.writes = write.catch(() => undefined);
    return write;
  }

  async collectionNames(): Promise<string[]> {
    const entries = await fs.readdir(this.dir);
    return entries
      .filter((f) => f.endsWith('.db'))
      .map((f) => f.slice(0, -3))
      .sort();
  }

  async compactAll() {
    // Compaction only shortens the files: one that fails leaves its file whole, and the next write reports real trouble.
    for (const c of this.collections.values()) await c.compact().catch(() => undefined);
  }
}

const open = new Map<string, Promise<EmbeddedDatabase>>();

async function acquire(dir: string): Promise<EmbeddedDatabase> {
  let pending = open.get(dir);
  if (!pending) {
    const db = new EmbeddedDatabase(dir);
    pending = db.open().then(() => db);
    open.set(dir, pending);
    pending.catch(() => open.delete(dir));
  }
  const db = await pending;
  db.users++;
  return db;
}

async function release(db: EmbeddedDatabase) {
  db.users--;
  if (db.users > 0) return;
  open.delete(db.dir);
  await db.compactAll();
}

export async function openEmbeddedStore(dir: string): Promise<Store> {
  const absolute = path.resolve(dir);
  const db = await acquire(absolute);
  let closed = false;
  const live = () => {
    if (closed) throw new StoreError('failed', `the embedded store in ${absolute} is closed`);
    return db;
  };
  return {
    kind: 'embedded',
    location: `embedded store in ${absolute}`,
    collection: (name: string): Collection => live().collection(name),
    listCollections: () => live().collectionNames(),
    async ping() {
      const d = live();
      try {
        await fs.access(d.dir, constants.R_OK | constants.W_OK);
      } catch (error) {
        throw new StoreError('unreachable', `the embedded store folder ${d.dir} cannot be used: ${(error as Error).message}`);
      }
      if (d.problem) throw d.problem;
      // Loading every collection reports a damaged file now rather than at its first use.
      for (const name of await d.collectionNames()) await d.collection(name).check();
    },
    async close() {
      if (closed) return;
      closed = true;
      await release(db);
    },
  };
}
