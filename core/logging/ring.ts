// The recent entries of the log, kept in memory for the live tail of the Logs page and GET /logs
// (the file is the record). Each entry gets a sequence number, so a tail asks for what came after.
import { LEVELS, levelName, type LevelName } from './levels';

export interface LogEntry {
  seq: number;
  time: string;
  level: LevelName;
  msg: string;
  /** The ids the entry carries (job, task, adapter, request, worker...) and its other fields. */
  fields: Record<string, unknown>;
}

export interface LogQuery {
  /** Entries at this level or above. */
  level?: LevelName;
  /** Text in the message or the fields, case-insensitive. */
  text?: string;
  adapter?: string;
  job?: string;
  task?: string;
  component?: string;
  /** Entries at or after this time (ISO 8601). */
  from?: string;
  /** Entries at or before this time (ISO 8601). */
  to?: string;
  /** Only entries after this sequence number (a live tail). */
  after?: number;
  /** The newest this many of the matches. */
  limit?: number;
}

const inRange = (time: number, from: number, to: number) => time >= from && time <= to;

export class LogRing {
  private readonly entries: LogEntry[] = [];
  private seq = 0;

  constructor(readonly capacity = 5000) {}

  push(record: Record<string, unknown>) {
    const { level, time, msg, pid: _pid, hostname: _hostname, ...fields } = record;
    this.entries.push({
      seq: ++this.seq,
      time: new Date(typeof time === 'number' ? time : Date.now()).toISOString(),
      level: levelName(typeof level === 'number' ? level : LEVELS.info),
      msg: typeof msg === 'string' ? msg : '',
      fields,
    });
    // Trimmed in batches (a quarter of the capacity at a time), so a push does not move the whole buffer.
    if (this.entries.length > this.capacity + Math.ceil(this.capacity / 4)) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** The newest sequence number given out. */
  get last() {
    return this.seq;
  }

  query(query: LogQuery): { results: LogEntry[]; total: number; last: number } {
    const min = query.level ? LEVELS[query.level] : 0;
    const text = query.text?.trim().toLowerCase();
    const from = query.from === undefined ? -Infinity : Date.parse(query.from);
    const to = query.to === undefined ? Infinity : Date.parse(query.to);
    const matches = this.entries.filter(
      (entry) =>
        entry.seq > (query.after ?? 0) &&
        LEVELS[entry.level] >= min &&
        (query.adapter === undefined || entry.fields.adapter === query.adapter) &&
        (query.job === undefined || entry.fields.jobId === query.job) &&
        (query.task === undefined || entry.fields.taskId === query.task) &&
        (query.component === undefined || entry.fields.component === query.component) &&
        inRange(Date.parse(entry.time), from, to) &&
        (!text || entry.msg.toLowerCase().includes(text) || JSON.stringify(entry.fields).toLowerCase().includes(text)),
    );
    const limit = query.limit ?? 200;
    return { results: matches.slice(-limit), total: matches.length, last: this.seq };
  }
}
