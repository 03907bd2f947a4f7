// The store's one lifecycle: opening, backups, restores, profile switches and closing run one at a
// time, in the order asked. A restore is never queued behind another step: asked while one runs (a
// double-click, a retry after a slow answer) it is refused with a 409 naming what runs, so no two
// restores ever close, swap and reopen the same runtime (which left a runtime on a replaced file).
import { ConsoleError } from '../errors';

export interface LifecycleStep {
  /** What runs, as the operator reads it: "the restore of backup backup-…". */
  what: string;
  /** When it started, ms since the epoch. */
  since: number;
}

export class StoreLifecycle {
  /** The step that runs first, then those that wait, in order. */
  private readonly steps: (LifecycleStep & { started: boolean })[] = [];
  private tail: Promise<unknown> = Promise.resolve();

  /** The step that runs now (or is about to), if any. */
  current(): LifecycleStep | undefined {
    const [first] = this.steps;
    return first && { what: first.what, since: first.since };
  }

  /** Runs `step` once every step asked before it has ended (a profile switch, a backup, closing). */
  queue<T>(what: string, step: () => Promise<T>): Promise<T> {
    const entry = { what, since: Date.now(), started: false };
    this.steps.push(entry);
    const run = async () => {
      entry.started = true;
      entry.since = Date.now();
      try {
        return await step();
      } finally {
        this.steps.splice(this.steps.indexOf(entry), 1);
      }
    };
    const result = this.tail.then(run, run);
    // The next step waits for this one's end, whether it failed or not.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Runs `step` now, or refuses (409) naming the step that runs or waits: a restore. */
  exclusive<T>(what: string, step: () => Promise<T>): Promise<T> {
    const [busy] = this.steps;
    if (busy) {
      const seconds = Math.max(0, Math.round((Date.now() - busy.since) / 1000));
      const state = busy.started ? `is running (for ${seconds} s)` : 'is about to run';
      const more = this.steps.length > 1 ? ` (and ${this.steps.length - 1} more after it)` : '';
      return Promise.reject(new ConsoleError('conflict', `${what} is refused: ${busy.what} ${state}${more}; try again when it has ended`));
    }
    return this.queue(what, step);
  }
}
