// Operator actions are one unit of work on the embedded store (one SQLite transaction) and on a
// MongoDB replica set (one session transaction): a failure injected between an action's writes
// (the store failing the next write, as a crash would leave it) leaves nothing of the action
// written: the job, its task records, its claims and its history are as they were, and the same
// action then goes through.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { openMongoStore } from '../../../core/store/mongodb/store';
import type { Collection, Store } from '../../../core/store/port';
import { tempEmbeddedStore, waitFor, workflow } from '../queue/support';
import { jongodbBinary, startJongodb } from '../../store/jongodb';

/** The store with one write to fail: `arm(collection, method)` makes the next such call throw. */
function faultyStore(real: Store) {
  let armed: { collection: string; method: string } | undefined;
  const wrap = (name: string, collection: Collection): Collection =>
    new Proxy(collection, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (armed && armed.collection === name && armed.method === property) {
            armed = undefined;
            throw new Error(`injected failure: ${name}.${String(property)}`);
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const store: Store = new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'collection') return (name: string) => wrap(name, real.collection(name));
      if (property === 'transaction' && real.transaction) return <R>(fn: (tx: Store) => Promise<R>) => real.transaction!(() => fn(store));
      return Reflect.get(target, property, receiver);
    },
  });
  return { store, arm: (collection: string, method: string) => (armed = { collection, method }) };
}

interface Backend {
  store: Store;
  dispose(): Promise<void>;
}

const jongodb = jongodbBinary();
if ('unavailable' in jongodb) console.warn(`[operator actions on a MongoDB replica set] skipped: ${jongodb.unavailable}`);

const BACKENDS: { name: string; skip?: string; open(): Promise<Backend> }[] = [
  { name: 'the embedded store', open: tempEmbeddedStore },
  {
    name: 'a MongoDB replica set (jongodb, one node)',
    ...('unavailable' in jongodb ? { skip: jongodb.unavailable } : {}),
    async open() {
      const server = await startJongodb({ replicaSet: 'rs0' });
      const store = openMongoStore({ url: `${server.url}/?replicaSet=rs0`, db: 'atomic' });
      return {
        store,
        async dispose() {
          await store.close();
          await server.stop();
        },
      };
    },
  },
];

for (const backend of BACKENDS) describe.skipIf(backend.skip)(`on ${backend.name}`, () => operatorActions(backend.open));

function operatorActions(open: () => Promise<Backend>) {
  let temp: Backend;
  let engine: Engine;
  let faulty: ReturnType<typeof faultyStore>;
  beforeEach(async () => {
    temp = await open();
    faulty = faultyStore(temp.store);
    engine = await new Engine({ store: faulty.store, serverId: 'test', serverName: 'test', processTasksOnStart: true, worker: { idleMs: 10 } }).open();
    const tasks = {
      ask: { name: 'ViewData', type: 'manual', variables: { incoming: { header: 'h', message: 'm', body: '', buttons: [] }, outgoing: {} } },
      cp: { name: 'codePointAt', variables: { incoming: { str: '$var.job.s', pos: 1 }, outgoing: { codePointValue: '$var.job.cp' } } },
    };
    await temp.store.collection('workflows').insertOne(workflow('ask', { ask: tasks.ask }, [['workflow_start', 'ask'], ['ask', 'workflow_end']]));
    await temp.store.collection('workflows').insertOne(workflow('fails', { cp: tasks.cp }, [['workflow_start', 'cp'], ['cp', 'workflow_end']]));
  });
  afterEach(async () => {
    // A backend that failed to open has nothing to close (its error is the test's).
    await engine?.close();
    await temp?.dispose();
  });

  /** What the store holds of a job: the job, its task records, its claims and its history, as read outside the engine. */
  async function snapshot(jobId: string) {
    const c = (name: string) => temp.store.collection(name);
    const tasks = await c('tasks').find({ jobId }, { sort: { _id: 1 } });
    return {
      job: await c('jobs').findOne({ _id: jobId }),
      tasks,
      claims: await c('task_claims').find({ _id: { $in: tasks.map((t) => t._id) } }),
      history: await c('job_history').find({ jobId }),
    };
  }

  async function waiting() {
    const { _id } = await engine.runner.start('ask');
    await waitFor('the manual task to wait', async () => (await temp.store.collection('tasks').findOne({ jobId: _id, taskId: 'ask', status: 'waiting' })) ?? undefined);
    return _id;
  }

  async function errored(s: string) {
    const { _id } = await engine.runner.start('fails', { variables: { s } });
    await waitFor('the job to stop in error', async () => ((await engine.runner.job(_id))?.status === 'error' ? true : undefined));
    return _id;
  }

  describe('an operator action interrupted between its writes leaves nothing half-done', () => {
    it('cancel: the job written canceled, then its tasks fail to be: the job still runs and its task still waits', async () => {
      const id = await waiting();
      const before = await snapshot(id);
      faulty.arm('tasks', 'updateMany');
      await expect(engine.runner.cancel(id)).rejects.toThrow(/injected failure/);
      expect(await snapshot(id)).toEqual(before);
      expect((await engine.runner.cancel(id)).status).toBe('canceled');
    });

    it('finish: the task written complete and its claim dropped, then its history entry fails: the task still waits, claimed', async () => {
      const id = await waiting();
      await temp.store.collection('task_claims').insertOne({ _id: `${id}:ask:0`, assignee: 'ana', claimedAt: 1 });
      const before = await snapshot(id);
      faulty.arm('job_history', 'insertOne');
      await expect(engine.runner.finishTask(id, 'ask', {}, { operator: 'ana' })).rejects.toThrow(/injected failure/);
      expect(await snapshot(id)).toEqual(before);
      await engine.runner.finishTask(id, 'ask', {}, { operator: 'ana' });
      await waitFor('the job to complete', async () => ((await engine.runner.job(id))?.status === 'complete' ? true : undefined));
    });

    it('assign (take-over): the claim written to the new operator, then the history fails: the claim is still the first one\'s', async () => {
      const id = await waiting();
      const recordId = `${id}:ask:0`;
      await engine.runner.claimTask(recordId, 'ana');
      const before = await snapshot(id);
      faulty.arm('job_history', 'insertOne');
      await expect(engine.runner.takeOverTask(recordId, 'bob')).rejects.toThrow(/injected failure/);
      expect(await snapshot(id)).toEqual(before);
      expect((await engine.runner.takeOverTask(recordId, 'bob')).assignee).toBe('bob');
    });

    it('retry with changes: the job variables written, then the task fails to be queued: the variables and the task are as they were', async () => {
      const id = await errored('x');
      const before = await snapshot(id);
      faulty.arm('tasks', 'updateOne');
      await expect(engine.runner.retryTask(id, 'cp', { changes: { variables: { s: 'xy' } }, operator: 'ana' })).rejects.toThrow(/injected failure/);
      expect(await snapshot(id)).toEqual(before);
      await engine.runner.retryTask(id, 'cp', { changes: { variables: { s: 'xy' } }, operator: 'ana' });
      await waitFor('the job to complete', async () => ((await engine.runner.job(id))?.status === 'complete' ? true : undefined));
    });
  });
}
