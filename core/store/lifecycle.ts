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
  private running: LifecycleStep | undefined;
  private waiting = 0;
  private tail: Promise<unknown> = Promise.resolve();

  /** The step that runs now, if any. */
  current(): LifecycleStep | undefined {
    return this.running;
  }

  /** Runs `step` once every step asked before it has ended (a profile switch, a backup, closing). */
  queue<T>(what: string, step: () => Promise<T>): Promise<T> {
    this.waiting++;
    const run = async () => {
      this.waiting--;
      this.running = { what, since: Date.now() };
      try {
        return await step();
      } finally {
        this.running = undefined;
      }
    };
    const result = this.tail.then(run, run);
    // The next step waits for this one's end, whether it failed or not.
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Runs `step` now, or refuses (409) naming the step that runs or waits: a restore. */
  exclusive<T>(what: string, step: () => Promise<T>): Promise<T> {
    const busy = this.running;
    if (busy) {
      const seconds = Math.max(0, Math.round((Date.now() - busy.since) / 1000));
      return Promise.reject(new ConsoleError('conflict', `${what} is refused: ${busy.what} is running (for ${seconds} s); try again when it has ended`));
    }
    if (this.waiting > 0) return Promise.reject(new ConsoleError('conflict', `${what} is refused: ${this.waiting} store step(s) wait to run; try again when they have ended`));
    return this.queue(what, step);
  }
}
