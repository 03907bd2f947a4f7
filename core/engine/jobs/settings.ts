// Task and workflow settings the runner honours: a task's `retrySettings`
// (`autoRetry`, `limit`, `delay` in ms: an error runs the task again, up to
// `limit` times, `delay` ms apart, before its error transition is taken or the
// job stops) and the workflow's `errorHandler` (a task, typically a childJob,
// run once when a task errors with no error transition, before the job ends in error).
import { isRecord } from './guards';
import type { JobDoc, TaskDefinition } from './types';

/** The task id the errorHandler's record runs under. */
export const ERROR_HANDLER = 'errorHandler';

/** Longest wait between automatic retries: a day (a longer one belongs in a scheduled job). */
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60 * 1000;

export interface RetryPlan {
  limit: number;
  delay: number;
}

function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** The task's automatic retries, or undefined when it has none (no settings, autoRetry off, limit 0). */
export function retryOf(definition: TaskDefinition): RetryPlan | undefined {
  const settings = definition.retrySettings;
  if (!isRecord(settings)) return undefined;
  if (settings.autoRetry !== true && settings.autoRetry !== 'true') return undefined;
  const limit = Math.floor(count(settings.limit) ?? 0);
  if (limit <= 0) return undefined;
  return { limit, delay: Math.min(count(settings.delay) ?? 0, MAX_RETRY_DELAY_MS) };
}

/** The workflow's errorHandler as a task to run, or undefined (null in most exports). */
export function errorHandlerOf(job: JobDoc): TaskDefinition | undefined {
  const handler = job.errorHandler;
  if (!isRecord(handler) || 'tasks' in handler) return undefined;
  const { name } = handler;
  if (typeof name === 'string' && name) return { ...handler, name };
  // A workflow name with its variables: run it as a child job.
  const workflow = typeof handler.workflow === 'string' ? handler.workflow : undefined;
  if (!workflow) return undefined;
  return { name: 'childJob', app: 'WorkFlowEngine', type: 'operation', variables: { incoming: { workflow, variables: handler.variables ?? {} }, outgoing: {} } };
}
