// The store operations: the active profile's store status, and a connection test
// of any saved profile (opened apart from the running one, then closed); the embedded
// store's backups (taken online, listed, restored with the task worker stopped).
import { performance } from 'node:perf_hooks';
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { readProperties, type ProfileProperties } from '../profiles/directory';
import { openStore } from './open';
import type { Store, StoreSafety } from './port';
import type { Vault } from '../secrets/secrets';
import { storeHealth } from './ping';
import { checkedBackup, DEFAULT_BACKUP_SCHEDULE, listBackups, swapInBackup, takeBackup, type BackupInfo as StoreBackup, type BackupSchedule } from './embedded/backups';
import { listReplaced, pruneReplaced, restoreDiscards } from './embedded/restore-files';
import { restoredIdentity } from './embedded/restore-identity';
import { gatherEvidence } from './embedded/open-guard';
import type { StoreLifecycle } from './lifecycle';

type StoreHandlers = Pick<Handlers, 'store.status' | 'store.testConnection' | 'store.backups.list' | 'store.backups.take' | 'store.backups.restore'>;

/** The active profile's embedded file: its `db` folder (where backups are kept), the file and the backup schedule. */
export interface EmbeddedFile {
  folder: string;
  file: string;
  backups?: Partial<BackupSchedule>;
}

const scheduleOf = (embedded: EmbeddedFile): BackupSchedule => ({ ...DEFAULT_BACKUP_SCHEDULE, ...embedded.backups });

export interface StoreDeps {
  dataDir: string;
  /** Opens a tested profile's sealed password. */
  vault: Vault;
  /** The active profile's store. */
  store(): Store;
  /** The active profile's embedded file; undefined on MongoDB (or with no profile). */
  embeddedFile(): EmbeddedFile | undefined;
  /** Closes the active profile's runtime (its task worker first), runs `whileClosed`, and opens it again. */
  reopen(whileClosed: () => Promise<void>): Promise<void>;
  /** The one lifecycle of the store: restores and backups run in it, one at a time. */
  lifecycle: Pick<StoreLifecycle, 'queue' | 'exclusive'>;
  /** Other consoles whose heartbeat on the active store is live (a restore under them would split the data). */
  otherConsoles(): Promise<OtherConsole[]>;
  log: { info(message: string): void; warn(message: string): void };
  /** The console's version, named in each backup's manifest. */
  consoleVersion: string;
}

export interface OtherConsole {
  serverId: string;
  host: string;
  pid: number | undefined;
  heartbeatAt: number;
}

const namedConsole = (c: OtherConsole) => `server "${c.serverId}" (host ${c.host || 'unknown'}, pid ${c.pid ?? 'unknown'}, last heartbeat ${new Date(c.heartbeatAt).toISOString()})`;

export interface StoreService extends StoreDeps {
  /** Where the store is, whether it takes writes and why not, and its newest backup (the attention summary). */
  condition(): Promise<{ location: string; safety?: StoreSafety; newestBackup?: StoreBackup }>;
}

export function createStoreService(deps: StoreDeps): StoreService {
  return {
    ...deps,
    async condition() {
      const store = deps.store();
      const embedded = deps.embeddedFile();
      const safety = store.safety?.();
      // While the store takes no writes, the backup offered is the newest that passes its checks (they open each backup: not on every poll of a healthy store).
      const backups = embedded ? await listBackups(embedded.folder, { check: safety?.writable === false }) : [];
      return { location: store.location, safety, newestBackup: backups.find((b) => b.check?.state !== 'bad') };
    },
  };
}

/** The active embedded file, or the 409 naming the tool that does it on MongoDB. */
function embeddedOr409(service: StoreService, tool: 'mongodump' | 'mongorestore'): EmbeddedFile {
  const embedded = service.embeddedFile();
  if (embedded) return embedded;
  const store = service.store();
  throw new ConsoleError(
    'conflict',
    store.kind === 'mongodb'
      ? `the active profile's store is MongoDB (${store.location}): its backups are made with ${tool}, not by the console`
      : `the active profile has no embedded store to back up (${store.location})`,
  );
}

