// Scheduled backups of the embedded store (embeddedProps.backups): one whenever the newest is
// older than the schedule, the newest `keep` kept. The interval timer is faked; the backups are real.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openEmbeddedStore } from '../../core/store/embedded/store';
import { listBackups } from '../../core/store/embedded/backups';

afterEach(() => {
  vi.useRealTimers();
});

describe('scheduled backups', () => {
  it('takes one when the newest is older than the schedule and keeps the newest `keep`', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'console-scheduled-'));
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const logged: string[] = [];
    const store = await openEmbeddedStore(dir, { backups: { everyMinutes: 1, keep: 2 }, log: { info: (m) => logged.push(m), error: (m) => logged.push(m) } });
    try {
      await store.collection('jobs').insertOne({ name: 'kept' });
      expect(await listBackups(dir)).toEqual([]);
      for (let n = 1; n <= 3; n++) {
        vi.advanceTimersByTime(60_000);
        await vi.waitFor(async () => expect(logged.filter((m) => m.includes('scheduled backup'))).toHaveLength(n), { timeout: 10_000 });
      }
      const backups = await listBackups(dir);
      expect(backups).toHaveLength(2);
      expect(logged.at(-1)).toMatch(/^\[store\] scheduled backup backup-\S+ of .*console\.sqlite taken \(\d+ bytes\)$/);
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
