// prevUptime as the console derives it from its readings of a process run (core/health/process-readings.ts):
// the uptime of the reading before, 0 (the run's start) at a run's first reading and where no process runs.
import { describe, expect, it } from 'vitest';
import { readUptime, type UptimeReadings } from '../../core/health/process-readings';

describe('readUptime', () => {
  it('answers the uptime of the reading before, 0 at the first', () => {
    let readings: UptimeReadings | undefined;
    const prev = (run: number | undefined, uptime: number) => (readings = readUptime(readings, run, uptime)).previous;
    expect(prev(1000, 2)).toBe(0);
    expect(prev(1000, 5)).toBe(2);
    // The same instant read twice keeps the reading before it: prevUptime stays below uptime.
    expect(prev(1000, 5)).toBe(2);
    expect(prev(1000, 9)).toBe(5);
  });

  it('starts over for a new run (a restart) and answers 0 where no process runs', () => {
    let readings = readUptime(readUptime(undefined, 1000, 2), 1000, 7);
    expect(readings.previous).toBe(2);
    readings = readUptime(readings, undefined, 0);
    expect(readings).toMatchObject({ previous: 0, last: 0 });
    expect(readUptime(readings, 2000, 0.5).previous).toBe(0);
    expect(readUptime(readUptime(undefined, 1000, 9), 3000, 12).previous).toBe(0);
  });
});
