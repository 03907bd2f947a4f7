// A task worker in a worker thread of the bench's process, with its own connection to
// the embedded file (the engine bench's "2 worker threads" run): what a second thread
// gives when both write one file. workerData: { dir, file, serverId }. Posts `working`
// once its worker runs; `pause` and `resume` stop and start its worker (posting `paused`,
// `resumed`); on `stop`, closes and posts { stopped, lockHeldMs }.
import { parentPort, workerData } from 'node:worker_threads';
import { openEmbeddedStore } from '../core/store/embedded/store';
import { Engine } from '../core/engine/index';

const { dir, file, serverId } = workerData as { dir: string; file: string; serverId: string };
const store = await openEmbeddedStore(dir, { file });
const engine = new Engine({ store, serverId, serverName: serverId, processTasksOnStart: true, worker: { idleMs: 5 } });
await engine.open();
parentPort!.postMessage('working');
parentPort!.on('message', (message) => {
  if (message === 'pause') void engine.stopWorker().then(() => parentPort!.postMessage('paused'));
  if (message === 'resume') void engine.startWorker().then(() => parentPort!.postMessage('resumed'));
  if (message !== 'stop') return;
  void engine
    .close()
    .then(() => {
      const lockHeldMs = store.lockHeldMs();
      return store.close().then(() => parentPort!.postMessage({ stopped: true, lockHeldMs }));
    })
    .catch((error: Error) => parentPort!.postMessage({ stopped: true, error: error.message }));
});
