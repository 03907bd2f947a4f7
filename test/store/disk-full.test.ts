// Disk full, one story: a store whose writes fail stays failing until writes have succeeded for a
// while (a probe that fits while the next task does not no longer flips it every two seconds), the
// failure is logged once per cause and minute across such flips, and a file write the disk refuses
// anywhere (a profile save, a backup) answers 503 naming the cause, not 500.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WriteHealth } from '../../core/store/embedded/write-health';
import { errorBody } from '../../core/dispatch/dispatch';
import { PauseLog } from '../../core/engine/worker/pause-log';

afterEach(() => {
  vi.useRealTimers();
});

const diskFull = () => new Error('database or disk is full');

describe('the store on a full disk', () => {
  it('stays write-failing while writes flip between failing and succeeding, and logs the cause once a minute', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const logged: string[] = [];
    let probeFits = true;
    const health = new WriteHealth('/data/console.sqlite', { error: (m) => logged.push(`error ${m}`), info: (m) => logged.push(`info ${m}`) }, () => {
      if (!probeFits) throw diskFull();
    });
    // 14 s of a task write failing after every successful probe (the reported flapping).
    for (let second = 0; second < 14; second += 2) {
      expect(health.failed(diskFull())).toMatchObject({ statusCode: 503 });
      vi.advanceTimersByTime(2_000);
      expect(health.safety()).toMatchObject({ state: 'write-failing', writable: false, reason: expect.stringContaining('the disk is full') });
    }
    expect(logged.filter((l) => l.startsWith('error'))).toHaveLength(1);
    expect(logged.filter((l) => l.startsWith('info'))).toHaveLength(0);

    // Writes succeed for two probe intervals: the failure is over, said once.
    vi.advanceTimersByTime(4_100);
    expect(health.safety()).toEqual({ state: 'ok', writable: true });
    expect(logged.filter((l) => l.startsWith('info'))).toHaveLength(1);
    // Failing again within the minute: red again, not logged again.
    health.failed(diskFull());
    expect(health.safety().writable).toBe(false);
    expect(logged.filter((l) => l.startsWith('error'))).toHaveLength(1);
    probeFits = false;
    vi.advanceTimersByTime(61_000);
    expect(logged.filter((l) => l.startsWith('error'))).toHaveLength(2);
    health.stopProbe();
  });
});

describe('a file write the disk refuses', () => {
  it('answers 503 naming the cause, whatever wrote it', () => {
    const error = Object.assign(new Error("ENOSPC: no space left on device, write '/data/profiles/p/properties.json'"), { code: 'ENOSPC' });
    expect(errorBody(error)).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: "the disk is full: ENOSPC: no space left on device, write '/data/profiles/p/properties.json'",
    });
    expect(errorBody(Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' })).statusCode).toBe(503);
    expect(errorBody(new Error('a bug')).statusCode).toBe(500);
  });
});

describe("the task worker's pause line", () => {
  it('is said once per cause and minute while the store flips, and resumed once after it', () => {
    const pause = new PauseLog();
    const cause = 'write-failing: writes fail: the disk is full (database or disk is full)';
    const said: (string | undefined)[] = [];
    for (let t = 0; t < 14_000; t += 1_000) said.push(pause.update(t % 2000 === 0 ? cause : undefined, t));
    expect(said.filter(Boolean)).toEqual(['paused', 'resumed']);
    expect(pause.update(cause, 75_000)).toBe('paused');
  });
});
