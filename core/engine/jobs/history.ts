// A job's history (collection `job_history`, read by job id in time order through the
// index the workflow engine declares, `jobId_1_timestamp_1`): what happened to a job
// besides its task runs, such as a start that a server left unfinished and another
// server's recovery finished or failed. The Job page lists it.
import { randomBytes } from 'node:crypto';
import type { Store } from '../../store/port';

export const JOB_HISTORY = 'job_history';

export interface JobHistoryEntry {
  _id: string;
  jobId: string;
  /** When it happened (ms since the epoch). */
  timestamp: number;
  /** What happened, for filters: `start-recovered`, `start-failed`. */
  event: string;
  /** What happened, for people. */
  message: string;
  /** The server (console) that wrote it. */
  serverId?: string;
  [field: string]: unknown;
}

/** An entry of a job's history written by a decision (an operator's action): its id is made from what it records, so writing it twice writes it once. */
export interface HistoryWrite {
  kind: 'history';
  entry: JobHistoryEntry;
}

export async function addJobHistory(
  store: Store,
  entry: { jobId: string; event: string; message: string; serverId?: string; timestamp?: number; [field: string]: unknown },
): Promise<JobHistoryEntry> {
  const doc: JobHistoryEntry = { _id: randomBytes(12).toString('hex'), ...entry, timestamp: entry.timestamp ?? Date.now() };
  await store.collection<JobHistoryEntry>(JOB_HISTORY).insertOne(doc);
  return doc;
}

/** The job's history, oldest first (at most `limit` entries). */
export function readJobHistory(store: Store, jobId: string, limit = 200): Promise<JobHistoryEntry[]> {
  return store.collection<JobHistoryEntry>(JOB_HISTORY).find({ jobId }, { sort: { timestamp: 1 }, limit });
}
