// Upgrade checks run in the background so the console can show their progress. The last few
// runs are kept in memory (a run's report is only useful to the operator who started it).
import { randomUUID } from 'node:crypto';
import type { UpgradeRun } from '../contract/upgrade';
import { scanFolder } from './scan';

const KEPT_RUNS = 10;

export class UpgradeRuns {
  private readonly runs = new Map<string, UpgradeRun>();

  start(folder: string): UpgradeRun {
    const run: UpgradeRun = { id: randomUUID(), path: folder, state: 'running', phase: 'listing', done: 0, total: 0 };
    this.runs.set(run.id, run);
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - KEPT_RUNS))) this.runs.delete(id);
    scanFolder(folder, {
      onListing: (found) => {
        run.done = found;
      },
      onProgress: (done, total, file) => {
        Object.assign(run, { phase: 'reading', done, total, file });
      },
    }).then(
      (report) => Object.assign(run, { state: 'done', phase: 'finished', report, done: report.summary.filesScanned, total: report.summary.filesScanned }),
      (error: Error) => Object.assign(run, { state: 'failed', phase: 'finished', error: error.message }),
    );
    return { ...run };
  }

  get(id: string): UpgradeRun | undefined {
    const run = this.runs.get(id);
    return run && { ...run };
  }
}
