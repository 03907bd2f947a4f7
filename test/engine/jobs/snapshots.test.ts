// A job's workflow (core/engine/jobs/snapshots.ts): the tasks and transitions a job runs are in
// its own document, as the service's job document has them, and every read of a job answers it
// whole: after the workflow changed, a job an earlier version stored whole, and one an earlier
// version stored naming a shared snapshot. On the embedded store and the wire test server.
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

  it("keeps each job's tasks and transitions in its own document, as the service's are; a changed workflow changes only new jobs", async () => {
    const { store, engine } = await open();
    await store.collection('workflows').insertOne(stepsWorkflow('snap', 2));
    const first = await engine.runner.start('snap', { variables: { text: 'a' } });
    const second = await engine.runner.start('snap', { variables: { text: 'b' } });
    await settled(engine, first._id);
    await settled(engine, second._id);
    // The stored job documents hold the tasks and transitions the service's tools read; no snapshot is written.
    const raw = await store.collection('jobs').find({});
    expect(raw.map((j) => Object.keys(j.tasks as object).sort())).toEqual([0, 1].map(() => ['t1', 't2', 'workflow_end', 'workflow_start']));
    expect(raw.map((j) => (j.transitions as Record<string, unknown>).workflow_start)).toEqual([0, 1].map(() => ({ t1: { type: 'standard', state: 'success' } })));
    expect(raw.some((j) => 'workflowSnapshot' in j)).toBe(false);
    expect(await store.collection(SNAPSHOTS).count()).toBe(0);

    // The workflow changes: a new job runs the new tasks; the earlier jobs keep the tasks they ran.
    await store.collection('workflows').updateOne({ name: 'snap' }, { $set: { 'tasks.t1.summary': 'changed' } });
    const fresh = new Engine({ store, serverId: 's2', serverName: 's2', processTasksOnStart: false });
    await fresh.open();
    try {
      const third = await fresh.runner.start('snap', { variables: { text: 'c' } });
      // A console that never saw these jobs reads them whole from the store.
      const read = await fresh.runner.job(first._id);
      expect(read!.tasks.t1).not.toHaveProperty('summary');
      expect((await fresh.runner.job(third._id))!.tasks.t1).toMatchObject({ summary: 'changed' });
      expect((await store.collection('jobs').findOne({ _id: third._id }))!.tasks).toMatchObject({ t1: { summary: 'changed' } });
    } finally {
      await fresh.close();
    }
  });

  it('reads a job an earlier version stored with a shared snapshot whole, and names both when the snapshot is lost', async () => {
    const { store } = await open();
    const workflow = stepsWorkflow('earlier', 1);
    await store.collection(SNAPSHOTS).insertOne({ _id: 'snap-1', tasks: workflow.tasks, transitions: workflow.transitions });
    const earlier = { name: 'earlier', description: '', status: 'complete', variables: { text: 'x' }, metrics: { start_time: 1, end_time: 2, user: 'console' }, children: [], tasks: {}, transitions: {}, last_updated: 2 };
    await store.collection('jobs').insertMany([
      { _id: 'with-snapshot', ...earlier, workflowSnapshot: 'snap-1' },
      { _id: 'lost-snapshot', ...earlier, workflowSnapshot: 'snap-2' },
    ]);
    // Another console, which never saw the jobs, reads them from the store.
    const other = await new Engine({ store, serverId: 'o', serverName: 'o', processTasksOnStart: false }).open();
    try {
      const read = await other.runner.job('with-snapshot');
      expect(read!.tasks).toEqual(workflow.tasks);
      expect(read).not.toHaveProperty('workflowSnapshot');
      await expect(other.runner.job('lost-snapshot')).rejects.toMatchObject({ name: 'StoreError', reason: 'damaged', message: expect.stringContaining('snap-2') });
    } finally {
      await other.close();
    }
  });

  it("reads each job's own workflow whole, key order included, while the embedded store keeps each version's copy once", async () => {
    const { store, engine } = await open();
    const [one, two] = [stepsWorkflow('one', 1), stepsWorkflow('two', 2)];
    await store.collection('workflows').insertMany([one, two]);
    const started = [];
    for (const name of ['one', 'two', 'one', 'two']) started.push(await engine.runner.start(name, { variables: { text: name } }));
    for (const job of started) await settled(engine, job._id);
    for (const [i, job] of started.entries()) {
      const workflow = i % 2 ? two : one;
      const read = await engine.runner.job(job._id);
      expect(JSON.stringify(read!.tasks)).toBe(JSON.stringify(workflow.tasks));
      expect(JSON.stringify(read!.transitions)).toBe(JSON.stringify(workflow.transitions));
      const stored = await store.collection('jobs').findOne({ _id: job._id });
      expect(JSON.stringify(stored!.tasks)).toBe(JSON.stringify(workflow.tasks));
    }
    // The jobs of a workflow found by a path inside its copy, as MongoDB finds them.
    expect((await store.collection('jobs').find({ 'tasks.t2.name': 'toUpperCase' }, { projection: { name: 1 } })).map((j) => j.name)).toEqual(['two', 'two']);
    if (store.kind !== 'embedded' || !('file' in store)) return;
    // Two versions' copies, each held once in the file: 2 tasks and 2 transitions values.
    const { sqlite } = await import('../../../core/store/embedded/sqlite');
    const db = new (sqlite().DatabaseSync)(String(store.file), { readOnly: true });
    try {
      expect(Number(db.prepare('SELECT count(*) AS n FROM _shared').get()?.n)).toBe(4);
      const rows = db.prepare('SELECT _id, doc FROM "c:jobs"').all();
      expect(rows.every((row) => String(row.doc).includes('"tasks":"\uFDD0R'))).toBe(true);
      // Each reference stands where the value stood: a read gives the fields in the row's order.
      for (const row of rows) expect(Object.keys((await store.collection('jobs').findOne({ _id: String(row._id) }))!)).toEqual(Object.keys(JSON.parse(String(row.doc)) as object));
    } finally {
      db.close();
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
