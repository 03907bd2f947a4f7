// A host that starts a job waiting on a delay until it is killed: the child process of the
// timers test's kill -9. argv[2] is the embedded store's directory, argv[3] the delay in seconds.
// Prints `waiting <jobId> <start time>` once the delay waits on its timer.
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import { Engine } from '../../../core/engine/index';
import { waitFor, workflow } from '../queue/support';

const store = await openEmbeddedStore(process.argv[2]!);
const seconds = Number(process.argv[3]);
await store.collection('workflows').insertOne(
  workflow('doomed delay', { t: { name: 'delay', variables: { incoming: { time: seconds }, outgoing: {} } } }, [['workflow_start', 't'], ['t', 'workflow_end']]),
);
const engine = await new Engine({ store, serverId: 'doomed-timers', serverName: 'doomed', processTasksOnStart: true, worker: { idleMs: 20, leaseMs: 1_500 } }).open();
const started = Date.now();
const { _id } = await engine.runner.start('doomed delay');
await waitFor('the timer', async () => (await store.collection('tasks').findOne({ jobId: _id, taskId: 't' }))?.timer);
console.log(`waiting ${_id} ${started}`);
setInterval(() => undefined, 1 << 30);
