// What the runner's helpers (children.ts, actions.ts) use of the job runner: an
// interface, so they depend on it and not on runner.ts (which depends on them).
import type { Logger } from 'pino';
import type { Collection } from '../../store/port';
import type { Claim, TaskQueue, TaskRecord } from '../queue/queue';
import type { TaskOutcome } from '../tasks/library';
import type { TransformationRunner } from './own-tasks';
import type { JobDoc } from './types';

export interface StartOptions {
  description?: string;
  variables?: Record<string, unknown>;
  user?: string;
  parent?: { job: string; task: string; record: string };
  id?: string;
}

export interface RunnerPort {
  readonly jobs: Collection;
  readonly queue: TaskQueue;
  readonly transformations?: TransformationRunner;
  /** Job state changes and task errors are logged here with their ids. */
  readonly log: Logger;
  job(id: string): Promise<JobDoc | null>;
  requireJob(id: string): Promise<JobDoc>;
  records(jobId: string): Promise<TaskRecord[]>;
  start(workflowName: string, options?: StartOptions): Promise<JobDoc>;
  advance(jobId: string, loaded?: JobDoc): Promise<void>;
  afterEnd(id: string, known?: TaskRecord): Promise<void>;
  finishClaimed(claim: Claim, incoming: Record<string, unknown>, outcome: TaskOutcome, record: TaskRecord): Promise<boolean>;
  finishParentTask(childId: string): Promise<void>;
  stoppedOn(job: JobDoc, records: TaskRecord[]): string | undefined;
  childIds(job: JobDoc): Promise<string[]>;
}
