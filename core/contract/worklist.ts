// The work queue: every manual task waiting for an operator, across jobs, with its
// job and workflow. An operator finishes one with `jobs.finishTask`. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { JobStatus } from './jobs';

export const WorkItem = z.object({
  /** The task record's id (`<jobId>:<taskId>:<iteration>`). */
  _id: z.string(),
  jobId: z.string(),
  taskId: z.string(),
  iteration: z.number(),
  name: z.string(),
  app: z.string(),
  summary: z.string().optional(),
  /** When the task started waiting, ms since the epoch. */
  queuedAt: z.number(),
  incoming: z.record(z.string(), z.unknown()).optional(),
  /** The outgoing variables the task declares: the fields of the form that finishes it. */
  outgoing: z.array(z.string()),
  job: z.object({ name: z.string(), description: z.string().optional(), status: JobStatus }),
});
export type WorkItem = z.infer<typeof WorkItem>;

export const worklistOperations = defineOperations({
  'tasks.worklist': {
    method: 'GET',
    path: '/operations-manager/tasks/worklist',
    summary: 'Manual tasks waiting for an operator across the jobs, oldest first (filter workflow by name); paged by skip and limit',
    query: z.object({
      workflow: z.string().optional(),
      skip: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    }),
    output: z.object({ results: z.array(WorkItem), total: z.number(), skip: z.number(), limit: z.number() }),
  },
});
