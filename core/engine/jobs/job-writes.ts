// The runner's writes of task records and of a job's variables. Records have
// deterministic ids, so one another server wrote first is skipped, not written twice.
// The variables a task's end gives its job are carried by the advance to its first
// write: before the next task's record (which reads them), or with the job's completion.
import type { Collection } from '../../store/port';
import { isDuplicateKey } from '../../store/errors';
import { encodeValue } from '../../values/undefined-codec';
import type { TaskRecord } from '../queue/queue';
import type { JobDoc } from './types';

/** The job variables a task's end wrote, carried by the advance to its first write (`set`: not written yet). */
export interface PendingVariables {
  set?: Record<string, unknown>;
}

/** The `$set` that gives the job what a task's end writes to its variables, taken into `job` now. */
export function jobVariablesSet(job: JobDoc, writes: Record<string, unknown>): Record<string, unknown> | undefined {
  const set: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(writes)) set[`variables.${name}`] = encodeValue(value, `variables.${name}`);
  if (Object.keys(set).length === 0) return undefined;
  // A name with "." or a leading "$" is not a path: the variables are then written whole.
  const whole = Object.keys(writes).some((name) => name.includes('.') || name.startsWith('$'));
  const variables = { ...job.variables, ...Object.fromEntries(Object.entries(writes).map(([name, value]) => [name, encodeValue(value)])) };
  const now = Date.now();
  job.variables = variables;
  job.last_updated = now;
  return { ...(whole ? { variables } : set), last_updated: now };
}

export class JobWrites {
  constructor(
    private readonly jobs: Collection,
    private readonly tasks: Collection<TaskRecord>,
  ) {}

  /** The ids of the records written, in order, in one call; a record that exists already is not. */
  async insertRecords(records: TaskRecord[]): Promise<Set<string>> {
    if (records.length <= 1) return new Set(records.length && (await this.insertRecord(records[0]!)) ? [records[0]!._id] : []);
    try {
      await this.tasks.insertMany(records);
      return new Set(records.map((r) => r._id));
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Another server advanced the job too: each record on its own, as it is then. (On MongoDB the
      // records before the duplicate are written already and count as not written here; a task
      // claimed among them is queued again by the sweeper when its lease expires.)
      const written = new Set<string>();
      for (const record of records) if (await this.insertRecord(record)) written.add(record._id);
      return written;
    }
  }

  /** False when the record exists already. */
  async insertRecord(record: TaskRecord): Promise<boolean> {
    try {
      await this.tasks.insertOne(record);
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // another server created it first: same id, same task
      return false;
    }
  }

  /** Writes the variables an advance carries, once. */
  async writeVariables(jobId: string, pending: PendingVariables) {
    const set = pending.set;
    if (!set) return;
    pending.set = undefined;
    await this.jobs.updateOne({ _id: jobId }, { $set: set });
  }
}
