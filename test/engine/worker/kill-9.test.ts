// A server killed with kill -9 in the middle of tasks loses none of them: another
// server's sweeper re-queues the tasks whose lease expired and works them to the
// end. Over the wire on the MongoDB-compatible test server (another host picks the
// work up while the database lives on), and on the embedded store's files (the
// restarted console picks it up: an embedded store is one process's, never shared
// by two live servers).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../core/engine/index';
import { openMongoStore } from '../../../core/store/mongodb/store';
import { rm } from 'node:fs/promises';
import { jongodbBinary, startJongodb, type TestMongo } from '../../store/jongodb';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import { linearStrings, tempEmbeddedStore, waitFor } from '../queue/support';
import { slowUpperCase } from './slow-tasks';

const JOBS = 12;
const TASKS = 5;
const found = jongodbBinary();
if ('unavailable' in found) console.warn(`[kill -9] skipped: ${found.unavailable}`);

describe.skipIf('unavailable' in found)('a server killed with kill -9', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await startJongodb();
  });
  afterAll(() => mongo?.stop());

  it('loses no task: another server picks the work up once the leases expire', async () => {
    const store = openMongoStore({ url: mongo.url, db: 'crash' });
    const tasks = store.collection('tasks');
    await store.collection('workflows').insertOne(linearStrings('five', TASKS));
    const survivor = new Engine({
      store,
      serverId: 'survivor',
      serverName: 'survivor',
      processTasksOnStart: false,
      runMethod: slowUpperCase(5),
      worker: { concurrency: 4, leaseMs: 1500, idleMs: 20 },
    });
    for (let i = 0; i < JOBS; i++) await survivor.runner.start('five', { variables: { text: `job ${i}` } });

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'crash-worker.ts'), mongo.url, 'crash'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    try {
      // Kill it once it has finished some tasks and holds others.
      await waitFor(`the doomed server to work (${output})`, async () => {
        const done = await tasks.count({ status: 'complete', workerId: { $exists: true } });
        const held = await tasks.count({ status: 'running' });
        return done >= 8 && held >= 2;
      });
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const orphaned = await tasks.find({ status: 'running' });
      expect(orphaned.length).toBeGreaterThan(0);
      expect(orphaned.every((t) => String(t.workerId).startsWith('doomed-server:'))).toBe(true);

      await (await survivor.open()).startWorker();
      await waitFor('every job to complete', async () => (await store.collection('jobs').count({ status: 'complete' })) === JOBS, 30_000);

      const jobs = await store.collection('jobs').find({});
      for (const job of jobs) expect((job.variables as { result: string }).result).toBe(String((job.variables as { text: string }).text).toUpperCase());
      const records = await tasks.find({ taskId: { $nin: ['workflow_start', 'workflow_end'] } });
      expect(records).toHaveLength(JOBS * TASKS);
      expect(records.every((r) => r.status === 'complete')).toBe(true);
      // The orphaned tasks were run again by the survivor, as a later attempt.
      for (const task of orphaned) {
        const after = records.find((r) => r._id === task._id)!;
        expect(after.workerId).toMatch(/^survivor:/);
        expect(Number(after.attempt)).toBeGreaterThan(Number(task.attempt));
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await survivor.close();
      await store.close();
    }
  });
});

describe('a console on the embedded store killed with kill -9', () => {
  it('loses no task: the restarted console works the orphaned tasks to the end', async () => {
    const temp = await tempEmbeddedStore();
    const dir = temp.dir;
    const before = new Engine({ store: temp.store, serverId: 'setup', serverName: 'setup', processTasksOnStart: false });
    await temp.store.collection('workflows').insertOne(linearStrings('five', TASKS));
    for (let i = 0; i < JOBS; i++) await before.runner.start('five', { variables: { text: `job ${i}` } });
    await temp.store.close(); // the files are the doomed process's alone from now on

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'crash-worker.ts'), `embedded:${dir}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    let store;
    let restarted: Engine | undefined;
    try {
      const count = (word: string) => (output.match(new RegExp(`^${word} `, 'gm')) ?? []).length;
      // Killed with tasks in its hands: some ran, others started and not ended.
      await waitFor(`the doomed console to be in the middle of tasks (${output})`, async () => count('ran') >= 8 && count('start') > count('ran'));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));

      store = await openEmbeddedStore(dir);
      const tasks = store.collection('tasks');
      // What the files say was running (a claim the process had not yet written may read as queued).
      const orphaned = await tasks.find({ status: 'running' });
      restarted = new Engine({ store, serverId: 'restarted', serverName: 'restarted', processTasksOnStart: true, runMethod: slowUpperCase(5), worker: { leaseMs: 1500, idleMs: 20 } });
      await restarted.open();
      await waitFor('every job to complete', async () => (await store!.collection('jobs').count({ status: 'complete' })) === JOBS, 30_000);
      const records = await tasks.find({ taskId: { $nin: ['workflow_start', 'workflow_end'] } });
      expect(records).toHaveLength(JOBS * TASKS);
      expect(records.every((r) => r.status === 'complete')).toBe(true);
      for (const job of await store.collection('jobs').find({})) {
        expect((job.variables as { result: string }).result).toBe(String((job.variables as { text: string }).text).toUpperCase());
      }
      for (const task of orphaned) expect(records.find((r) => r._id === task._id)!.workerId).toMatch(/^restarted:/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await restarted?.close();
      await store?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
