// WAL checkpoints off the JavaScript thread. SQLite's automatic checkpoint runs in
// the commit that crosses its threshold, on the thread that committed: copying the
// WAL into the database file and its two fsyncs stalled one task in a hundred for
// 5-40 ms. One worker thread per process runs PRAGMA wal_checkpoint(PASSIVE) on
// its own connection to each file this process writes (PASSIVE waits for no
// reader or writer). A checkpoint only moves committed pages into the main file,
// so a crash at any point leaves the database as it was committed. The main
// connection keeps a higher automatic threshold as a bound on the WAL's size:
// under continuous writes a passive checkpoint never sees the WAL fully copied,
// which is when SQLite starts the WAL over.
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../errors';

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => (/SQLite/.test(String(w && w.message || w)) ? undefined : emit.call(process, w, ...rest));
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emit;
const open = new Map();
parentPort.on('message', (m) => {
  try {
    if (m.type === 'checkpoint') {
      let db = open.get(m.file);
      if (!db) {
        db = new DatabaseSync(m.file);
        db.exec('PRAGMA busy_timeout = 0');
        open.set(m.file, db);
      }
      db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } else if (m.type === 'forget') {
      open.get(m.file)?.close();
      open.delete(m.file);
    }
  } catch {
    // Busy (another process's checkpoint) or a closing file: the next one, or SQLite's own, catches up.
  }
  if (m.id !== undefined) parentPort.postMessage({ id: m.id });
});`;

// Process-wide on purpose (docs/architecture.md, Process-wide resources): one worker thread
// checkpoints every file this process writes, whatever profile opened it.
let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, () => void>();
/** Files with a checkpoint asked for and not yet answered: at most one queued per file. */
const pending = new Set<string>();

function thread(): Worker {
  if (!worker) {
    const w = new Worker(SOURCE, { eval: true });
    w.on('message', (m: { id: number }) => {
      waiting.get(m.id)?.();
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
    });
    // The thread failing is no failure of a write (SQLite's own checkpoints still bound the WAL), but it is said.
    w.on('error', (error) => process.emitWarning(`the WAL checkpoint thread stopped (${errorMessage(error)}); SQLite's own checkpoints keep the WAL bounded`));
    w.once('exit', () => {
      if (worker === w) worker = undefined;
      for (const done of waiting.values()) done();
      waiting.clear();
      pending.clear();
    });
    // After the listeners (adding one refs the worker again): the thread keeps the process alive only while asked something.
    w.unref();
    worker = w;
  }
  return worker;
}

function ask(message: { type: 'checkpoint' | 'forget'; file: string }): Promise<void> {
  const id = nextId++;
  return new Promise((resolve) => {
    const w = thread();
    waiting.set(id, resolve);
    w.ref();
    w.postMessage({ ...message, id });
  });
}

/** Asks the checkpoint thread to copy the WAL of `file` into it (no-op while one is queued). */
export function requestCheckpoint(file: string): void {
  if (pending.has(file)) return;
  pending.add(file);
  void ask({ type: 'checkpoint', file }).then(() => pending.delete(file));
}

/** Closes the thread's connection to `file` (before this process's own, so the WAL goes with the last one). */
export async function forgetFile(file: string): Promise<void> {
  if (!worker) return;
  await ask({ type: 'forget', file });
}
