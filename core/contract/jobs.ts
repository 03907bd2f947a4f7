// Jobs: start a job of a workflow, list and read jobs with their tasks, and the
// operator's actions (cancel, pause, resume, retry a task, finish a manual task).
// Browser-safe: zod only. Over HTTP an undefined value is an absent key; a job's
// `undefinedPaths` lists where the decoded values hold undefined, so the UI can
// show `undefined` apart from `null`.
import { z } from 'zod';
import { DocumentName, RecordId } from './ids';
import { defineOperations } from './operation';
import { checkSearchForms, SearchValue } from './search-forms';

/**
 * The most values (objects, arrays, scalars) one job start may carry, its variables included: a
 * start past it is answered 413 naming the limit before its body is parsed. It bounds the memory
 * and event-loop time one start takes (eight starts of 999,000 values each held the console's
 * other routes for seconds); docs/operating.md says so, and `npm run bench -- heavy` measures it.
 */
export const JOB_START_LIMIT = { values: 100_000, what: 'one job start (its variables included)' };

export const JobStatus = z.enum(['running', 'paused', 'error', 'canceled', 'complete']);
export type JobStatus = z.infer<typeof JobStatus>;
export const TaskRunStatus = z.enum(['queued', 'running', 'complete', 'error', 'canceled', 'waiting']);
export type TaskRunStatus = z.infer<typeof TaskRunStatus>;

export const JobMetrics = z.looseObject({ start_time: z.number(), end_time: z.number().optional(), user: z.string().optional() });

/** One entry of a job's `error` as the service stores it: its clients read `data.error[]`. */
export const JobError = z.looseObject({
  task: z.string(),
  /** A text here; the service also stores a failing system's own answer. */
  message: z.unknown(),
  timestamp: z.number(),
});

export const JobSummary = z.looseObject({
  _id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  /** The service's job type: `automation` for a workflow's job. */
  type: z.string(),
  status: JobStatus,
  metrics: JobMetrics,
  /** When the job was last written, an ISO date as the service answers it. */
  last_updated: z.string().optional(),
  /** The job's lineage as the service stores it: its root job's id first, its own last. */
  ancestors: z.array(z.string()),
  parent: z.looseObject({ job: z.string(), task: z.string() }).optional(),
  /** The service's array: each failure that stopped the job, the task that failed, what went wrong and when. */
  error: z.array(JobError).optional(),
  /** In the jobs list: how many of the job's manual tasks wait for an operator. */
  operatorTasks: z.number().optional(),
  /** In the jobs list: the tasks a running or paused job is at (their summaries, else their methods). */
  currentTask: z.string().optional(),
  /** In the jobs list: the job waits on timers only (delay, reattempt, a retry's delay) and goes on at this time (ms since the epoch). */
  waitingUntil: z.number().optional(),
  /** In the jobs list: a simulated adapter instance answered one of its tasks (its task runs name it in `simulated`). */
  simulated: z.boolean().optional(),
});
export type JobSummary = z.infer<typeof JobSummary>;

/** One run of a workflow task inside the job (a task in a loop has one per iteration). */
export const TaskRun = z.looseObject({
  _id: z.string(),
  taskId: z.string(),
  iteration: z.number(),
  name: z.string(),
  app: z.string(),
  type: z.string(),
  summary: z.string().optional(),
  status: TaskRunStatus,
  finishState: z.enum(['success', 'error', 'failure', 'loop']).optional(),
  attempt: z.number(),
  workerId: z.string().optional(),
  incoming: z.record(z.string(), z.unknown()).optional(),
  outgoing: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
  childJob: z.string().optional(),
  /** The simulated adapter instance that answered this run (POST /adapters/simulate): not a live system's answer. */
  simulated: z.string().optional(),
  queuedAt: z.number(),
  /** The run waits on a timer (delay, reattempt, a retry's delay) until this time (ms since the epoch); only while queued. */
  waitingUntil: z.number().optional(),
  metrics: z.looseObject({ start_time: z.number().optional(), end_time: z.number().optional() }),
});
export type TaskRun = z.infer<typeof TaskRun>;

