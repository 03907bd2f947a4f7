// Edit and retry: before a task in error runs again, the operator may change the values it is
// given (its incoming, used as they are instead of being resolved again) or the job's variables;
// the job's history records who changed what. The retry itself is the runner's (it re-checks
// that the task is in error and may be retried).
import { ConsoleError } from '../../errors';
import { encodeValue, encodeVariables, decodeVariables } from '../../values/undefined-codec';
import { addJobHistory } from './history';
import { latestRecords } from './graph';
import type { JobRunner } from './runner';

export interface RetryChanges {
  /** The task's incoming values for the retry, whole (replacing what its definition resolves to). */
  incoming?: Record<string, unknown>;
  /** Job variables to set before the retry (the others stay). */
  variables?: Record<string, unknown>;
}

const shown = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

function checkNames(variables: Record<string, unknown>) {
  for (const name of Object.keys(variables)) {
    if (name === '' || name.includes('.') || name.startsWith('$')) throw new ConsoleError('bad_input', `body.variables: "${name}" is not a variable name a job can keep (no ".", no leading "$")`);
  }
}

/** Applies the changes to a job's task in error, records them in the job's history, and queues the task again. */
export async function retryWithChanges(runner: JobRunner, ids: { jobId: string; taskId: string }, changes: RetryChanges, operator: string) {
  const { jobId, taskId } = ids;
  const job = await runner.requireJob(jobId);
  const record = latestRecords(await runner.records(jobId)).get(taskId);
  if (!job.tasks[taskId]) throw new ConsoleError('not_found', `job ${jobId} has no task "${taskId}"`);
  if (!record || record.status !== 'error') throw new ConsoleError('conflict', `task ${taskId} is ${record?.status ?? 'not run yet'}; only a task in error can be retried`);
  const said: string[] = [];
  if (changes.variables && Object.keys(changes.variables).length > 0) {
    checkNames(changes.variables);
    const before = decodeVariables(job.variables);
    const set = Object.fromEntries(Object.entries(changes.variables).map(([name, value]) => [`variables.${name}`, encodeValue(value, `variables.${name}`)]));
    await runner.jobs.updateOne({ _id: jobId }, { $set: set });
    for (const [name, value] of Object.entries(changes.variables)) said.push(`job variable ${name} from ${shown(before[name])} to ${shown(value)}`);
  }
  if (changes.incoming) {
    const before = decodeVariables(record.incoming);
    await runner.queue.tasks.updateOne({ _id: record._id, status: 'error' }, { $set: { incomingOverride: encodeVariables(changes.incoming, 'incoming') } });
    for (const name of new Set([...Object.keys(before), ...Object.keys(changes.incoming)])) {
      if (JSON.stringify(before[name]) !== JSON.stringify(changes.incoming[name])) said.push(`incoming ${name} of ${taskId} from ${shown(before[name])} to ${shown(changes.incoming[name])}`);
    }
  }
  if (said.length > 0) {
    await addJobHistory(runner.store, {
      jobId,
      event: 'task-retry-changed',
      message: `${operator} changed ${said.join('; ')} and retried task ${taskId}`,
      taskId,
      operator,
      changes: said,
    });
  }
  return runner.retryTask(jobId, taskId);
}
