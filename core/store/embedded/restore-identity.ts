// The identity a restored file carries: the store's own (a backup restored is the same store, also
// when it was taken before backups carried a manifest), with a generation above every backup and
// record of it, so the next open does not take it for an older copy (open-guard.ts). A backup of
// another store is not restored over this one.
import { ConsoleError } from '../../errors';
import { gatherEvidence } from './open-guard';
import { readIdentity, stampIdentity, type StoreIdentity } from './identity';
import type { BackupManifest } from './manifest';
import { sqlite } from './sqlite';

export interface RestoredIdentity {
  /** The store the data directory holds, when anything names it. */
  storeId: string | undefined;
  /** Writes the identity into the copy about to replace the file. */
  stamp(copy: string): void;
}

/**
 * What the restore of a backup (its manifest, when it has one) writes into its copy; 409 when the
 * manifest names another store than the one the file (or, when it cannot be read, the data directory) holds.
 */
export async function restoredIdentity(
  folder: string,
  file: string,
  current: StoreIdentity | undefined,
  backup: { id: string; manifest?: BackupManifest },
): Promise<RestoredIdentity> {
  const evidence = await gatherEvidence(folder, file);
  const storeId = current?.id ?? evidence.storeId;
  const from = backup.manifest;
  if (from && storeId && from.storeId !== storeId) {
    throw new ConsoleError('conflict', `backup ${backup.id} fails its check, store id: it is a backup of store ${from.storeId}, and this profile's store is ${storeId}: not restored`);
  }
  const generation = Math.max(evidence.generation, current?.generation ?? 0, from?.generation ?? 0) + 1;
  return {
    storeId,
    stamp(copy: string) {
      const db = new (sqlite().DatabaseSync)(copy);
      try {
        // Without any id named (nothing of the store left), the backup's own identity is kept; one without any gets a new one at open.
        const own = readIdentity(db);
        const id = storeId ?? own?.id;
        const createdAt = current?.createdAt ?? own?.createdAt ?? evidence.createdAt ?? new Date().toISOString();
        if (id) stampIdentity(db, { id, createdAt }, generation);
      } finally {
        db.close();
      }
    },
  };
}
