// The stores indexing is tested on: the embedded store in a fresh folder, and the
// MongoDB adapter over the wire (the jongodb test server, or MONGODB_URL when set).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Collection, IndexSpec, Store } from '../../../core/store/port';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import { openMongoStore } from '../../../core/store/mongodb/store';
import { startJongodb, type TestMongo } from '../../store/jongodb';

export interface StoreUnderTest {
  name: string;
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** What this store cannot do, so tests that need it say why they do not run. */
  lacks: { dropIndex?: string; listCollections?: string };
  dispose(): Promise<void>;
}

export function embeddedStore(): StoreUnderTest {
  const dirs: string[] = [];
  const stores: Store[] = [];
  return {
    name: 'embedded',
    lacks: {},
    async open() {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'indexes-store-'));
      dirs.push(dir);
      const store = await openEmbeddedStore(dir);
      stores.push(store);
      return store;
    },
    async dispose() {
      for (const store of stores) await store.close().catch(() => undefined);
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Counts createIndex and dropIndex calls, to see that a second request starts nothing new. */
export function countingStore(store: Store): Store & { calls: { create: string[]; drop: string[] } } {
  const calls = { create: [] as string[], drop: [] as string[] };
  const wrap = (c: Collection): Collection =>
    new Proxy(c, {
      get(target, prop, receiver) {
        if (prop === 'createIndex')
          return (spec: IndexSpec) => {
            calls.create.push(`${c.name}.${spec.name}`);
            return target.createIndex(spec);
          };
        if (prop === 'dropIndex')
          return (name: string) => {
            calls.drop.push(`${c.name}.${name}`);
            return target.dropIndex(name);
          };
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return Object.assign(Object.create(store) as Store, {
    kind: store.kind,
    location: store.location,
    collection: (name: string) => wrap(store.collection(name)),
    listCollections: () => store.listCollections(),
    ping: () => store.ping(),
    close: () => store.close(),
    calls,
  });
}

/**
 * The MongoDB adapter: against MONGODB_URL when set (a real MongoDB), otherwise
 * against the jongodb test server, which lacks dropIndexes and listCollections.
 */
export function mongoStore(): StoreUnderTest {
  const realUrl = process.env.MONGODB_URL;
  let server: Promise<TestMongo> | undefined;
  const stores: { store: Store; db: string }[] = [];
  let count = 0;
  return {
    name: realUrl ? 'MongoDB (MONGODB_URL)' : 'MongoDB adapter on jongodb',
    lacks: realUrl
      ? {}
      : {
          dropIndex: 'the jongodb test server has no dropIndexes command (runs against a real MongoDB when MONGODB_URL is set)',
          listCollections: 'the jongodb test server has no listCollections command (runs against a real MongoDB when MONGODB_URL is set)',
        },
    async open() {
      const url = realUrl ?? (await (server ??= startJongodb())).url;
      const db = `indexes_test_${process.pid}_${++count}`;
      const store = openMongoStore({ url, db });
      stores.push({ store, db });
      return store;
    },
    async dispose() {
      for (const { store } of stores) await store.close().catch(() => undefined);
      if (realUrl) {
        // Leave a real server as it was found.
        const { MongoClient } = await import('mongodb');
        const client = await MongoClient.connect(realUrl);
        for (const { db } of stores) await client.db(db).dropDatabase();
        await client.close();
      }
      if (server) await (await server).stop();
    },
  };
}
