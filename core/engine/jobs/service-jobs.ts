// Jobs the automation service wrote (a profile pointing at the service's own MongoDB): shown
// whole, their task documents with them, but never run or changed by the console, whose engine
// would not do to their tasks what the service does. The console writes a job's `last_updated` as
// ms since the epoch (or, in jobs of early versions, not at all); the service writes a date (and
// ObjectId ids, read back as hex strings by the MongoDB adapter, object-ids.ts).
import { ConsoleError } from '../../errors';
import type { TaskRecord } from '../queue/queue';
import { isRecord } from './guards';
import type { JobDoc } from './types';

export function writtenByService(job: Pick<JobDoc, 'last_updated'>): boolean {
  const written: unknown = job.last_updated;
  return written instanceof Date || typeof written === 'string';
}

/** A 409 for an operator's action on a job the service wrote: it is to be done on the service. */
export function refuseServiceJob(job: JobDoc, action: string): void {
  if (!writtenByService(job)) return;
  throw new ConsoleError(
    'conflict',
    `job ${job._id} was written by the automation service, not by this console: ${action} it on the service (its Operations Manager), which runs its tasks; the console shows it as it is`,
    { jobId: job._id, writtenBy: 'service' },
  );
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const time = (value: unknown) => (typeof value === 'number' ? value : value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) || undefined : undefined);

/** A task document the service wrote, whole, with the fields the console's job view reads. */
export function serviceRecord(doc: Record<string, unknown>, jobId: string): TaskRecord {
  const metrics = isRecord(doc.metrics) ? doc.metrics : {};
  const variables = isRecord(doc.variables) ? doc.variables : {};
  const incoming = isRecord(doc.incoming) ? doc.incoming : isRecord(variables.incoming) ? variables.incoming : undefined;
  const outgoing = isRecord(doc.outgoing) ? doc.outgoing : isRecord(variables.outgoing) ? variables.outgoing : undefined;
  const start = time(metrics.start_time);
  return {
    ...doc,
    _id: String(doc._id),
    jobId,
    taskId: text(doc.taskId) ?? text(doc.id) ?? String(doc._id),
    iteration: typeof doc.iteration === 'number' ? doc.iteration : 0,
    name: text(doc.name) ?? 'task',
    app: text(doc.app) ?? 'WorkFlowEngine',
    type: text(doc.type) ?? 'automatic',
    status: (text(doc.status) ?? 'complete') as TaskRecord['status'],
    queuedAt: time(doc.queuedAt) ?? start ?? 0,
    runAfter: 0,
    attempt: typeof doc.attempt === 'number' ? doc.attempt : 0,
    ...(incoming ? { incoming } : {}),
    ...(outgoing ? { outgoing } : {}),
    metrics: { ...metrics, ...(start !== undefined ? { start_time: start } : {}), ...(time(metrics.end_time) !== undefined ? { end_time: time(metrics.end_time) } : {}) },
  };
}
