// Upgrade checks run in the background so the console can show their progress, within a file
// and a time budget, and can be canceled. The last few runs are kept in memory (a run's report
// is only useful to the operator who started it).
import { randomUUID } from 'node:crypto';
import type { UpgradeRun } from '../contract/upgrade';
import { scanFolder, ScanCanceled } from './scan';
import { MAX_FILES } from './walk';

const KEPT_RUNS = 10;
/** Default time budget of one check; a whole system folder (`/usr`) is cut off here, saying so. */
export const DEFAULT_MAX_SECONDS = 120;

export interface RunLimits {
  maxFiles?: number;
  maxSeconds?: number;
}

export class UpgradeRuns {
  private readonly runs = new Map<string, { run: UpgradeRun; abort: AbortController; finished: Promise<void> }>();

  start(folder: string, limits: RunLimits = {}): UpgradeRun {
    const maxFiles = Math.min(limits.maxFiles ?? MAX_FILES, MAX_FILES);
    const maxSeconds = limits.maxSeconds ?? DEFAULT_MAX_SECONDS;
    const run: UpgradeRun = { id: randomUUID(), path: folder, state: 'running', phase: 'listing', done: 0, total: 0, limits: { maxFiles, maxSeconds } };
    const abort = new AbortController();
    const finished = scanFolder(folder, {
      maxFiles,
      deadline: Date.now() + maxSeconds * 1000,
      signal: abort.signal,
      onListing: (found) => {
        run.done = found;
      },
      onProgress: (done, total, file) => {
        Object.assign(run, { phase: 'reading', done, total, file });
      },
    }).then(
      (report) => void Object.assign(run, { state: 'done', phase: 'finished', report, done: report.summary.filesScanned, total: report.summary.filesScanned }),
      (error: Error) =>
        void Object.assign(run, error instanceof ScanCanceled ? { state: 'canceled', phase: 'finished' } : { state: 'failed', phase: 'finished', error: error.message }),
    );
    this.runs.set(run.id, { run, abort, finished });
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - KEPT_RUNS))) {
      this.runs.get(id)?.abort.abort();
      this.runs.delete(id);
    }
    return { ...run };
  }

  get(id: string): UpgradeRun | undefined {
    const entry = this.runs.get(id);
    return entry && { ...entry.run };
  }

  /** The run once it ends, or as it stands after `ms`. */
  async settle(id: string, ms: number): Promise<UpgradeRun | undefined> {
    const entry = this.runs.get(id);
    if (!entry) return undefined;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([entry.finished, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    return { ...entry.run };
  }

  /** Cancels a running check; its state becomes `canceled`. */
  async cancel(id: string): Promise<UpgradeRun | undefined> {
    const entry = this.runs.get(id);
    if (!entry) return undefined;
    entry.abort.abort();
    await entry.finished;
    return { ...entry.run };
  }

  /** Cancels every running check (the console is closing). */
  cancelAll(): void {
    for (const entry of this.runs.values()) entry.abort.abort();
  }
}
