// Operations of the console's log: the recent entries (the live tail of the Logs page), filtered
// by level, text, adapter, job, task, component and time range. The log file under the data directory is the full record.
import { z } from 'zod';
import { defineOperations } from './operation';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export const LogLevel = z.enum(LOG_LEVELS);

export const LogEntry = z.object({
  /** Grows by one per entry: ask for `after` the last one seen to follow the log. */
  seq: z.number().int(),
  time: z.string(),
  level: LogLevel,
  msg: z.string(),
  /** The ids the entry carries (jobId, taskId, adapter, reqId, workerId...) and its other fields; secrets masked. */
  fields: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.infer<typeof LogEntry>;

const Instant = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 date and time with its zone, e.g. 2026-11-28T00:54:01Z' });

export const LogsQuery = z
  .object({
    level: LogLevel.optional().describe('entries at this level or above'),
    text: z.string().max(200).optional(),
    adapter: z.string().min(1).optional(),
    job: z.string().min(1).optional(),
    task: z.string().min(1).optional().describe("entries of this task (its id in the workflow, the entry's taskId)"),
    component: z.string().min(1).max(100).optional().describe('entries of this part of the console (http, jobs, worker, adapters, store...)'),
    from: Instant.optional().describe('entries at or after this time'),
    to: Instant.optional().describe('entries at or before this time'),
    after: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(200),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), { message: 'must not be before from', path: ['to'] });
export type LogsQuery = z.infer<typeof LogsQuery>;

export const LogsAnswer = z.object({
  results: z.array(LogEntry),
  /** Entries that match, before the limit. */
  total: z.number().int(),
  /** The newest sequence number: the `after` of the next poll. */
  last: z.number().int(),
  /** The file the log is written to (rotated by size beside it). */
  file: z.string(),
});
export type LogsAnswer = z.infer<typeof LogsAnswer>;

export const logsOperations = defineOperations({
  'logs.list': {
    method: 'GET',
    path: '/logs',
    summary: 'Recent entries of the console log (requests, jobs, tasks, adapters, the task worker, the store), newest last',
    query: LogsQuery,
    output: LogsAnswer,
  },
});
