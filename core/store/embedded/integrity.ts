// PRAGMA integrity_check reads the whole file (seconds with 100,000 jobs), so it
// runs in a worker thread on its own read-only connection (WAL lets it read while
// the console writes) and the console keeps answering meanwhile.
import { Worker } from 'node:worker_threads';

export interface IntegrityResult {
  ok: boolean;
  /** What SQLite reported, when not ok. */
  problems: string[];
  /** When the check ended, ms since the epoch. */
  checkedAt: number;
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => (/SQLite/.test(String(w && w.message || w)) ? undefined : emit.call(process, w, ...rest));
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emit;
try {
  const db = new DatabaseSync(workerData.file, { readOnly: true });
  db.exec('PRAGMA busy_timeout = 10000');
  const rows = db.prepare('PRAGMA integrity_check').all();
  db.close();
  parentPort.postMessage({ lines: rows.map((r) => String(Object.values(r)[0])) });
} catch (error) {
  parentPort.postMessage({ error: String(error && error.message || error) });
}`;

/** Starts the check; `stop()` ends it early (the store closing) and resolves once its connection is gone. */
export function checkIntegrity(file: string): { result: Promise<IntegrityResult>; stop(): Promise<void> } {
  const worker = new Worker(SOURCE, { eval: true, workerData: { file } });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const result = new Promise<IntegrityResult>((resolve) => {
    const done = (result: Omit<IntegrityResult, 'checkedAt'>) => {
      resolve({ ...result, checkedAt: Date.now() });
      void worker.terminate();
    };
    worker.once('message', (m: { lines?: string[]; error?: string }) => {
      if (m.error) return done({ ok: false, problems: [`the integrity check could not run on ${file}: ${m.error}`] });
      const problems = (m.lines ?? []).filter((line) => line !== 'ok');
      done({ ok: problems.length === 0, problems });
    });
    worker.once('error', (error) => done({ ok: false, problems: [`the integrity check could not run on ${file}: ${error.message}`] }));
  });
  return {
    result,
    async stop() {
      await worker.terminate();
      await exited;
    },
  };
}

/** The checks of one file: one at a time, the last result kept. */
export class IntegrityChecks {
  /** The last check's result; undefined until one has ended. */
  last: IntegrityResult | undefined;
  private running: { result: Promise<IntegrityResult>; stop(): Promise<void> } | undefined;

  constructor(private readonly file: string) {}

  /** Starts a check in the background (unless one runs); resolves with its result. */
  start(): Promise<IntegrityResult> {
    if (!this.running) {
      const check = checkIntegrity(this.file);
      this.running = check;
      void check.result.then((result) => {
        this.last = result;
        if (this.running === check) this.running = undefined;
      });
    }
    return this.running.result;
  }

  /** Ends a running check, once its connection is gone. */
  async stop() {
    await this.running?.stop();
  }
}
