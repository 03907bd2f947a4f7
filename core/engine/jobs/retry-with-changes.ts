// Edit and retry: before a task in error runs again, the operator may change the values it is
// given (its incoming, used as they are instead of being resolved again) or the job's variables;
// the job's history records who changed what. Pure: what the changes write, with the retry
// (actions.ts checks that the task is in error and may be retried); the executor writes it all
// as one unit of work.
import { DomainError } from '../../errors/domain';
import { encodeValue, encodeVariables, decodeVariables } from '../../values/undefined-codec';
import type { TaskRecord } from '../queue/queue';
import type { HistoryWrite } from './history';
import type { JobDoc } from './types';

export interface RetryChanges {
  /** The task's incoming values for the retry, whole (replacing what its definition resolves to). */
  incoming?: Record<string, unknown>;
  /** Job variables to set before the retry (the others stay). */
  variables?: Record<string, unknown>;
}

/** What the changes write: the job's variables, the record's incoming override, the history entry saying so. */
export interface ChangesWritten {
  variablesSet?: Record<string, unknown>;
  incomingOverride?: Record<string, unknown>;
  history?: HistoryWrite;
}

const shown = (value: unknown) => (value === undefined ? 'undefined' : JSON.stringify(value));

function checkNames(variables: Record<string, unknown>) {
  for (const name of Object.keys(variables)) {
    if (name === '' || name.includes('.') || name.startsWith('$')) throw new DomainError('invalid-value', `body.variables: "${name}" is not a variable name a job can keep (no ".", no leading "$")`);
  }
}

/** The writes of an operator's changes to a task in error (`record`) before its retry. */
export function changesWritten(job: JobDoc, record: TaskRecord, edit: { changes: RetryChanges; operator: string }, now: number): ChangesWritten {
  const { changes, operator } = edit;
  const { taskId } = record;
  const said: string[] = [];
  const written: ChangesWritten = {};
  if (changes.variables && Object.keys(changes.variables).length > 0) {
    checkNames(changes.variables);
    const before = decodeVariables(job.variables);
    written.variablesSet = Object.fromEntries(Object.entries(changes.variables).map(([name, value]) => [`variables.${name}`, encodeValue(value, `variables.${name}`)]));
    for (const [name, value] of Object.entries(changes.variables)) said.push(`job variable ${name} from ${shown(before[name])} to ${shown(value)}`);
  }
  if (changes.incoming) {
    const before = decodeVariables(record.incoming);
    written.incomingOverride = encodeVariables(changes.incoming, 'incoming');
    for (const name of new Set([...Object.keys(before), ...Object.keys(changes.incoming)])) {
      if (JSON.stringify(before[name]) !== JSON.stringify(changes.incoming[name])) said.push(`incoming ${name} of ${taskId} from ${shown(before[name])} to ${shown(changes.incoming[name])}`);
    }
  }
  if (said.length > 0) {
    const message = `${operator} changed ${said.join('; ')} and retried task ${taskId}`;
    written.history = {
      kind: 'history',
      entry: { _id: `${job._id}:task-retry-changed:${record._id}:${now}`, jobId: job._id, event: 'task-retry-changed', message, timestamp: now, taskId, operator, changes: said },
    };
  }
  return written;
}
