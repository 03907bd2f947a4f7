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
//
// Asking costs the committing thread no wake-up of another thread: waking a sleeping
// thread (postMessage, Atomics.notify) took 0.1-0.5 ms of the caller's time here, asked
// every 20 ms under writes. A file's request is a flag in shared memory the thread reads
// every POLL_MS while the file is written; it wakes the thread (a message) only when the
// thread had stopped polling the file, after looks that found nothing written.
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../errors';

/** How often the thread looks at the flags of the files being written. */
const POLL_MS = 20;
/** Looks finding nothing written before the thread stops polling a file (the store asks every 20 ms while it writes, every 100 ms after). */
const IDLE_LOOKS = 8;
/** Files with a flag in shared memory at once; past them a request is a message, as for a sleeping file. */
const SLOTS = 64;
/** A file's flag: nothing written since the thread's last look, written since (a checkpoint is due), or not polled (asking wakes the thread). */
const [LOOKED, ASKED, ASLEEP] = [0, 1, 2];

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const emit = process.emitWarning;
process.emitWarning = (w, ...rest) => (/SQLite/.test(String(w && w.message || w)) ? undefined : emit.call(process, w, ...rest));
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emit;
const flags = new Int32Array(workerData.flags);
const [LOOKED, ASKED, ASLEEP] = [${LOOKED}, ${ASKED}, ${ASLEEP}];
const open = new Map();
/** The files polled, by slot, with the looks in a row that found nothing written. */
const polled = new Map();
let timer;
function checkpoint(file) {
  try {
    let db = open.get(file);
    if (!db) {
      db = new DatabaseSync(file);
      db.exec('PRAGMA busy_timeout = 0');
      open.set(file, db);
    }
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process's checkpoint) or a closing file: the next one, or SQLite's own, catches up.
  }
}
function poll() {
  for (const [slot, polling] of polled) {
    if (Atomics.exchange(flags, slot, LOOKED) === ASKED) {
      polling.idle = 0;
      checkpoint(polling.file);
    } else if (++polling.idle >= ${IDLE_LOOKS} && Atomics.compareExchange(flags, slot, LOOKED, ASLEEP) === LOOKED) {
      // Nothing written for IDLE_LOOKS looks: the file sleeps until asked (compareExchange: unless asked meanwhile).
      polled.delete(slot);
    }
  }
  if (polled.size === 0) timer = clearInterval(timer);
}
parentPort.on('message', (m) => {
  if (m.type === 'checkpoint') {
    // Looked at now: a write after this asks again.
    if (m.slot !== undefined) Atomics.store(flags, m.slot, LOOKED);
    checkpoint(m.file);
    if (m.slot !== undefined) {
      polled.set(m.slot, { file: m.file, idle: 0 });
      timer ??= setInterval(poll, ${POLL_MS});
    }
  } else if (m.type === 'forget') {
    if (m.slot !== undefined) polled.delete(m.slot);
    open.get(m.file)?.close();
    open.delete(m.file);
  }
  if (m.id !== undefined) parentPort.postMessage({ id: m.id });
});`;

// Process-wide on purpose (docs/architecture.md, Process-wide resources): one worker thread
// checkpoints every file this process writes, whatever profile opened it.
let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, () => void>();
/** Files with a checkpoint asked for by message and not yet answered: at most one queued per file. */
const pending = new Set<string>();
/** The flags the thread polls (one per file slot), and each file's slot. */
const flags = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT)).fill(ASLEEP);
const slots = new Map<string, number>();

function thread(): Worker {
  if (!worker) {
    const w = new Worker(SOURCE, { eval: true, workerData: { flags: flags.buffer } });
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
      // A new thread polls nothing yet: every file's next request is a message again.
      slots.clear();
      flags.fill(ASLEEP);
    });
    // After the listeners (adding one refs the worker again): the thread keeps the process alive only while asked something.
    w.unref();
    worker = w;
  }
  return worker;
}

function ask(message: { type: 'checkpoint' | 'forget'; file: string; slot?: number }): Promise<void> {
  const id = nextId++;
  return new Promise((resolve) => {
    const w = thread();
    waiting.set(id, resolve);
    w.ref();
    w.postMessage({ ...message, id });
  });
}

/** The slot of `file`'s flag: its own, else a free one (none free: undefined). */
function slotOf(file: string): number | undefined {
  const known = slots.get(file);
  if (known !== undefined) return known;
  const taken = new Set(slots.values());
  for (let slot = 0; slot < SLOTS; slot++) {
    if (taken.has(slot)) continue;
    slots.set(file, slot);
    return slot;
  }
  return undefined;
}

/** Asks the checkpoint thread to copy the WAL of `file` into it: a flag it reads while polling the file, else a message (no-op while one is queued). */
export function requestCheckpoint(file: string): void {
  const slot = slotOf(file);
  if (slot !== undefined && Atomics.exchange(flags, slot, ASKED) !== ASLEEP) return;
  requestByMessage(file, slot);
}

/** A checkpoint of `file` asked by message, waking the thread (no-op while one is queued); it polls the file's flag (`slot`) from then on. */
export function requestByMessage(file: string, slot = slots.get(file)): void {
  if (pending.has(file)) return;
  pending.add(file);
  void ask({ type: 'checkpoint', file, slot }).then(() => pending.delete(file));
}

/** Closes the thread's connection to `file` (before this process's own, so the WAL goes with the last one). */
export async function forgetFile(file: string): Promise<void> {
  if (!worker) return;
  const slot = slots.get(file);
  await ask({ type: 'forget', file, slot });
  if (slot !== undefined && slots.get(file) === slot) {
    slots.delete(file);
    Atomics.store(flags, slot, ASLEEP);
  }
}
