// A page of jobs, newest first, with the total matching the filters: served by
// the jobs indexes the workflow engine declares (status and name with start time).
import type { Collection } from '../../store/port';
import type { JobDoc, JobStatus } from './types';
import { jobSummary } from './view';

export interface JobsQuery {
  status?: JobStatus;
  /** The workflow's name. */
  workflow?: string;
  /** Start time bounds, ms since the epoch. */
  from?: number;
  to?: number;
  skip: number;
  limit: number;
}

export async function listJobs(jobs: Collection, query: JobsQuery) {
  const filter: Record<string, unknown> = {};
  if (query.status) filter.status = query.status;
  if (query.workflow) filter.name = query.workflow;
  if (query.from !== undefined || query.to !== undefined) {
    filter['metrics.start_time'] = { ...(query.from !== undefined ? { $gte: query.from } : {}), ...(query.to !== undefined ? { $lte: query.to } : {}) };
  }
  const [docs, total] = await Promise.all([jobs.find(filter, { sort: { 'metrics.start_time': -1 }, skip: query.skip, limit: query.limit }), jobs.count(filter)]);
  return { results: (docs as JobDoc[]).map(jobSummary), total };
}
