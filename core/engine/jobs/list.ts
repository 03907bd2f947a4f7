// A page of jobs with the total matching the filters, and on request the counts an
// operator filters by (per status, per workflow). Status, workflow and start time are
// served by the jobs indexes the workflow engine declares; "waiting for an operator"
// reads the tasks index on status; free text has no index and reads the matching
// jobs' description, id and variables.
import type { ReadOnlyCollection, Filter, Sort } from '../../store/port';
import { JOB_STATUSES, type JobDoc, type JobStatus } from './types';
import { jobSummary } from './view';
import { waitingUntil } from './timers';
import type { TaskRecord } from '../queue/queue';

/** A job whose manual task waits for an operator (the job itself is running or paused). */
export const WAITING = 'waiting';
export type JobsStatusFilter = JobStatus | typeof WAITING;

/** `duration` (end time minus start time; a job not ended counts to now) is computed, not a stored field. */
export const JOB_SORT_FIELDS = ['start_time', 'end_time', 'duration', 'name', 'status'] as const;
export type JobSortField = (typeof JOB_SORT_FIELDS)[number];

export interface JobsQuery {
  status?: JobsStatusFilter;
  /** The workflow's name. */
  workflow?: string;
  /** Start time bounds, ms since the epoch. */
  from?: number;
  to?: number;
  /** Free text, case-insensitive, over the description, the id and the variables. */
  q?: string;
  sort?: JobSortField;
  order?: 'asc' | 'desc';
  /** Also answer the counts per status and per workflow (for the filters' labels). */
  counts?: boolean;
  /** The search API's query forms as a filter (search.ts). */
  search?: Filter;
  skip: number;
  limit: number;
}

export interface JobsCounts {
  /** Jobs per status under the other filters; `waiting` counts jobs with a task waiting for an operator. */
  statuses: Record<JobsStatusFilter, number>;
  /** Jobs per workflow under the other filters, most first. */
  workflows: { name: string; count: number }[];
}

export interface JobsListDeps {
  jobs: ReadOnlyCollection<JobDoc>;
  tasks: ReadOnlyCollection<TaskRecord>;
  /** The names of the stored workflows, for the per-workflow counts. */
  workflowNames: () => Promise<string[]>;
}

const SORT_KEY: Record<Exclude<JobSortField, 'duration'>, string> = { start_time: 'metrics.start_time', end_time: 'metrics.end_time', name: 'name', status: 'status' };

/** Manual tasks waiting for an operator, counted per job. */
export async function waitingTasksByJob(tasks: ReadOnlyCollection): Promise<Map<string, number>> {
  const waiting = await tasks.find({ status: 'waiting', childJob: { $exists: false } }, { projection: { jobId: 1 } });
  const byJob = new Map<string, number>();
  for (const task of waiting) byJob.set(String(task.jobId), (byJob.get(String(task.jobId)) ?? 0) + 1);
  return byJob;
}

/**
 * The tasks a running or paused job is at (queued, running or waiting), by their summary or method, per job;
 * and when a job waiting on timers only (delay, reattempt, a retry's delay) goes on: the earliest due time.
 */
async function currentTasks(tasks: ReadOnlyCollection<TaskRecord>, jobIds: string[]): Promise<{ labels: Map<string, string>; until: Map<string, number> }> {
  if (jobIds.length === 0) return { labels: new Map(), until: new Map() };
  const active = await tasks.find(
    { jobId: { $in: jobIds }, status: { $in: ['queued', 'running', 'waiting'] } },
    { projection: { jobId: 1, taskId: 1, name: 1, summary: 1, status: 1, timer: 1, runAfter: 1, autoRetries: 1, queuedAt: 1 } },
  );
  const byJob = new Map<string, string[]>();
  const until = new Map<string, number>();
  const busy = new Set<string>();
  for (const task of active) {
    const jobId = String(task.jobId);
    const label = typeof task.summary === 'string' && task.summary ? task.summary : String(task.name ?? task.taskId);
    const list = byJob.get(jobId) ?? [];
    if (!list.includes(label)) list.push(label);
    byJob.set(jobId, list);
    const due = waitingUntil(task);
    if (due === undefined) busy.add(jobId);
    else until.set(jobId, Math.min(due, until.get(jobId) ?? due));
  }
  for (const jobId of busy) until.delete(jobId);
  return { labels: new Map([...byJob].map(([id, labels]) => [id, labels.join(', ')])), until };
}

function textMatches(job: JobDoc, needle: string): boolean {
  if (job._id.toLowerCase().includes(needle)) return true;
  if (job.description?.toLowerCase().includes(needle)) return true;
  return JSON.stringify(job.variables ?? {}).toLowerCase().includes(needle);
}

const and = (...filters: (Filter | undefined)[]): Filter => {
  const parts = filters.filter((f): f is Filter => !!f && Object.keys(f).length > 0);
  const [only] = parts;
  return only === undefined ? {} : parts.length === 1 ? only : { $and: parts };
};

/** The filters a jobs query shares with its counts and with a bulk action on every matching job. */
export type JobsFilterQuery = Pick<JobsQuery, 'status' | 'workflow' | 'from' | 'to' | 'q' | 'search'>;

