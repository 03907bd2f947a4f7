// Jobs as the API shows them: values decoded from the store (the marker becomes
// undefined), and the paths of the undefined values listed, since JSON drops them.
import { decodeVariables } from '../../values/undefined-codec';
import type { TaskRecord } from '../queue/queue';
import { jobErrors } from './job-error';
import type { JobDoc } from './types';
import type { JobHistoryEntry } from './history';
import { waitingUntil } from './timers';
import { writtenByService } from './service-jobs';

export function undefinedPaths(value: unknown, path: string, out: string[]): string[] {
  if (value === undefined) out.push(path);
  else if (Array.isArray(value)) value.forEach((item, i) => undefinedPaths(item, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) undefinedPaths(item, `${path}.${key}`, out);
  return out;
}

/** A time as the service answers it: an ISO date (the console stores ms; the service's documents hold dates). */
export function isoTime(value: unknown): string | undefined {
  const date = value instanceof Date ? value : typeof value === 'number' || typeof value === 'string' ? new Date(value) : undefined;
  return date && Number.isFinite(date.getTime()) ? date.toISOString() : undefined;
}

/** The job's lineage: stored, or for a job of an earlier version its parent's id and its own. */
export function ancestorsOf(job: Pick<JobDoc, '_id' | 'ancestors' | 'parent'>): string[] {
  if (Array.isArray(job.ancestors) && job.ancestors.length) return job.ancestors.map(String);
  return job.parent ? [String(job.parent.job), job._id] : [job._id];
}

export function jobSummary(job: JobDoc) {
  const lastUpdated = isoTime(job.last_updated);
  return {
    _id: job._id,
    name: job.name,
    description: job.description,
    // Every job the console runs is a workflow's: the service's type for those.
    type: typeof job.type === 'string' ? job.type : 'automation',
    status: job.status,
    metrics: job.metrics,
    ...(lastUpdated ? { last_updated: lastUpdated } : {}),
    ancestors: ancestorsOf(job),
    ...(job.parent ? { parent: job.parent } : {}),
    // The service's array, whatever the stored form (job-error.ts).
    ...(job.error ? { error: jobErrors(job) } : {}),
  };
}

export function taskRun(record: TaskRecord) {
  const { leaseUntil: _lease, advanced: _advanced, from: _from, jobVariables: _vars, runAfter: _runAfter, timer: _timer, loop, ...rest } = record;
  // A childJob loop: its children, in data_array order (their variables are on the children themselves).
  const children = loop ? { childJobs: loop.ids, loopType: loop.type } : {};
  // A task waiting on a timer (delay, reattempt, a retry's delay): when it runs on.
  const until = waitingUntil(record);
  return {
    ...rest,
    ...children,
    ...(until !== undefined ? { waitingUntil: until } : {}),
    // While it waits on a timer its record is queued as of its due time; shown: when it was first queued.
    ...(record.timer ? { queuedAt: record.timer.queued } : {}),
    ...(record.incoming ? { incoming: decodeVariables(record.incoming) } : {}),
    ...(record.outgoing ? { outgoing: decodeVariables(record.outgoing) } : {}),
  };
}

/** A history entry as the Job page reads it: when, what, and who (the operator, the task, the changes) when the entry names them. */
function historyView({ timestamp, event, message, serverId, operator, taskId, changes }: JobHistoryEntry) {
  return {
    timestamp,
    event,
    message,
    ...(serverId ? { serverId } : {}),
    ...(typeof operator === 'string' ? { operator } : {}),
    ...(typeof taskId === 'string' ? { taskId } : {}),
    ...(Array.isArray(changes) ? { changes: changes.filter((c): c is string => typeof c === 'string') } : {}),
  };
}

type TaskState = { status: string; metrics?: Record<string, unknown>; iterations?: string[] };

/**
 * Each task of the job with its state, as the service's job document carries it and its clients read
 * it (`data.tasks.<id>.status`, `.metrics.finish_state`): `incomplete` until it runs, then its latest
 * run's status (a manual task waiting for an operator is `running`, as the service shows it), its
 * metrics and the ids of its runs (`iterations`). A task the service itself wrote a state for keeps it.
 */
export function tasksWithState(job: JobDoc, records: TaskRecord[]): Record<string, unknown> {
  const runsOf = new Map<string, TaskRecord[]>();
  for (const record of records) {
    const runs = runsOf.get(record.taskId);
    if (runs) runs.push(record);
    else runsOf.set(record.taskId, [record]);
  }
  const started = job.status !== undefined;
  const stateOf = (taskId: string): TaskState => {
    const runs = runsOf.get(taskId) ?? [];
    const latest = runs[runs.length - 1];
    if (!latest) {
      if (taskId === 'workflow_start' && started) return { status: 'complete', metrics: { finish_state: 'success', start_time: job.metrics.start_time } };
      if (taskId === 'workflow_end' && job.status === 'complete') return { status: 'complete', metrics: { finish_state: 'success', ...(job.metrics.end_time !== undefined ? { start_time: job.metrics.end_time } : {}) } };
      return { status: 'incomplete' };
    }
    const { start_time, end_time } = latest.metrics ?? {};
    const metrics = {
      ...(start_time !== undefined ? { start_time } : {}),
      ...(end_time !== undefined ? { end_time } : {}),
      ...(latest.finishState !== undefined ? { finish_state: latest.finishState } : {}),
    };
    return { status: latest.status === 'waiting' ? 'running' : latest.status, metrics, iterations: runs.map((run) => run._id) };
  };
  const tasks: Record<string, unknown> = {};
  for (const [taskId, definition] of Object.entries(job.tasks ?? {})) tasks[taskId] = typeof definition.status === 'string' ? definition : { ...definition, ...stateOf(taskId) };
  return tasks;
}

export function jobView(job: JobDoc, records: TaskRecord[], children: string[], history: JobHistoryEntry[] = []) {
  const taskRuns = records.map(taskRun);
  const variables = decodeVariables(job.variables);
  const paths = undefinedPaths(variables, 'variables', []);
  taskRuns.forEach((run, i) => {
    undefinedPaths(run.incoming ?? {}, `taskRuns.${i}.incoming`, paths);
    undefinedPaths(run.outgoing ?? {}, `taskRuns.${i}.outgoing`, paths);
  });
  return {
    ...jobSummary(job),
    // A simulated adapter instance answered one of its tasks (core/adapters/simulated).
    ...(records.some((r) => typeof r.simulated === 'string') ? { simulated: true } : {}),
    // The service wrote it (a profile on the service's own database): shown, acted on there (service-jobs.ts).
    ...(writtenByService(job) ? { writtenBy: 'service' as const } : {}),
    variables,
    children,
    tasks: tasksWithState(job, records),
    transitions: job.transitions,
    taskRuns,
    history: history.map(historyView),
    undefinedPaths: paths,
  };
}
