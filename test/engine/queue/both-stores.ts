// The stores an engine test runs on: the embedded one, and the wire test server (MongoDB's
// protocol, no transactions) when its binary is here; without it that half is skipped,
// saying why. Call at a test file's top level: it registers the server's start and stop.
import { afterAll, beforeAll } from 'vitest';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Store } from '../../../core/store/port';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { tempEmbeddedStore } from './support';

export interface StoreSubject {
  name: string;
  open(): Promise<{ store: Store; dispose(): Promise<void> }>;
}

/** `what` names the tests in the skip message; `dbPrefix` names each test's database on the server. */
export function bothStores(what: string, dbPrefix: string): StoreSubject[] {
  const found = jongodbBinary();
  if ('unavailable' in found) {
    console.warn(`[${what} on the wire test server] skipped: ${found.unavailable}`);
    return [{ name: 'embedded store', open: tempEmbeddedStore }];
  }
  let mongo: TestMongo | undefined;
  let dbCount = 0;
  beforeAll(async () => {
    mongo = await startJongodb();
  }, 30_000);
  afterAll(async () => mongo?.stop());
  return [
    { name: 'embedded store', open: tempEmbeddedStore },
    {
      name: 'wire test server',
      open: async () => {
        if (!mongo) throw new Error('the wire test server did not start');
        const store = openMongoStore({ url: mongo.url, db: `${dbPrefix}_${process.pid}_${dbCount++}` });
        return { store, dispose: () => store.close() };
      },
    },
  ];
}