/** The store filter of a query, and the pieces its counts recombine (each status under the other filters). */
async function filterParts(deps: Pick<JobsListDeps, 'jobs' | 'tasks'>, query: JobsFilterQuery) {
  const time =
    query.from !== undefined || query.to !== undefined
      ? { 'metrics.start_time': { ...(query.from !== undefined ? { $gte: query.from } : {}), ...(query.to !== undefined ? { $lte: query.to } : {}) } }
      : undefined;
  const workflow = query.workflow ? { name: query.workflow } : undefined;
  // Also marks the rows of the page whose job waits for an operator.
  const waiting = await waitingTasksByJob(deps.tasks);
  const waitingFilter = { _id: { $in: [...waiting.keys()] }, status: { $in: ['running', 'paused'] } };
  // A running or paused job that waits for an operator is counted (and listed) as waiting only, so the chips add up.
  const notWaiting = { _id: { $nin: [...waiting.keys()] } };
  const statusFilter = (status: JobsStatusFilter | undefined): Filter | undefined =>
    status === WAITING ? waitingFilter : status === 'running' || status === 'paused' ? { status, ...notWaiting } : status ? { status } : undefined;

  let text: Filter | undefined;
  const needle = query.q?.trim().toLowerCase();
  if (needle) {
    const candidates = (await deps.jobs.find(and(workflow, time, query.search), { projection: { _id: 1, description: 1, variables: 1 } }));
    text = { _id: { $in: candidates.filter((job) => textMatches(job, needle)).map((job) => job._id) } };
  }
  return { time, workflow, waiting, statusFilter, text, filter: and(statusFilter(query.status), workflow, time, text, query.search) };
}

/** The ids of every job the filters match, newest first (a bulk action on "all N matching"). */
export async function matchingJobIds(deps: Pick<JobsListDeps, 'jobs' | 'tasks'>, query: JobsFilterQuery): Promise<string[]> {
  const { filter } = await filterParts(deps, query);
  const docs = await deps.jobs.find(filter, { projection: { _id: 1 }, sort: { 'metrics.start_time': -1 } });
  return docs.map((job) => String(job._id));
}

/** How long a job took, or has been going for when it has not ended. */
export const jobDuration = (job: Pick<JobDoc, 'metrics'>, now: number): number => (job.metrics.end_time ?? now) - job.metrics.start_time;

/**
 * A page sorted by duration: the store has no field for it, so the matching jobs' times are read
 * (two numbers a job), sorted here (ties newest first), and the page's jobs read whole by id.
 */
async function pageByDuration(jobs: ReadOnlyCollection<JobDoc>, filter: Filter, query: JobsQuery): Promise<JobDoc[]> {
  const now = Date.now();
  const direction = query.order === 'asc' ? 1 : -1;
  const times = await jobs.find(filter, { projection: { _id: 1, metrics: 1 } });
  const ids = times
    .map((job) => ({ id: job._id, took: jobDuration(job, now), start: job.metrics.start_time }))
    .sort((a, b) => direction * (a.took - b.took) || b.start - a.start)
    .slice(query.skip, query.skip + query.limit)
    .map((job) => job.id);
  const byId = new Map((await jobs.find({ _id: { $in: ids } })).map((job) => [job._id, job]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function listJobs(deps: JobsListDeps, query: JobsQuery) {
  const { time, workflow, waiting, statusFilter, text, filter } = await filterParts(deps, query);
  const sortField = query.sort ?? 'start_time';
  const direction = query.order === 'asc' ? 1 : -1;
  const sorted = (key: string): Sort => (key === 'metrics.start_time' ? { [key]: direction } : { [key]: direction, 'metrics.start_time': -1 });
  const [docs, total] = await Promise.all([
    sortField === 'duration' ? pageByDuration(deps.jobs, filter, query) : deps.jobs.find(filter, { sort: sorted(SORT_KEY[sortField]), skip: query.skip, limit: query.limit }),
    deps.jobs.count(filter),
  ]);
  const current = await currentTasks(deps.tasks, docs.filter((job) => job.status === 'running' || job.status === 'paused').map((job) => String(job._id)));
  // A job one of whose tasks a simulated adapter answered says so in the list (core/adapters/simulated).
  const simulated = new Set((await deps.tasks.find({ jobId: { $in: docs.map((job) => job._id) }, simulated: { $exists: true } }, { projection: { jobId: 1 } })).map((t) => String(t.jobId)));
  const results = docs.map((job) => {
    const operatorTasks = waiting.get(job._id);
    const currentTask = current.labels.get(job._id);
    const waitingUntil = current.until.get(job._id);
    return {
      ...jobSummary(job),
      ...(operatorTasks ? { operatorTasks } : {}),
      ...(currentTask ? { currentTask } : {}),
      ...(waitingUntil !== undefined ? { waitingUntil } : {}),
      ...(simulated.has(job._id) ? { simulated: true } : {}),
    };
  });
  if (!query.counts) return { results, total };

  const statuses = {} as Record<JobsStatusFilter, number>;
  const filters: JobsStatusFilter[] = [...JOB_STATUSES, WAITING];
  await Promise.all(
    filters.map(async (status) => {
      statuses[status] = await deps.jobs.count(and(statusFilter(status), workflow, time, text, query.search));
    }),
  );
  const names = new Set(await deps.workflowNames());
  if (query.workflow) names.add(query.workflow);
  const workflows = await Promise.all(
    [...names].map(async (name) => ({ name, count: await deps.jobs.count(and(statusFilter(query.status), { name }, time, text, query.search)) })),
  );
  workflows.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const counts: JobsCounts = { statuses, workflows };
  return { results, total, counts };
}
