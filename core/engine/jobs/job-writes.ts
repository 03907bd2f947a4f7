// The executor's writes of task records. Records have deterministic ids, so one
// another server wrote first is skipped, not written twice.
import type { Collection } from '../../store/port';
import { isDuplicateKey } from '../../store/errors';
import type { TaskRecord } from '../queue/queue';
import { isBoundary } from './records';

export class JobWrites {
  constructor(private readonly tasks: Collection<TaskRecord>) {}

  /**
   * The ids of the records written, in order, in one call; a record that exists already is not.
   * workflow_start's is the job document's (records.ts withBoundaries): written with the job.
   */
  async insertRecords(given: TaskRecord[]): Promise<Set<string>> {
    const stored = given.filter((r) => !isBoundary(r));
    const written = new Set<string>();
    const [only] = stored;
    if (stored.length > 1) for (const id of await this.insertStored(stored)) written.add(id);
    else if (only && (await this.insertRecord(only))) written.add(only._id);
    for (const r of given) if (isBoundary(r)) written.add(r._id);
    return written;
  }

  private async insertStored(records: TaskRecord[]): Promise<Set<string>> {
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
}
