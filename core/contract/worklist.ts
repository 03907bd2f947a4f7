// The work queue: every manual task waiting for an operator, across jobs, with its
// job and workflow and who claimed it. An operator claims one (Operations Manager's
// `tasks/:taskId/claim` and `release`) and finishes it with `jobs.finishTask`; a claimed task
// is finished only by whoever claimed it, or after another operator takes it over (recorded
// in the job's history). The finished ones are listed with who finished them and when.
// Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { JobStatus } from './jobs';
import { RecordId } from './ids';
import { ListFilters, SortOrder } from './list-query';

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
  /**
   * The console's: the incoming values holding a secret by the one classifier (core/secrets), by
   * name or content. The values are answered in clear as the service does; the work queue shows
   * them masked, with the job's secret variables, until the operator reveals them.
   */
  secretIncoming: z.array(z.string()).optional(),
  /** The outgoing variables the task declares: the fields of the form that finishes it. */
  outgoing: z.array(z.string()),
  job: z.object({ name: z.string(), description: z.string().optional(), status: JobStatus }),
  /** The operator who claimed it, and when (ms since the epoch); absent while unassigned. */
  assignee: z.string().optional(),
  claimedAt: z.number().optional(),
});
export type WorkItem = z.infer<typeof WorkItem>;

/** A manual task an operator finished (from the job's history). */
export const FinishedItem = z.object({
  jobId: z.string(),
  taskId: z.string(),
  name: z.string().optional(),
  summary: z.string().optional(),
  workflow: z.string().optional(),
  state: z.string(),
  operator: z.string(),
  finishedAt: z.number(),
});
export type FinishedItem = z.infer<typeof FinishedItem>;

export const worklistOperations = defineOperations({
  'tasks.get': {
    method: 'GET',
    path: '/operations-manager/tasks/:taskId',
    summary: "One task record by its `_id`, as the task search shows it (`{ message, data }`: its status as the service shows it, its `job` naming its job and task); 404 naming it when none",
    params: z.object({ taskId: RecordId }),
    output: z.object({ message: z.string(), data: z.looseObject({}) }),
  },
  'tasks.search': {
    method: 'GET',
    path: '/operations-manager/tasks',
    summary:
      "The task records as the service's Operations Manager searches its Task collection: equals / contains / starts-with (`equals[type]=manual&equals[status]=running`: the manual tasks waiting for an operator, whose status the service shows as running), sort, order, skip, limit (25 when absent; 0: all), include / exclude; each task's `job` names its job and task (`{ _id, name, task }`)",
    query: z.looseObject({
      ...ListFilters,
      sort: z.string().default('name'),
      order: SortOrder.default(1),
      skip: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(0).max(1000).default(25),
      include: z.string().optional(),
      exclude: z.string().optional(),
    }),
    output: z.object({ message: z.string(), data: z.array(z.looseObject({})), metadata: z.object({ skip: z.number(), limit: z.number(), total: z.number() }) }),
  },
  'tasks.worklist': {
    method: 'GET',
    path: '/operations-manager/tasks/worklist',
    summary: 'Manual tasks waiting for an operator across the jobs, oldest first (filter workflow by name); paged by skip and limit',
    query: z.object({
      workflow: z.string().optional(),
      /** mine: claimed by this console's operator; unassigned: claimed by nobody. */
      view: z.enum(['all', 'mine', 'unassigned']).default('all'),
      skip: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(500).default(100),
    }),
    output: z.object({
      results: z.array(WorkItem),
      total: z.number(),
      skip: z.number(),
      limit: z.number(),
      /** The operator `mine` means (the desktop user). */
      operator: z.string(),
      /** How many tasks each view holds (the workflow filter applied). */
      counts: z.object({ all: z.number(), mine: z.number(), unassigned: z.number() }),
    }),
  },
  'tasks.claim': {
    method: 'POST',
    path: '/operations-manager/tasks/:taskId/claim',
    summary: "Claim a manual task waiting for an operator (the task record's id): it is assigned to this console's operator. 404 when no such task waits; 409 when another operator holds it",
    params: z.object({ taskId: RecordId }),
    output: z.object({ message: z.string(), data: z.object({ _id: z.string(), assignee: z.string(), claimedAt: z.number() }) }),
  },
  'tasks.assign': {
    method: 'POST',
    path: '/operations-manager/tasks/:taskId/assign',
    summary:
      "Assign a manual task waiting for an operator (the task record's id) to userId, or to this console's operator when absent (a take-over), whoever claimed it: the job's history records who assigned it to whom, and from whom. 404 when no such task waits",
    params: z.object({ taskId: RecordId }),
    body: z.object({ userId: z.string().min(1).optional() }).default({}),
    output: z.object({ message: z.string(), data: z.object({ _id: z.string(), assignee: z.string(), claimedAt: z.number() }) }),
  },
  'tasks.release': {
    method: 'POST',
    path: '/operations-manager/tasks/:taskId/release',
    summary: 'Release a claimed manual task: it is unassigned again. 404 when no such task waits; 409 when another operator holds it',
    params: z.object({ taskId: RecordId }),
    output: z.object({ message: z.string(), data: z.object({ _id: z.string() }) }),
  },
  'tasks.worklistHistory': {
    method: 'GET',
    path: '/operations-manager/tasks/worklist/history',
    summary: 'Manual tasks finished by an operator, newest first: the task, its job and workflow, how it ended, who finished it and when',
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) }),
    output: z.object({ results: z.array(FinishedItem) }),
  },
});
