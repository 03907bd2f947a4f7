// Waiting for another writer of the file without stopping this process. SQLite's own
// busy handler sleeps on the calling thread (1, 2, 5 … 100 ms at a time): a console
// waiting for another console's write would serve no request and run no task meanwhile,
// and would sleep on long after the other's write (a millisecond or so) had ended. The
// main connection answers SQLITE_BUSY at once instead, and its callers wait here, on
// the event loop, and try again: soon at first, then after pauses doubling up to 25 ms,
// until the timeout, when the write fails naming the lock (collection.ts).
// Why pauses this long: each time the lock passes between two consoles, the one taking it
// finds its page cache and held job state stale and reads them again. Two consoles working
// one file took 3.1-4.1 s for 3,000 tasks with SQLite's sleeping wait (one of them stalled
// up to 1.7 s at a time), 6.4-9.4 s with pauses of at most 4 ms, 3.6-5.2 s with 25-100 ms,
// their longest stall 0.05-0.12 s.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '../../errors';

/** How long a write waits for another process's write before failing. */
export const BUSY_TIMEOUT_MS = 30_000;
/** The longest pause between two tries. */
const MAX_PAUSE_MS = 25;
/** Tries on the next turn of the event loop, before the pauses double from 1 ms. */
const SOON = 2;

/** SQLITE_BUSY (and its extended codes): another connection holds the write lock. */
export function isBusy(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'errcode' in error ? error.errcode : undefined;
  if (typeof code === 'number') return (code & 0xff) === 5;
  return /database is locked/.test(error.message);
}

/**
 * Waits before try `attempt` (1, 2, ...) of a write that found the file locked since
 * `since` (Date.now()); false once `timeoutMs` has passed: the caller fails instead.
 */
export async function pauseForWriter(attempt: number, since: number, timeoutMs = BUSY_TIMEOUT_MS): Promise<boolean> {
  if (Date.now() - since >= timeoutMs) return false;
  if (attempt <= SOON) await nextTurn();
  else await sleep(Math.min(2 ** (attempt - SOON - 1), MAX_PAUSE_MS));
  return true;
}

/** What a write that waited the whole busy timeout fails with. */
export function stayedLocked(file: string, timeoutMs: number, error: unknown): string {
  return `the database file ${file} stayed locked by another process for ${timeoutMs / 1000} s (${errorMessage(error)})`;
}
