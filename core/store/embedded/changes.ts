// Which documents changed since a caller last looked, without reading them: for a
// collection asked to be tracked by one of its fields (the job runner: `tasks` by
// `jobId`, `jobs` by `_id`), this connection counts the writes to each value of
// that field, and SQLite's `PRAGMA data_version` says whether another connection
// (another console process on the file) committed anything at all. A version is
// the two together: equal versions mean nothing of those documents was written.
// A write whose documents are not seen one by one (a delete) moves every version.

import { toWellFormed } from './codec';

/** The most values counted per collection; past it the counts start again (every version moves). */
const COUNTED_LIMIT = 20_000;

interface Tracked {
  field: string;
  counts: Map<string, number>;
}

export class ChangeCounts {
  private readonly tracked = new Map<string, Tracked>();
  /** Moves when a tracked collection had a write whose documents were not each seen. */
  private epoch = 0;

  track(collection: string, field: string) {
    const existing = this.tracked.get(collection);
    if (existing && existing.field !== field) throw new Error(`collection ${collection} is tracked by ${existing.field} already, not ${field}`);
    if (!existing) this.tracked.set(collection, { field, counts: new Map() });
  }

  isTracked(collection: string): boolean {
    return this.tracked.has(collection);
  }

  /** A document of `collection` was written (inserted, or updated: before and after). */
  wrote(collection: string, doc: Record<string, unknown> | undefined) {
    const tracked = this.tracked.get(collection);
    if (!tracked || !doc) return;
    this.count(tracked, doc[tracked.field]);
  }

  /** A document was inserted into `collection` under `id` (its `_id`, given or made): no copy of it made to read the field. */
  inserted(collection: string, doc: Record<string, unknown>, id: string) {
    const tracked = this.tracked.get(collection);
    if (tracked) this.count(tracked, tracked.field === '_id' ? id : doc[tracked.field]);
  }

  private count(tracked: Tracked, given: unknown) {
    if (typeof given !== 'string') return;
    // A document read from its text holds a lone surrogate as U+FFFD (codec.ts): counted so whatever wrote it.
    const value = toWellFormed(given);
    if (tracked.counts.size >= COUNTED_LIMIT && !tracked.counts.has(value)) {
      tracked.counts.clear();
      this.epoch++;
    }
    tracked.counts.set(value, (tracked.counts.get(value) ?? 0) + 1);
  }

  /** Documents of `collection` were written and not seen (a delete): every version moves. */
  wroteUnseen(collection: string) {
    if (this.tracked.has(collection)) this.epoch++;
  }

  /** This connection's part of a version: undefined when the collection is not tracked. */
  local(collection: string, value: string): string | undefined {
    const tracked = this.tracked.get(collection);
    if (!tracked) return undefined;
    return `${this.epoch}.${tracked.counts.get(toWellFormed(value)) ?? 0}`;
  }
}
