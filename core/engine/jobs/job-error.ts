// A job's `error`, as the service stores it: an array of `{ task, message, timestamp }`, one entry
// for each failure that stopped the job (the task that failed, what went wrong, when). Its clients
// read `data.error[]` to say which task failed and why. A job written by an earlier version of the
// console holds one text instead; it is read as one entry.

export interface JobError {
  /** The task that failed (its id in the workflow), or `workflow_start`/`workflow_end` for the job itself. */
  task: string;
  /** What went wrong: a text, or the failing adapter's own error object (`{ icode, IAPerror }`) as the service stores it. */
  message: unknown;
  /** When (ms since the epoch). */
  timestamp: number;
  /** What else an entry of the service's own carries, kept. */
  [key: string]: unknown;
}

/** A failure about to be written (its time is the write's). */
export type JobFailure = Pick<JobError, 'task' | 'message'>;

/** What a job (a stored document, or an answer read over HTTP) holds of its errors. */
type StoredError = { error?: unknown; last_updated?: unknown };

const isEntry = (value: unknown): value is JobError => !!value && typeof value === 'object' && !Array.isArray(value);

/** The job's errors as the service's array, whatever the stored form. */
export function jobErrors(job: StoredError): JobError[] {
  const { error } = job;
  if (Array.isArray(error)) return error.filter(isEntry);
  if (typeof error === 'string' && error) return [{ task: 'job', message: error, timestamp: Number(job.last_updated) || 0 }];
  return [];
}

/** An adapter's error object (`{ icode, IAPerror: { displayString, ... } }`), as an adapter answers a failed call. */
export function isAdapterError(value: unknown): value is { IAPerror: { displayString?: unknown } } {
  return isEntry(value) && isEntry(value.IAPerror);
}

/** A message as one line: a text as it is, an adapter's error object by its displayString, anything else as JSON. */
export function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (isAdapterError(message) && typeof message.IAPerror.displayString === 'string') return message.IAPerror.displayString;
  try {
    return JSON.stringify(message) ?? String(message);
  } catch {
    // A value JSON cannot write (a cycle, a BigInt) is shown as JavaScript says it.
    return String(message);
  }
}

/** What went wrong, as one line (a log, the Jobs list, a parent's childJob task): the messages in order; undefined when none. */
export function jobErrorText(job: StoredError): string | undefined {
  const errors = jobErrors(job);
  return errors.length ? errors.map((e) => (isAdapterError(e.message) ? `task ${e.task}: ${messageText(e.message)}` : messageText(e.message))).join('; ') : undefined;
}
