// A job's workflow snapshot (core/engine/jobs/snapshots.ts): the tasks and transitions a job
// runs are stored once per workflow version, and every read of a job answers it whole, as the
// service's job document is: the API's job, after the workflow changed, and a job an earlier
// version stored whole. On the embedded store and the wire test server.
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { SNAPSHOTS } from '../../../core/engine/jobs/snapshots';
import type { Store } from '../../../core/store/port';
import { stepsWorkflow } from '../../store/support/steps';
import { bothStores } from '../queue/both-stores';

const subjects = bothStores('workflow snapshots', 'snapshots');

describe.each(subjects)('workflow snapshots on the $name', (subject) => {
  let store: Store | undefined;
  let dispose: (() => Promise<void>) | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    await dispose?.();
    engine = store = dispose = undefined;
  });

  async function open() {
    ({ store, dispose } = await subject.open());
    engine = await new Engine({ store, serverId: 's', serverName: 's', processTasksOnStart: true, worker: { idleMs: 5 } }).open();
    return { store, engine };
  }

  const settled = (e: Engine, id: string) => expect.poll(async () => (await e.runner.job(id))?.status, { timeout: 15_000 }).toBe('complete');

  it('stores the tasks once for jobs of one version, a new snapshot for a changed workflow, and reads every job whole', async () => {
    const { store, engine } = await open();
    await store.collection('workflows').insertOne(stepsWorkflow('snap', 2));
    const first = await engine.runner.start('snap', { variables: { text: 'a' } });
    const second = await engine.runner.start('snap', { variables: { text: 'b' } });
    await settled(engine, first._id);
    await settled(engine, second._id);
    // The stored job documents name one snapshot and hold no copy of the tasks.
    const raw = await store.collection('jobs').find({});
    expect(raw.map((j) => Object.keys(j.tasks as object).length)).toEqual([0, 0]);
    expect(new Set(raw.map((j) => j.workflowSnapshot)).size).toBe(1);
    expect(await store.collection(SNAPSHOTS).count()).toBe(1);

    // The workflow changes: a new job gets a new snapshot; the earlier jobs keep the tasks they ran.
    await store.collection('workflows').updateOne({ name: 'snap' }, { $set: { 'tasks.t1.summary': 'changed' } });
    const fresh = new Engine({ store, serverId: 's2', serverName: 's2', processTasksOnStart: false });
    await fresh.open();
    try {
      const third = await fresh.runner.start('snap', { variables: { text: 'c' } });
      expect(await store.collection(SNAPSHOTS).count()).toBe(2);
      // A console that never saw these jobs reads them whole from the store.
      const read = await fresh.runner.job(first._id);
      expect(Object.keys(read!.tasks).sort()).toEqual(['t1', 't2', 'workflow_end', 'workflow_start']);
      expect(read!.tasks.t1).not.toHaveProperty('summary');
      expect(read!.transitions.workflow_start).toEqual({ t1: { type: 'standard', state: 'success' } });
      expect(read).not.toHaveProperty('workflowSnapshot');
      expect((await fresh.runner.job(third._id))!.tasks.t1).toMatchObject({ summary: 'changed' });
    } finally {
      await fresh.close();
    }
  });

  it('answers a job whose snapshot the store lost with a damaged-store error naming both', async () => {
    const { store, engine } = await open();
    await store.collection('workflows').insertOne(stepsWorkflow('lost', 1));
    const job = await engine.runner.start('lost', { variables: { text: 'a' } });
    await settled(engine, job._id);
    const snapshot = String((await store.collection('jobs').findOne({ _id: job._id }))!.workflowSnapshot);
    await store.collection(SNAPSHOTS).deleteOne({ _id: snapshot });
    // Another console, which never saw the job, reads it from the store.
    const other = await new Engine({ store, serverId: 'o', serverName: 'o', processTasksOnStart: false }).open();
    try {
      await expect(other.runner.job(job._id)).rejects.toMatchObject({ name: 'StoreError', reason: 'damaged', message: expect.stringContaining(snapshot) });
    } finally {
      await other.close();
    }
  });

  it('reads a job an earlier version stored whole as it is', async () => {
    const { store, engine } = await open();
    const workflow = stepsWorkflow('whole', 1);
    await store.collection('jobs').insertOne({
      _id: 'stored-whole', name: 'whole', description: '', status: 'complete', variables: { text: 'x' }, metrics: { start_time: 1, end_time: 2, user: 'console' },
      children: [], tasks: workflow.tasks, transitions: workflow.transitions, last_updated: 2,
    });
    const job = await engine.runner.job('stored-whole');
    expect(job!.tasks).toEqual(workflow.tasks);
    expect(job!.transitions).toEqual(workflow.transitions);
    expect(await store.collection(SNAPSHOTS).count()).toBe(0);
  });
});
