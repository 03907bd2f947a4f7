// A server working tasks on a MongoDB (argv[2]) until it is killed: the child
// process of the kill -9 test. Prints `working <workerId>` once it works.
import { openMongoStore } from '../../../core/store/mongodb/store';
import { Engine } from '../../../core/engine/index';
import { slowUpperCase } from './slow-tasks';

const store = openMongoStore({ url: process.argv[2]!, db: process.argv[3] ?? 'crash' });
const engine = new Engine({
  store,
  serverId: 'doomed-server',
  serverName: 'doomed',
  processTasksOnStart: true,
  runMethod: slowUpperCase(150),
  worker: { concurrency: 4, leaseMs: 1500, idleMs: 20 },
  heartbeatMs: 200,
});
await engine.open();
console.log(`working ${engine.worker.workerId}`);
setInterval(() => undefined, 1 << 30);
