// The step runner every drill shares: the report being built, each step logged with its time
// (a failing step stops the drill and says why), and the verdict against the targets.
import { randomUUID } from 'node:crypto';
import type { DrillOptions, DrillReport, DrillStep } from './types';
import { errorMessage } from '../errors';

/** The task worker's lease: a task of a dead site goes back to the queue after it (core/engine/worker). */
export const WORKER_LEASE_MS = 30_000;

export class StepFailed extends Error {}

export interface DrillRun {
  report: DrillReport;
  /** Tells the listener the report changed (it gets a copy). */
  changed(): void;
  step<T>(name: string, work: (s: DrillStep) => Promise<T>): Promise<T>;
  /** Sets `passed` from the targets once every step passed. */
  judge(): void;
  /** Marks the drill failed with the error that stopped it. */
  failed(error: unknown): void;
}

export function createDrillRun(kind: DrillReport['kind'], options: DrillOptions, onChange: (report: DrillReport) => void): DrillRun {
  const report: DrillReport = {
    id: options.id ?? randomUUID(),
    kind,
    failure: options.failure,
    failback: options.failback,
    persistProcessTasksOnStart: options.persistProcessTasksOnStart ?? false,
    workflows: options.workflows ?? [],
    load: options.source && options.workflows?.length ? 'workflows' : 'ledger',
    status: 'running',
    passed: false,
    startedAt: Date.now(),
    jobs: options.jobs,
    jobsCompleted: 0,
    tasksLost: 0,
    taskRecordsCompletedTwice: 0,
    sideEffects: 0,
    sideEffectsRepeated: 0,
    rtoMs: null,
    drainMs: null,
    leaseMs: WORKER_LEASE_MS,
    targets: { rtoMs: options.targets?.rtoMs ?? WORKER_LEASE_MS, drainMs: options.targets?.drainMs ?? 4 * WORKER_LEASE_MS },
    readiness: [],
    sites: [],
    steps: [],
  };
  const changed = () => onChange(structuredClone(report));
  return {
    report,
    changed,
    async step(name, work) {
      const s: DrillStep = { name, startedAt: Date.now(), endedAt: null, ok: false };
      report.steps.push(s);
      changed();
      try {
        const result = await work(s);
        s.ok = true;
        return result;
      } catch (error) {
        s.error = errorMessage(error);
        throw new StepFailed(`${name}: ${s.error}`);
      } finally {
        s.endedAt = Date.now();
        changed();
      }
    },
    judge() {
      const missed: string[] = [];
      if (!((report.rtoMs ?? Infinity) < report.targets.rtoMs)) missed.push(`RTO ${report.rtoMs ?? 'not measured'} ms is not below the target ${report.targets.rtoMs} ms`);
      if (!((report.drainMs ?? Infinity) <= report.targets.drainMs)) missed.push(`drain ${report.drainMs ?? 'not measured'} ms is above the target ${report.targets.drainMs} ms`);
      report.passed = missed.length === 0;
      if (missed.length) report.error = `target missed: ${missed.join('; ')}`;
      report.status = 'done';
    },
    failed(error) {
      report.status = 'failed';
      report.passed = false;
      report.error = error instanceof StepFailed ? error.message : `unexpected: ${errorMessage(error)}`;
    },
  };
}

export async function waitUntil(what: string, timeoutMs: number, probe: () => boolean | Promise<boolean>, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
