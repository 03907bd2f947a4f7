// The service's aggregate job and task metrics (WorkFlowEngine's GET /workflow_engine/jobs/metrics
// and GET /workflow_engine/tasks/metrics), in its answer shape: `{ results, skip, limit, total }`.
// The fields are those the service's API reference and the vendor's MCP server (its JobMetricElement
// and TaskMetricElement models) name, as a running service answers them: a workflow's metrics hold
// `workflow.name`, `jobsComplete`, `totalRunTime` (ms) and `metrics[]` periods, each with its
// `startDate`; a task's hold `app`, `name`, `taskType`, `global` (the row of a task method across
// workflows) or `workflow.name` and `taskId` (the row of one workflow's task), and `metrics[]` periods
// with `totalSuccesses`, `totalErrors`, `totalSuccessRunTime`, `totalErrorRunTime`.
// Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { SortOrder, WholeNumber } from './list-query';

const DATE_MS = 'expected a date as a whole number of milliseconds since the epoch';

/** The query both routes read: sorted by a field (`workflow.name` when none), paged, and kept to the periods that started since a date. */
const searchQuery = {
  order: SortOrder.default(1),
  sort: z.string().min(1, 'must name a field').default('workflow.name'),
  skip: WholeNumber.default(0),
  /** Absent or 0: every result. */
  limit: WholeNumber.optional(),
  greaterThanEquals: z.coerce.number({ message: DATE_MS }).int(DATE_MS).optional(),
  greaterThanEqualsField: z.enum(['metrics.startDate'], { error: 'must be metrics.startDate' }).default('metrics.startDate'),
};

export const JobMetricsQuery = z.object({
  ...searchQuery,
  contains: z.string().optional(),
  containsField: z.enum(['workflow.name'], { error: 'must be workflow.name' }).default('workflow.name'),
});
export type JobMetricsQuery = z.infer<typeof JobMetricsQuery>;

/** The service's reference names `workflow.name`; the vendor's MCP server also asks by `app` and by task `name`. */
export const TASK_METRICS_EQUALS_FIELDS = ['workflow.name', 'app', 'name'] as const;

export const TaskMetricsQuery = z.object({
  ...searchQuery,
  equals: z.string().optional(),
  equalsField: z.enum(TASK_METRICS_EQUALS_FIELDS, { error: `must be one of ${TASK_METRICS_EQUALS_FIELDS.join(', ')}` }).default('workflow.name'),
});
export type TaskMetricsQuery = z.infer<typeof TaskMetricsQuery>;

const WorkflowName = z.object({ name: z.string() });

/** The jobs of a workflow that completed in one period (a UTC day), from its first start that day. */
export const JobMetricsPeriod = z.object({ startDate: z.string(), jobsComplete: z.number(), totalRunTime: z.number() });

export const AggregateJobMetrics = z.object({
  _id: z.string(),
  workflow: WorkflowName,
  metrics: z.array(JobMetricsPeriod),
  /** Over every period. */
  jobsComplete: z.number(),
  /** Milliseconds, over every period. */
  totalRunTime: z.number(),
});
export type AggregateJobMetrics = z.infer<typeof AggregateJobMetrics>;

/** The runs of a task that ended in one period (a UTC day), from its first start that day; run times in ms. */
export const TaskMetricsPeriod = z.object({
  startDate: z.string(),
  totalSuccesses: z.number(),
  totalErrors: z.number(),
  totalSuccessRunTime: z.number(),
  totalErrorRunTime: z.number(),
});

export const AggregateTaskMetrics = z.object({
  _id: z.string(),
  /** True: the task method across every workflow; false: one task of one workflow (`workflow`, `taskId`). */
  global: z.boolean(),
  name: z.string(),
  app: z.string(),
  taskType: z.string(),
  taskId: z.string().optional(),
  workflow: WorkflowName.optional(),
  metrics: z.array(TaskMetricsPeriod),
});
export type AggregateTaskMetrics = z.infer<typeof AggregateTaskMetrics>;

const page = <T extends z.ZodType>(result: T) => z.object({ results: z.array(result), skip: z.number(), limit: z.number().optional(), total: z.number() });

export const engineMetricsOperations = defineOperations({
  'jobMetrics.search': {
    method: 'GET',
    path: '/workflow_engine/jobs/metrics',
    summary:
      "The service's aggregate job metrics, one result per workflow with completed jobs (jobsComplete, totalRunTime in ms, and per UTC day from its first start), computed from the jobs: contains / containsField=workflow.name, greaterThanEquals (ms) on metrics.startDate, sort (workflow.name) and order 1 or -1, skip and limit; `{ results, skip, limit, total }`",
    query: JobMetricsQuery,
    output: page(AggregateJobMetrics),
  },
  'taskMetrics.search': {
    method: 'GET',
    path: '/workflow_engine/tasks/metrics',
    summary:
      "The service's aggregate task metrics, computed from the ended task runs: a global row per application and task method, and a row per workflow task (workflow.name, taskId), each with successes, errors and their run times (ms) per UTC day. equals / equalsField (workflow.name, app or name), greaterThanEquals (ms) on metrics.startDate, sort (workflow.name) and order 1 or -1, skip and limit; `{ results, skip, limit, total }`",
    query: TaskMetricsQuery,
    output: page(AggregateTaskMetrics),
  },
});
