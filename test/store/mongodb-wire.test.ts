// The store contract on the MongoDB adapter, over the wire: against the
// MongoDB-compatible test server from npm (jongodb), and against a real MongoDB
// when MONGODB_URL is set.
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../core/store/mongodb/store';
import { storeContract } from './contract-suite';
import { startJongodb, jongodbBinary } from './jongodb';

const JONGODB_LACKS = 'the jongodb test server does not implement';

storeContract('MongoDB adapter on jongodb', {
  kind: 'mongodb',
  lacks: {
    projection: `${JONGODB_LACKS} projection`,
    dropIndexes: `${JONGODB_LACKS} dropIndexes`,
    listCollections: `${JONGODB_LACKS} listCollections`,
    indexConflicts: `${JONGODB_LACKS} index name conflicts (it accepts a second key under a used name)`,
    atomicFindOneAndUpdate: `${JONGODB_LACKS} an atomic findAndModify: under concurrent clients it can hand one document to two of them (the case runs on the embedded store and on MONGODB_URL)`,
  },
  backend: async () => {
    const found = jongodbBinary();
    if ('unavailable' in found) return found;
    const server = await startJongodb();
    return {
      open: async () => openMongoStore({ url: server.url, db: 'contract' }),
      dispose: () => server.stop(),
    };
  },
});

const REAL = process.env.MONGODB_URL;
if (!REAL) console.warn('[store contract: real MongoDB] skipped: set MONGODB_URL (e.g. mongodb://127.0.0.1:27017) to run it');

storeContract('MongoDB adapter on a real MongoDB (MONGODB_URL)', {
  kind: 'mongodb',
  backend: async () => {
    if (!REAL) return { unavailable: 'MONGODB_URL is not set' };
    const db = `console_contract_${process.pid}_${Date.now()}`;
    return {
      open: async () => openMongoStore({ url: REAL, db }),
      async dispose() {
        const client = new MongoClient(REAL, { serverSelectionTimeoutMS: 5000 });
        await client.db(db).dropDatabase().finally(() => client.close());
      },
    };
  },
});
