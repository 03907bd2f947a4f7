// Stores and workflows for the engine's tests.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import type { Store } from '../../../core/store/port';
import type { TaskRecord } from '../../../core/engine/queue/queue';

export interface TempStore {
  store: Store;
  dir: string;
  dispose(): Promise<void>;
}

export async function tempEmbeddedStore(): Promise<TempStore> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'engine-test-'));
  const store = await openEmbeddedStore(dir);
  return {
    store,
    dir,
    async dispose() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function queuedRecord(i: number, now = Date.now()): TaskRecord {
  return {
    _id: `job-${i}:t:0`,
    jobId: `job-${i}`,
    taskId: 't',
    iteration: 0,
    name: 'toUpperCase',
    app: 'WorkFlowEngine',
    type: 'automatic',
    status: 'queued',
    queuedAt: now + i,
    runAfter: now,
    attempt: 0,
    metrics: {},
  };
}

type Task = { name: string; app?: string; type?: string; variables?: { incoming?: Record<string, unknown>; outgoing?: Record<string, unknown> } };

/** A workflow from tasks and `[src, dst, state]` transitions. */
export function workflow(name: string, tasks: Record<string, Task>, transitions: [string, string, string?][], extra: Record<string, unknown> = {}) {
  const table: Record<string, Record<string, { type: string; state: string }>> = {};
  for (const [src, dst, state] of transitions) (table[src] ??= {})[dst] = { type: 'standard', state: state ?? 'success' };
  const full: Record<string, Task> = { workflow_start: { name: 'workflow_start' }, workflow_end: { name: 'workflow_end' } };
  for (const [id, task] of Object.entries(tasks)) full[id] = { app: 'WorkFlowEngine', type: 'automatic', ...task };
  return { name, tasks: full, transitions: table, ...extra };
}

/** A linear workflow of `n` string tasks, each upper-casing then lower-casing `$var.job.text`. */
export function linearStrings(name: string, n: number) {
  const tasks: Record<string, Task> = {};
  const transitions: [string, string][] = [];
  let previous = 'workflow_start';
  for (let i = 1; i <= n; i++) {
    const id = `t${i}`;
    const method = i % 2 ? 'toUpperCase' : 'toLowerCase';
    tasks[id] = {
      name: method,
      variables: {
        incoming: { str: i === 1 ? '$var.job.text' : `$var.t${i - 1}.${i % 2 ? 'lowercaseString' : 'uppercaseString'}` },
        outgoing: { [i % 2 ? 'uppercaseString' : 'lowercaseString']: i === n ? '$var.job.result' : null },
      },
    };
    transitions.push([previous, id]);
    previous = id;
  }
  transitions.push([previous, 'workflow_end']);
  return workflow(name, tasks, transitions);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
