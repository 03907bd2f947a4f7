// When a crashed adapter is restarted: after a delay that doubles per crash in a row up
// to maxMs, and not at all after maxConsecutive crashes in a row (until the operator
// starts it). A process that ran stableMs before crashing starts a new series.

export interface BackoffOptions {
  /** Delay before the first restart after a crash. */
  initialMs: number;
  /** The delay doubles per crash in a row up to this. */
  maxMs: number;
  /** Crashes in a row after which the console stops restarting the adapter. */
  maxConsecutive: number;
  /** A process that ran this long before crashing starts a new series of crashes. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000, maxConsecutive: 10, stableMs: 60_000 };

/** The crashes in a row after this one, and the delay before the next restart (none: give up). */
export function afterCrash(backoff: BackoffOptions, crashesInRow: number, ranMs: number): { crashesInRow: number; delayMs?: number } {
  const inRow = ranMs >= backoff.stableMs ? 1 : crashesInRow + 1;
  if (inRow > backoff.maxConsecutive) return { crashesInRow: inRow };
  return { crashesInRow: inRow, delayMs: Math.min(backoff.maxMs, backoff.initialMs * 2 ** (inRow - 1)) };
}
