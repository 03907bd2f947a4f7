// When a crashed adapter is restarted: the delay doubles per crash in a row up to its
// ceiling, a long run starts a new series, and too many crashes in a row stop it.
import { describe, expect, it } from 'vitest';
import { afterCrash, DEFAULT_BACKOFF } from '../../core/adapters/backoff';

const backoff = { initialMs: 1000, maxMs: 5000, maxConsecutive: 4, stableMs: 60_000 };

describe('afterCrash', () => {
  it('doubles the delay per crash in a row, up to maxMs', () => {
    const delays: (number | undefined)[] = [];
    let inRow = 0;
    for (let i = 0; i < 4; i++) {
      const next = afterCrash(backoff, inRow, 10);
      inRow = next.crashesInRow;
      delays.push(next.delayMs);
    }
    expect(delays).toEqual([1000, 2000, 4000, 5000]);
  });

  it('gives up after maxConsecutive crashes in a row', () => {
    expect(afterCrash(backoff, 4, 10)).toEqual({ crashesInRow: 5 });
  });

  it('starts a new series after a process that ran stableMs', () => {
    expect(afterCrash(backoff, 4, 60_000)).toEqual({ crashesInRow: 1, delayMs: 1000 });
  });

  it('by default waits a second first and stops after ten crashes in a row', () => {
    expect(afterCrash(DEFAULT_BACKOFF, 0, 0)).toEqual({ crashesInRow: 1, delayMs: 1000 });
    expect(afterCrash(DEFAULT_BACKOFF, 9, 0).delayMs).toBe(30_000);
    expect(afterCrash(DEFAULT_BACKOFF, 10, 0).delayMs).toBeUndefined();
  });
});