export const Job = JobSummary.extend({
  variables: z.record(z.string(), z.unknown()),
  children: z.array(z.string()),
  tasks: z.record(z.string(), z.looseObject({ name: z.string() })),
  transitions: z.record(z.string(), z.record(z.string(), z.looseObject({ state: z.string() }))),
  taskRuns: z.array(TaskRun),
  /** What happened to the job besides its task runs (collection job_history), oldest first. */
  history: z
    .array(
      z.looseObject({
        timestamp: z.number(),
        event: z.string(),
        message: z.string(),
        serverId: z.string().optional(),
        /** Who did it, when an operator did. */
        operator: z.string().optional(),
        taskId: z.string().optional(),
        /** An edit and retry: each change in words ("job variable s from "x" to "xy""). */
        changes: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  /** `service`: the automation service wrote the job (a profile on its database); the console shows it and refuses actions on it (409). */
  writtenBy: z.literal('service').optional(),
  /** Paths (`variables.x`, `taskRuns.2.outgoing.y[1]`) whose value is undefined. */
  undefinedPaths: z.array(z.string()),
  /** The job's values kept in job_data (above the threshold), each served at GET /operations-manager/large-data/:id. */
  largeData: z.array(z.object({ id: z.string(), variable: z.string(), task: z.string().optional(), size: z.number() })).optional(),
  /**
   * The console's: the job variables whose value holds a secret (by its name or its content, the one
   * classifier of core/secrets). The values are answered as the service answers them; the job page
   * masks these until the operator reveals them (`jobs.reveal`, logged).
   */
  secretVariables: z.array(z.string()).optional(),
});
export type Job = z.infer<typeof Job>;

/** A job's status, or `waiting`: a running or paused job with a manual task waiting for an operator. */
export const JobsStatusFilter = z.enum([...JobStatus.options, 'waiting']);
export type JobsStatusFilter = z.infer<typeof JobsStatusFilter>;
/** `duration` is the end time minus the start time (a job not ended: until now). */
export const JobSortField = z.enum(['start_time', 'end_time', 'duration', 'name', 'status']);
export type JobSortField = z.infer<typeof JobSortField>;
/** The service's names of the sort fields and orders (`sort=metrics.start_time&order=-1`) beside the console's. */
const SORT_NAMES: Record<string, JobSortField> = { 'metrics.start_time': 'start_time', 'metrics.end_time': 'end_time' };
const ORDER_NAMES: Record<string, 'asc' | 'desc'> = { '1': 'asc', '-1': 'desc' };
const byName = (names: Record<string, string>) => (value: unknown) => (typeof value === 'string' && value in names ? names[value] : value);

export const JobsCounts = z.object({
  statuses: z.record(JobsStatusFilter, z.number()),
  workflows: z.array(z.object({ name: z.string(), count: z.number() })),
});
export type JobsCounts = z.infer<typeof JobsCounts>;

/** The Jobs list's own filters, as the list takes them: a bulk action on every job they match. */
export const JobsFilter = z
  .object({
    status: JobsStatusFilter.optional(),
    workflow: z.string().optional(),
    from: z.number().int().optional(),
    to: z.number().int().optional(),
    q: z.string().max(200).optional(),
  })
  .strict();
export type JobsFilter = z.infer<typeof JobsFilter>;
/** The most jobs one bulk action acts on (by ids or by a filter). */
export const BULK_MAX = 10_000;
const JobIds = z
  .object({
    jobIds: z.array(z.string().min(1)).min(1, 'name at least one job').max(1000).optional(),
    filter: JobsFilter.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.jobIds === undefined) === (body.filter === undefined))
      ctx.addIssue({ code: 'custom', path: ['jobIds'], message: 'name the jobs either by jobIds or by filter (every job the Jobs list filter matches), not both' });
  });
const BulkAnswer = z.object({
  message: z.string(),
  data: z.object({
    results: z.array(z.object({ _id: z.string(), ok: z.boolean(), status: z.string().optional(), message: z.string() })),
    done: z.number(),
    failed: z.number(),
  }),
});
export type BulkAnswer = z.infer<typeof BulkAnswer>;

const JobParams = z.object({ id: RecordId });
const TaskParams = z.object({ id: RecordId, taskId: RecordId });
const JobAnswer = z.object({ message: z.string(), data: z.object({ _id: z.string(), status: JobStatus }) });

const FinishState = z.enum(['success', 'error', 'failure'], { error: 'must be success, failure or error' });
/**
 * A manual task's finish. The service's clients send `taskData` (its `finish_state` and `variables`);
 * the console's pages `values` and `state`. Both read as `{ values, state }`; a body giving both forms
 * is refused, naming taskData, rather than one silently read over the other.
 */
const FinishBody = z
  .object({
    values: z.record(z.string(), z.unknown()).optional(),
    state: FinishState.optional(),
    taskData: z.looseObject({ finish_state: FinishState.optional(), variables: z.record(z.string(), z.unknown()).optional() }).optional(),
  })
  .optional()
  .superRefine((body, ctx) => {
    if (body?.taskData && (body.values !== undefined || body.state !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['taskData'], message: 'give taskData (finish_state, variables) or values and state, not both' });
    }
  })
  .transform((body) => (body?.taskData ? { values: body.taskData.variables ?? {}, state: body.taskData.finish_state ?? 'success' } : { values: body?.values ?? {}, state: body?.state ?? 'success' }));

