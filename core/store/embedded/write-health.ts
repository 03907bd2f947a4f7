// Whether the embedded file can be written now, and why not: read-only after a failed
// PRAGMA quick_check at open, or the last write failed (disk full, a read-only file, an I/O
// error). A failure is logged once per cause and minute, not per request, even when writes succeed
// in between; the store's status, the attention summary, the health status and the task worker
// all read it (`Store.safety`), so they say the same. While writes fail, a small probe write is tried
// every few seconds; the store turns writable again by itself once writes have succeeded, with no
// failure, for two probe intervals (a nearly full disk that takes the probe but not the next task
// does not flip the store, and the worker with it, every two seconds).
import { StoreError } from '../errors';
import type { StoreSafety } from '../port';

/** What SQLite (or the file system) says when the file cannot take a write. */
const WRITE_FAILURES: { pattern: RegExp; cause: string }[] = [
  { pattern: /database or disk is full|SQLITE_FULL|ENOSPC/i, cause: 'the disk is full' },
  { pattern: /readonly database|read-only|SQLITE_READONLY|EROFS|EACCES|EPERM/i, cause: 'the file cannot be written (read-only)' },
  { pattern: /disk I\/O error|SQLITE_IOERR|EIO/i, cause: 'an I/O error' },
  { pattern: /unable to open database file|SQLITE_CANTOPEN/i, cause: 'the file cannot be opened for writing' },
];

const LOG_EVERY_MS = 60_000;
const PROBE_MS = 2_000;
/** How long writes must succeed, with no failure, before a failure is over. */
const RECOVER_MS = 2 * PROBE_MS;

export interface WriteHealthLog {
  error(message: string): void;
  info(message: string): void;
}

export class WriteHealth {
  /** Set when the check at open failed: nothing is written until the file is restored. */
  private readOnly: { reason: string; since: number } | undefined;
  private failure: { cause: string; message: string; since: number; okSince?: number } | undefined;
  private readonly logged = new Map<string, number>();
  private probe: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly log: WriteHealthLog | undefined,
    /** Tries one small write; throws when the file cannot take it. */
    private readonly probeWrite: () => void,
  ) {}

  /** Refuses every write from now on, naming the check that failed. */
  setReadOnly(reason: string) {
    this.readOnly = { reason, since: Date.now() };
    this.log?.error(`[store] ${this.file} is read-only: ${reason}`);
  }

  /** The 503 a write gets while the store is read-only, or undefined. */
  refusal(): StoreError | undefined {
    if (!this.readOnly) return undefined;
    return new StoreError('damaged', `the embedded store ${this.file} is read-only: ${this.readOnly.reason}; nothing is written until the file is restored (POST /store/backups/:id/restore)`);
  }

  /**
   * A write failed: when the file cannot take writes, the store turns red with the cause and the
   * error answered is a 503 naming it; other errors (a duplicate key...) pass as they are.
   */
  failed(error: unknown): unknown {
    if (error instanceof StoreError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const known = WRITE_FAILURES.find((f) => f.pattern.test(message));
    if (!known) return error;
    const since = this.failure?.cause === known.cause ? this.failure.since : Date.now();
    // A failure while recovering starts the recovery over.
    this.failure = { cause: known.cause, message, since };
    const last = this.logged.get(known.cause) ?? 0;
    if (Date.now() - last >= LOG_EVERY_MS) {
      this.logged.set(known.cause, Date.now());
      this.log?.error(`[store] writes to ${this.file} fail: ${known.cause} (${message}); the task worker pauses until a write succeeds (logged once a minute while it lasts)`);
    }
    this.startProbe();
    return new StoreError('unreachable', `the embedded store ${this.file} cannot be written: ${known.cause} (${message})`);
  }

  /** A write was committed: a failure is over once writes have succeeded, with no failure, for RECOVER_MS. */
  succeeded(now = Date.now()) {
    if (!this.failure) return;
    this.failure.okSince ??= now;
    if (now - this.failure.okSince < RECOVER_MS) return;
    this.log?.info(`[store] writes to ${this.file} succeed again (they failed since ${new Date(this.failure.since).toISOString()}: ${this.failure.cause})`);
    // `logged` is kept: a cause that comes back within the minute is not logged again.
    this.failure = undefined;
    this.stopProbe();
  }

  safety(): StoreSafety {
    if (this.readOnly) return { state: 'read-only', writable: false, reason: this.readOnly.reason, since: this.readOnly.since };
    if (this.failure) return { state: 'write-failing', writable: false, reason: `writes fail: ${this.failure.cause} (${this.failure.message})`, since: this.failure.since };
    return { state: 'ok', writable: true };
  }

  private startProbe() {
    if (this.probe || this.readOnly) return;
    this.probe = setInterval(() => {
      try {
        this.probeWrite();
        this.succeeded();
      } catch (error) {
        this.failed(error);
      }
    }, PROBE_MS);
    this.probe.unref();
  }

  stopProbe() {
    clearInterval(this.probe);
    this.probe = undefined;
  }
}
