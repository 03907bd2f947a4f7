// Upgrade checks run in the background (background-runs.ts) so the console can show their
// progress, within a file and a time budget, and can be canceled.
import { randomUUID } from 'node:crypto';
import type { UpgradeRun } from '../contract/upgrade';
import { scanFolder, ScanCanceled } from './scan';
import { MAX_FILES } from './walk';
import { BackgroundRuns } from './background-runs';

/** Default time budget of one check; a whole system folder (`/usr`) is cut off here, saying so. */
export const DEFAULT_MAX_SECONDS = 120;

export interface RunLimits {
  maxFiles?: number;
  maxSeconds?: number;
}

/** The folder checks of this console, each in the background (background-runs.ts). */
export class UpgradeRuns extends BackgroundRuns<UpgradeRun> {
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
    return this.keep(run, abort, finished);
  }
}