export const jobsOperations = defineOperations({
  'jobs.start': {
    method: 'POST',
    path: '/operations-manager/jobs/start',
    summary: "Start a job of a workflow; the variables are checked against the workflow's inputSchema when it has one",
    body: z.object({
      workflow: DocumentName,
      options: z
        .object({ description: z.string().optional(), variables: z.record(z.string(), z.unknown()).optional() })
        .optional(),
    }),
    output: JobAnswer,
    maxValues: JOB_START_LIMIT,
  },
  'jobs.list': {
    method: 'GET',
    path: '/operations-manager/jobs',
    summary:
      "Jobs in the service's search API shape ({ message, data, metadata: { total, skip, limit } }), newest first unless sorted. The service's query forms equals[field], contains[field], starts-with[field], ends-with[field], in[field] and not-in[field] (comma-separated), gt/gte/lt/lte[field] (times as ms or ISO dates) on any dotted field; sort (start_time, end_time, duration, name, status, or metrics.start_time) and order (asc/desc or 1/-1); skip and limit. The console's own filters too: status (or waiting: a manual task waits for an operator), workflow (name), from/to (start time, ms), q (text in description, id or variables); counts=true adds metadata.counts per status and per workflow",
    query: z
      .object({
        status: JobsStatusFilter.optional(),
        workflow: z.string().optional(),
        from: z.coerce.number().int().optional(),
        to: z.coerce.number().int().optional(),
        q: z.string().max(200).optional(),
        sort: z.preprocess(byName(SORT_NAMES), JobSortField).optional(),
        order: z.preprocess(byName(ORDER_NAMES), z.enum(['asc', 'desc'])).optional(),
        counts: z
          .enum(['true', 'false'])
          .transform((v) => v === 'true')
          .optional(),
        skip: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(500).default(50),
      })
      .catchall(SearchValue)
      .superRefine(checkSearchForms),
    output: z.object({
      message: z.string(),
      data: z.array(JobSummary),
      metadata: z.object({ total: z.number(), skip: z.number(), limit: z.number(), counts: JobsCounts.optional() }),
    }),
  },
  'jobs.bulkCancel': {
    method: 'POST',
    path: '/operations-manager/jobs/cancel',
    summary: 'Cancel each job named in jobIds, or every job a filter matches (status, workflow, from, to, q as the jobs list takes them; at most 10,000); the answer says per job whether it was canceled or why not',
    body: JobIds,
    output: BulkAnswer,
  },
  'jobs.bulkPause': {
    method: 'POST',
    path: '/operations-manager/jobs/pause',
    summary: 'Pause each running job named in jobIds or matched by filter; the answer says per job whether it was paused or why not',
    body: JobIds,
    output: BulkAnswer,
  },
  'jobs.bulkResume': {
    method: 'POST',
    path: '/operations-manager/jobs/resume',
    summary: 'Resume each paused job named in jobIds or matched by filter; the answer says per job whether it was resumed or why not',
    body: JobIds,
    output: BulkAnswer,
  },
  'jobs.bulkRetry': {
    method: 'POST',
    path: '/operations-manager/jobs/retry',
    summary: 'Run again, in each job named in jobIds or matched by filter, every task in error that has no error transition',
    body: JobIds,
    output: BulkAnswer,
  },
  'jobs.get': {
    method: 'GET',
    path: '/operations-manager/jobs/:id',
    summary: 'One job with its tasks, their values, errors and child jobs',
    params: JobParams,
    output: z.object({ data: Job }),
  },
  'jobs.largeData': {
    method: 'GET',
    path: '/operations-manager/large-data/:id',
    summary: 'Export large data for a job or task variable: the value a job or task document holds as a reference to job_data ({"~4largeData": {id, size}})',
    params: z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'expected the 24 hex digits of a job_data document id') }),
    output: z.unknown(),
  },
  'jobs.cancel': { method: 'POST', path: '/operations-manager/jobs/:id/cancel', summary: 'Cancel a job, its tasks and its child jobs', params: JobParams, output: JobAnswer },
  'jobs.pause': { method: 'POST', path: '/operations-manager/jobs/:id/pause', summary: 'Pause a running job: running tasks end, no new task starts', params: JobParams, output: JobAnswer },
  'jobs.resume': { method: 'POST', path: '/operations-manager/jobs/:id/resume', summary: 'Resume a paused job', params: JobParams, output: JobAnswer },
  'jobs.retryTask': {
    method: 'POST',
    path: '/operations-manager/jobs/:id/tasks/:taskId/retry',
    summary:
      "Run again a task that errored with no error transition (the job goes back to running). Optionally first with changed `incoming` values (used as given) or job `variables` (set); the job's history records who changed what",
    params: TaskParams,
    body: z
      .object({
        incoming: z.record(z.string(), z.unknown()).optional(),
        variables: z.record(z.string(), z.unknown()).optional(),
      })
      .default({}),
    output: JobAnswer,
  },
  'jobs.reveal': {
    method: 'POST',
    path: '/console/jobs/:id/reveal',
    summary:
      "The console's: an operator reveals a job's secret variables on the job page (each named in `variables`, among the job's `secretVariables`). Logged with the job, the names and the operator; the values are in the job's answer already",
    params: JobParams,
    body: z.object({ variables: z.array(z.string().min(1).max(200)).min(1).max(200) }),
    output: z.object({ message: z.string(), data: z.object({ _id: z.string(), variables: z.array(z.string()) }) }),
  },
  'jobs.manualController': {
    method: 'GET',
    path: '/operations-manager/jobs/:id/tasks/:taskId/manual-controller',
    summary:
      "What a manual task shows and collects, as the service answers it: `variables.incoming` (the values shown), `variables.outgoing` (the names a finish's `variables` fill), `variables.error`, `variables.decorators` (its secret fields) and `finish_state` once finished",
    params: TaskParams,
    output: z.object({
      message: z.string(),
      data: z.looseObject({
        variables: z.looseObject({ incoming: z.record(z.string(), z.unknown()), outgoing: z.record(z.string(), z.unknown()), error: z.string().optional(), decorators: z.array(z.unknown()) }),
        finish_state: FinishState.optional(),
      }),
    }),
  },
  'jobs.finishTask': {
    method: 'POST',
    path: '/operations-manager/jobs/:id/tasks/:taskId/finish',
    summary:
      "Finish a manual task waiting for an operator: as the service takes it, `{ taskData: { finish_state, variables } }`, or as the console's pages send it, `{ values, state }` (state success unless given; one form or the other)",
    params: TaskParams,
    body: FinishBody,
    output: JobAnswer,
  },
});
