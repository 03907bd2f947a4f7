// The job document in the `jobs` collection. The workflow's tasks and transitions
// are copied into the job when it starts, so changing or deleting the workflow
// never changes a job already running. Variables are stored through the undefined codec.
import type { Transitions } from './graph';
import type { JobError } from './job-error';

export type JobStatus = 'running' | 'paused' | 'error' | 'canceled' | 'complete';
export const JOB_STATUSES: JobStatus[] = ['running', 'paused', 'error', 'canceled', 'complete'];

export interface TaskDefinition {
  name: string;
  app?: string;
  type?: string;
  location?: string;
  summary?: string;
  description?: string;
  variables?: { incoming?: Record<string, unknown>; outgoing?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface JobDoc {
  _id: string;
  name: string;
  description?: string;
  status: JobStatus;
  variables: Record<string, unknown>;
  metrics: { start_time: number; end_time?: number; user: string };
  /** A child job's parent: its job, the childJob task and the record that waits for this child. */
  parent?: { job: string; task: string; record?: string };
  /** The service's lineage: the root job's id first, the job's own last (a root job's is [its id]). Absent in jobs of earlier versions. */
  ancestors?: string[];
  children: string[];
  tasks: Record<string, TaskDefinition>;
  transitions: Transitions;
  /** The service's array (job-error.ts); one text in jobs of earlier versions of the console. */
  error?: JobError[] | string;
  last_updated: number;
  /** How the job reached workflow_end (its record, not stored as a task record: records.ts). */
  reachedEnd?: { from: string[]; iteration: number };
  [key: string]: unknown;
}

export const TERMINAL: JobStatus[] = ['complete', 'canceled'];
