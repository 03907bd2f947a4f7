// Canceling a job stops its running task: the worker's next lease renewal is
// refused, and the task is aborted instead of running on to its end.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { tempEmbeddedStore, waitFor, workflow, type TempStore } from '../queue/support';
import { slowUpperCase } from './slow-tasks';

let temp: TempStore;
let engine: Engine;
beforeEach(async () => {
  temp = await tempEmbeddedStore();
  // A task that runs 60 s (a slow adapter call): a delay would wait on a timer, holding no slot to abort.
  engine = await new Engine({ store: temp.store, serverId: 's', serverName: 's', processTasksOnStart: true, runMethod: slowUpperCase(60_000), worker: { idleMs: 10, leaseMs: 300 } }).open();
});
afterEach(async () => {
  await engine.close();
  await temp.dispose();
});

it("a canceled job's running task is aborted at the next lease renewal", async () => {
  await temp.store.collection('workflows').insertOne(
    workflow('long', { wait: { name: 'slowCall', app: 'Device', variables: { incoming: { str: 'x' }, outgoing: {} } } }, [['workflow_start', 'wait'], ['wait', 'workflow_end']]),
  );
  const { _id } = await engine.runner.start('long');
  await waitFor('the slow call to run', async () => (await engine.runner.records(_id)).some((r) => r.taskId === 'wait' && r.status === 'running'));
  await engine.runner.cancel(_id);
  await waitFor('the worker to let the task go', async () => engine.worker.stats.lostLeases === 1 && engine.worker.busy === 0, 5_000);
  const wait = (await engine.runner.records(_id)).find((r) => r.taskId === 'wait')!;
  expect(wait.status).toBe('canceled');
  expect(engine.worker.stats.completed).toBe(0);
});
