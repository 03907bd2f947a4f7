// GET /operations-manager/jobs/:id/tasks/:taskId/manual-controller, as the service answers it: what a
// manual task shows and what its form collects, before an operator finishes it. The vendor's operator
// guide reads it between the claim and the finish: `variables.incoming` (the values shown),
// `variables.outgoing` (the names the finish's `variables` fill), `variables.error`,
// `variables.decorators` (the task's secret fields) and `finish_state` once finished.
import { ConsoleError } from '../../errors';
import { decodeVariables } from '../../values/undefined-codec';
import type { TaskRecord } from '../queue/queue';
import { latestRecords } from './graph';
import { isManual } from './records';
import type { JobDoc } from './types';

const objectOr = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export function manualController(job: JobDoc, records: TaskRecord[], taskId: string) {
  const definition = job.tasks[taskId];
  if (!definition) throw new ConsoleError('not_found', `job ${job._id} has no task "${taskId}"`);
  if (!isManual(definition)) throw new ConsoleError('conflict', `task ${taskId} (${definition.name}) of job ${job._id} is not a manual task: only a manual task has a controller`);
  const record = latestRecords(records.filter((r) => r.taskId === taskId)).get(taskId);
  // Before it runs: the workflow's values; once it ran, the values it was given and ended with.
  const incoming = record?.incoming ? decodeVariables(record.incoming) : objectOr(definition.variables?.incoming);
  const outgoing = record?.outgoing ? decodeVariables(record.outgoing) : objectOr(definition.variables?.outgoing);
  const decorators = Array.isArray(definition.decorators) ? definition.decorators : [];
  const variables = { incoming, outgoing, ...(record?.error ? { error: record.error } : {}), decorators };
  return { variables, ...(record?.finishState && record.finishState !== 'loop' ? { finish_state: record.finishState } : {}) };
}
