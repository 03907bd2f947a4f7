// The readiness check's backup item: before a failover rehearsal, the shared embedded database
// has a backup younger than its schedule (each site keeps its own backups of the same file: the
// newest of either counts). Old or missing, it is a warning with the fix, not a failure: the drill
// still runs. On MongoDB it is skipped, naming the tool that makes its backups.
import type { StoreStatus } from '../contract/store';
import type { Site } from './site';

export interface BackupReadinessItem {
  id: 'backups';
  title: string;
  state: 'pass' | 'warn' | 'skipped';
  detail: string;
  fix?: string;
}

const minutes = (ms: number) => `${Math.round(ms / 60_000).toLocaleString('en-US')} min`;

export async function backupReadiness(sites: Pick<Site, 'name' | 'call'>[], now = Date.now()): Promise<BackupReadinessItem> {
  const id = 'backups';
  const title = 'A backup of the database within its schedule';
  const statuses = await Promise.all(sites.map(async (site) => ({ site, status: await site.call<StoreStatus>('GET', '/store/status') })));
  const embedded = statuses.filter(({ status }) => status.kind === 'embedded' && status.backups);
  if (embedded.length === 0) return { id, title, state: 'skipped', detail: 'the sites share a MongoDB: its backups are made with mongodump, outside the console' };
  const everyMs = Math.min(...embedded.map(({ status }) => (status.backups?.schedule.everyMinutes ?? 60) * 60_000));
  const newest = embedded
    .map(({ site, status }) => ({ site, backup: status.backups?.newest }))
    .reduce<{ site: string; takenAt: number } | undefined>((best, { site, backup }) => (backup && (!best || backup.takenAt > best.takenAt) ? { site: site.name, takenAt: backup.takenAt } : best), undefined);
  const fix = 'take a backup now (POST /store/backups, or the Store card); embeddedProps.backups sets how often one is taken';
  if (!newest) return { id, title, state: 'warn', detail: 'no backup of the embedded database on either site', fix };
  const age = now - newest.takenAt;
  if (age > everyMs) return { id, title, state: 'warn', detail: `the newest backup (on ${newest.site}) is ${minutes(age)} old, older than its schedule (one every ${minutes(everyMs)})`, fix };
  return { id, title, state: 'pass', detail: `the newest backup (on ${newest.site}) is ${minutes(age)} old (one every ${minutes(everyMs)})` };
}
