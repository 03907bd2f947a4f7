// Two console processes working tasks from one embedded database file: every task
// record is completed exactly once and none is lost; and when one of them is
// killed with kill -9 in the middle, the other finishes everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../core/store/embedded/store';
import { Engine } from '../../core/engine/index';
import type { TaskRecord } from '../../core/engine/queue/queue';
import { stepsWorkflow } from './support/steps';

const STEPS = 5;
const children: ChildProcess[] = [];
let dir: string | undefined;
let store: EmbeddedStore | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await store?.close();
  store = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A shared file with `jobs` jobs started (their first tasks queued). */
async function prepare(jobs: number) {
  started = 0;
  dir = await mkdtemp(path.join(os.tmpdir(), 'shared-file-'));
  store = await openEmbeddedStore(dir, { file: 'shared.sqlite' });
  await store.collection('workflows').insertOne(stepsWorkflow('steps', STEPS));
  await startJobs(store, jobs);
  return store;
}

/** Jobs started on the file so far: each job's text is its own, across batches, so a task's "ran" line names it alone. */
let started = 0;

async function startJobs(on: EmbeddedStore, jobs: number) {
  const starter = new Engine({ store: on, serverId: 'starter', serverName: 'starter', processTasksOnStart: false });
  for (let i = 0; i < jobs; i++) await starter.runner.start('steps', { variables: { text: `job ${started++}` } });
  await starter.close();
}

/** Jobs are started once every console works, so a console slow to start still gets its share. */
async function startWhenWorking(on: EmbeddedStore, consoles: Console[], jobs: number) {
  await waitFor('every console to work', () => consoles.every((c) => /^working /m.test(c.output())), 200_000);
  await startJobs(on, jobs);
}

interface Console {
  child: ChildProcess;
  ran: () => string[];
  output: () => string;
  /** Resolves once the process has exited and everything it printed has been read. */
  closed: Promise<void>;
}

/** A console process; `leaseMs` long enough that no lease expires on a busy machine, or short for a quick takeover. */
function startConsole(serverId: string, leaseMs = 1500): Console {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support/file-console.ts'), dir!, 'shared.sqlite', serverId, '4', String(leaseMs)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output: () => output, closed, ran: () => [...output.matchAll(/^ran (.*)$/gm)].map((m) => m[1]!) };
}

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Waits for the pipes to close, not only the exit: the last lines a console printed may still be in them.
const stopped = (c: Console) => {
  if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
  return c.closed;
};

describe('two console processes on one embedded file', () => {
  it('race for 2,000 tasks (a batch of 400 jobs of 5): each task record is completed exactly once, none is lost', async () => {
    const BATCH = 400;
    let JOBS = BATCH;
    const s = await prepare(0);
    // Leases that do not expire while both live: every task is claimed once (a lease that expires is re-run, fenced).
    const consoles = [startConsole('console-a', 60_000), startConsole('console-b', 60_000)];
    await startWhenWorking(s, consoles, BATCH);
    await waitFor('every job to complete', async () => (await s.collection('jobs').count({ status: 'complete' })) === JOBS, 240_000);
    // On a loaded machine one console can run a whole batch before the other claims a task (the
    // file's write lock goes to whichever asks when it is free): then another batch races.
    for (let batches = 1; batches < 5 && consoles.some((c) => c.ran().length === 0); batches++) {
      await startJobs(s, BATCH);
      JOBS += BATCH;
      await waitFor('every job to complete', async () => (await s.collection('jobs').count({ status: 'complete' })) === JOBS, 240_000);
    }
    await Promise.all(consoles.map(stopped));

    const records = await s.collection<TaskRecord>('tasks').find({ taskId: { $nin: ['workflow_start', 'workflow_end'] } });
    expect(records).toHaveLength(JOBS * STEPS);
    const errors = consoles.map((c) => c.output().match(/worker error: .*/g) ?? []).flat();
    expect(records.filter((r) => r.status !== 'complete').map((r) => `${r._id} ${r.status} attempt ${r.attempt}`), errors.join('\n')).toEqual([]);
    // Each task ran in one of the two processes, and both worked. A task runs again only after a
    // failed write handed it back (a loaded machine): at-least-once, its record then on a new attempt.
    const ran = consoles.flatMap((c) => c.ran());
    expect(new Set(ran).size).toBe(JOBS * STEPS);
    const again = records.reduce((n, r) => n + Number(r.attempt) - 1, 0);
    if (again) console.warn(`[race] ${again} task runs were repeated after a hand-back:\n${errors.join('\n')}`);
    expect(ran.length).toBeLessThanOrEqual(JOBS * STEPS + again);
    for (const c of consoles) expect(c.ran().length, c.output().slice(-2000)).toBeGreaterThan(0);
    const workers = new Set(records.map((r) => String(r.workerId).split(':')[0]));
    expect([...workers].sort()).toEqual(['console-a', 'console-b']);
    for (const job of await s.collection('jobs').find({})) {
      expect((job.variables as { result: string }).result).toBe(String((job.variables as { text: string }).text).toUpperCase());
    }
  }, 300_000);

  it('kill -9 of one in the middle: the other finishes every task', async () => {
    const BATCH = 200;
    let jobs = BATCH;
    const s = await prepare(0);
    const doomed = startConsole('doomed');
    const survivor = startConsole('survivor');
    await startWhenWorking(s, [doomed, survivor], BATCH);
    // Killed as soon as both have worked, with work left to take over. On a loaded machine one
    // console may get far fewer tasks than the other, and the load can near its end before both
    // did (the two finish a batch in about a second): then another batch is started.
    await waitFor('both consoles to work, with jobs left', async () => {
      const running = await s.collection('jobs').count({ status: 'running' });
      if (doomed.ran().length >= 20 && survivor.ran().length > 0 && running >= BATCH / 2) return true;
      if (running < BATCH / 2) {
        await startJobs(s, BATCH);
        jobs += BATCH;
      }
      return false;
    }, 200_000);
    doomed.child.kill('SIGKILL');
    expect(await s.collection('jobs').count({ status: 'complete' }), 'jobs left when the console was killed').toBeLessThan(jobs);
    await new Promise((resolve) => doomed.child.once('exit', resolve));
    await waitFor('every job to complete', async () => (await s.collection('jobs').count({ status: 'complete' })) === jobs, 240_000);
    await stopped(survivor);

    const records = await s.collection<TaskRecord>('tasks').find({ taskId: { $nin: ['workflow_start', 'workflow_end'] } });
    expect(records).toHaveLength(jobs * STEPS);
    expect(records.filter((r) => r.status !== 'complete')).toEqual([]);
    // Every task ran to completion in one of them (the killed one's unfinished tasks again in the survivor).
    // The survivor, stopped gracefully, printed every task it ran; the killed one's last lines
    // may be lost with it, so its count is not judged.
    const bySurvivor = records.filter((r) => String(r.workerId).startsWith('survivor:')).length;
    expect(new Set(survivor.ran()).size).toBeGreaterThanOrEqual(bySurvivor);
    expect(records.some((r) => String(r.workerId).startsWith('survivor:') && r.attempt > 1) || doomed.ran().length < jobs * STEPS).toBe(true);
    let integrity = await s.integrity();
    for (let i = 0; !integrity && i < 400; i++) integrity = await new Promise((r) => setTimeout(r, 25)).then(() => s.integrity());
    expect(integrity).toMatchObject({ ok: true });
  }, 480_000);
});