export function storeHandlers(service: StoreService): StoreHandlers {
  return {
    'store.status': async () => {
      const store = service.store();
      const health = await storeHealth(store);
      const integrity = health.connected && store.integrity ? await store.integrity() : undefined;
      const safety = store.safety?.();
      const embedded = service.embeddedFile();
      const backups = embedded ? await listBackups(embedded.folder) : undefined;
      const identity = store.identity?.();
      return {
        kind: store.kind,
        location: store.location,
        ...health,
        ...(integrity ? { integrity } : {}),
        ...(safety ? { safety } : {}),
        ...(embedded && backups ? { backups: { newest: backups[0], count: backups.length, schedule: scheduleOf(embedded) } } : {}),
        ...(identity ? { identity } : {}),
      };
    },
    'store.backups.list': async () => {
      const embedded = embeddedOr409(service, 'mongodump');
      const [backups, replaced] = await Promise.all([listBackups(embedded.folder, { check: true }), listReplaced(embedded.file)]);
      // The store they should copy: the file's identity, or (a store refused at open) what the data directory names.
      const storeId = service.store().identity?.()?.id ?? (await gatherEvidence(embedded.folder, embedded.file)).storeId;
      const listed = backups.map((backup) =>
        storeId && backup.storeId && backup.storeId !== storeId
          ? { ...backup, check: { state: 'bad' as const, reason: `store id: it is a backup of store ${backup.storeId}, this profile's store is ${storeId}` } }
          : backup,
      );
      return { file: embedded.file, ...(storeId ? { storeId } : {}), backups: listed, replaced, schedule: scheduleOf(embedded) };
    },
    'store.backups.take': async (_input, ctx) => {
      const embedded = embeddedOr409(service, 'mongodump');
      const backup = await service.lifecycle.queue('a backup', async () => {
        const safety = service.store().safety?.();
        if (safety?.state === 'stopped') throw new ConsoleError('conflict', `the embedded store is stopped, there is nothing to back up: ${safety.reason ?? ''}`);
        // A copy of a damaged or failing file pushes no earlier backup out.
        const keep = safety?.writable === false ? Number.MAX_SAFE_INTEGER : scheduleOf(embedded).keep;
        return takeBackup(embedded.file, embedded.folder, keep, service.consoleVersion);
      });
      ctx.setStatus(201);
      return backup;
    },
    'store.backups.restore': async ({ params, body }) => {
      const embedded = embeddedOr409(service, 'mongorestore');
      if (body.preview) {
        // Read only: the file as it is now against the backup; nothing is closed or changed.
        const { manifest, backup } = await checkedBackup(embedded.folder, params.id, { allowUnverified: true });
        await restoredIdentity(embedded.folder, embedded.file, service.store().identity?.(), { id: backup.id, manifest });
        return { preview: true as const, backup, file: embedded.file, ...restoreDiscards(embedded.file, backup.file) };
      }
      return service.lifecycle.exclusive(`the restore of backup ${params.id}`, async () => {
        const { manifest, backup } = await checkedBackup(embedded.folder, params.id, { allowUnverified: body.unverified === true });
        const identity = await restoredIdentity(embedded.folder, embedded.file, service.store().identity?.(), { id: backup.id, manifest });
        const others = await service.otherConsoles();
        if (others.length) {
          throw new ConsoleError(
            'conflict',
            `backup ${params.id} is not restored: another console has ${embedded.file} open, ${others.map(namedConsole).join('; ')}; stop it first (its heartbeat then ends), or the two would run on different files`,
          );
        }
        let replacedFile = '';
        await service.reopen(async () => {
          replacedFile = await swapInBackup(backup, embedded.file, identity.stamp);
        });
        const pruned = await pruneReplaced(embedded.file, scheduleOf(embedded).keep);
        const how = backup.check?.state === 'unverified' ? ', unverified (taken before manifests; restored as confirmed)' : ', verified against its manifest';
        service.log.info(`backup ${backup.id} (${backup.file}${how}) restored over ${embedded.file}; the replaced file is kept as ${replacedFile}`);
        if (pruned.length) service.log.info(`replaced files beyond the backups' retention (${scheduleOf(embedded).keep}) removed: ${pruned.join(', ')}`);
        return { restored: backup, replacedFile, file: embedded.file };
      });
    },
    'store.testConnection': async ({ params }) => {
      const profile = await readProfile(service.dataDir, params.id);
      const store = await openStore(service.dataDir, profile, { vault: service.vault });
      try {
        const started = performance.now();
        await store.ping();
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        return { ok: true, kind: store.kind, location: store.location, latencyMs };
      } catch (error) {
        return { ok: false, kind: store.kind, location: store.location, error: error instanceof Error ? error.message : String(error) };
      } finally {
        await store.close();
      }
    },
  };
}

async function readProfile(dataDir: string, id: string): Promise<ProfileProperties> {
  // The id names a folder: refuse anything that could leave the profiles directory.
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(id)) throw new ConsoleError('not_found', `profile "${id}" not found`);
  try {
    return await readProperties(dataDir, id);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') throw new ConsoleError('not_found', `profile "${id}" not found`);
    throw new ConsoleError('unprocessable', `profile "${id}" cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
