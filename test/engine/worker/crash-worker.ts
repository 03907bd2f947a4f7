// A server working tasks until it is killed: the child process of the kill -9
// tests. argv[2] is a MongoDB URL (argv[3] the database) or `embedded:<dir>`.
// Prints `working <workerId>` once it works, `start <method>` and `ran <method>` around each task.
import { openMongoStore } from '../../../core/store/mongodb/store';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import { Engine } from '../../../core/engine/index';
import { slowUpperCase } from './slow-tasks';

const target = process.argv[2]!;
const store = target.startsWith('embedded:') ? await openEmbeddedStore(target.slice('embedded:'.length)) : openMongoStore({ url: target, db: process.argv[3] ?? 'crash' });
const slow = slowUpperCase(150);
const engine = new Engine({
  store,
  serverId: 'doomed-server',
  serverName: 'doomed',
  processTasksOnStart: true,
  runMethod: async (task, incoming, options) => {
    console.log(`start ${task.name}`);
    const outcome = await slow(task, incoming, options);
    console.log(`ran ${task.name}`);
    return outcome;
  },
  worker: { concurrency: 4, leaseMs: 1500, idleMs: 20 },
  heartbeatMs: 200,
});
await engine.open();
console.log(`working ${engine.worker.workerId}`);
setInterval(() => undefined, 1 << 30);
