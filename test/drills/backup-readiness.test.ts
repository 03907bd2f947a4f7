// The readiness check warns when the shared embedded database has no backup younger than its
// schedule (the newest of either site's counts), passes when it has one, skips on MongoDB.
import { describe, expect, it } from 'vitest';
import { backupReadiness } from '../../core/drills/backup-readiness';

const HOUR = 3_600_000;
const now = Date.parse('2026-11-26T12:00:00Z');

function site(name: string, status: Record<string, unknown>) {
  return { name, call: async <T,>() => status as T };
}
const embedded = (takenAt?: number) => ({
  kind: 'embedded',
  location: 'embedded store in /srv/shared.sqlite',
  connected: true,
  backups: { count: takenAt ? 1 : 0, schedule: { everyMinutes: 60, keep: 24 }, ...(takenAt ? { newest: { id: 'b', file: '/x', takenAt, bytes: 1 } } : {}) },
});

describe('the backup item of the drill readiness check', () => {
  it('warns, with the fix, when neither site has a backup', async () => {
    const item = await backupReadiness([site('active', embedded()), site('standby', embedded())], now);
    expect(item).toMatchObject({ id: 'backups', state: 'warn', detail: 'no backup of the embedded database on either site', fix: expect.stringContaining('POST /store/backups') });
  });

  it('warns when the newest backup is older than the schedule', async () => {
    const item = await backupReadiness([site('active', embedded(now - 3 * HOUR)), site('standby', embedded(now - 2 * HOUR))], now);
    expect(item.state).toBe('warn');
    expect(item.detail).toBe('the newest backup (on standby) is 120 min old, older than its schedule (one every 60 min)');
  });

  it('passes with a backup within the schedule on either site', async () => {
    const item = await backupReadiness([site('active', embedded(now - 30 * 60_000)), site('standby', embedded())], now);
    expect(item).toMatchObject({ state: 'pass', detail: 'the newest backup (on active) is 30 min old (one every 60 min)' });
  });

  it('is skipped on MongoDB, naming mongodump', async () => {
    const mongo = { kind: 'mongodb', location: 'MongoDB at db1:27017', connected: true };
    const item = await backupReadiness([site('active', mongo), site('standby', mongo)], now);
    expect(item).toMatchObject({ state: 'skipped', detail: expect.stringContaining('mongodump') });
  });
});
