// Handlers of the service's aggregate metrics routes: they read the active profile's jobs and
// task records at each call (only the fields the aggregates need) and answer the search.
import type { Handlers } from '../../dispatch/dispatch';
import type { ReadOnlyCollection } from '../../store/port';
import type { JobDoc } from '../jobs/types';
import type { TaskRecord } from '../queue/queue';
import { aggregateJobMetrics, aggregateTaskMetrics, type EndedTaskRun } from './aggregate';
import { searchMetrics, type MetricsSearch } from './search';
import type { JobMetricsQuery, TaskMetricsQuery } from '../../contract/engine-metrics';

export interface EngineMetricsDeps {
  /** The active profile's jobs. */
  jobs(): ReadOnlyCollection<JobDoc>;
  /** The active profile's task records. */
  tasks(): ReadOnlyCollection<TaskRecord>;
}

export type EngineMetricsService = EngineMetricsDeps;

export function createEngineMetricsService(deps: EngineMetricsDeps): EngineMetricsService {
  return deps;
}

/** workflow_start and workflow_end mark a job's ends; they are no task of an application. */
const BOUNDARIES = ['workflow_start', 'workflow_end'];

/** The ended task runs, each with the name of its job's workflow (a record the service wrote names its job by `job._id`). */
async function endedTaskRuns(service: EngineMetricsService): Promise<EndedTaskRun[]> {
  const records = await service.tasks().find(
    { status: { $in: ['complete', 'error'] }, taskId: { $nin: BOUNDARIES } },
    { projection: { jobId: 1, 'job._id': 1, taskId: 1, name: 1, app: 1, type: 1, status: 1, 'metrics.start_time': 1, 'metrics.end_time': 1 } },
  );
  const jobs = await service.jobs().find({}, { projection: { name: 1 } });
  const workflowOf = new Map(jobs.map((job) => [String(job._id), job.name]));
  return records.map((record) => {
    const jobId = record.jobId ?? record.job?._id;
    const workflow = jobId === undefined ? undefined : workflowOf.get(String(jobId));
    return {
      taskId: String(record.taskId),
      name: String(record.name),
      app: String(record.app ?? 'WorkFlowEngine'),
      type: String(record.type ?? 'automatic'),
      status: record.status === 'error' ? 'error' : 'complete',
      metrics: record.metrics ?? {},
      ...(typeof workflow === 'string' ? { workflow } : {}),
    };
  });
}

/** The search a query asks (greaterThanEqualsField has one value, metrics.startDate), with its field match. */
function searchOf(query: JobMetricsQuery | TaskMetricsQuery, match: MetricsSearch['match']): MetricsSearch {
  const { order, sort, skip, limit, greaterThanEquals } = query;
  return { order, sort, skip, ...(limit !== undefined ? { limit } : {}), ...(greaterThanEquals !== undefined ? { greaterThanEquals } : {}), ...(match ? { match } : {}) };
}

export function engineMetricsHandlers(service: EngineMetricsService): Pick<Handlers, 'jobMetrics.search' | 'taskMetrics.search'> {
  return {
    'jobMetrics.search': async ({ query }) => {
      const completed = await service.jobs().find({ status: 'complete' }, { projection: { name: 1, 'metrics.start_time': 1, 'metrics.end_time': 1 } });
      const match = query.contains !== undefined ? { field: query.containsField, contains: query.contains } : undefined;
      return searchMetrics(aggregateJobMetrics(completed), searchOf(query, match));
    },
    'taskMetrics.search': async ({ query }) => {
      const match = query.equals !== undefined ? { field: query.equalsField, equals: query.equals } : undefined;
      return searchMetrics(aggregateTaskMetrics(await endedTaskRuns(service)), searchOf(query, match));
    },
  };
}
