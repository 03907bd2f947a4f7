// Opens the store of a profile: MongoDB when `mongoProps.url` is set, otherwise
// the embedded store: `<dataDir>/profiles/<id>/db/console.sqlite`, or the file
// `embeddedProps.file` names (absolute, or relative to that `db` folder), which is
// how two consoles on one machine, each with its own data directory, share one database.
import path from 'node:path';
import { profileDir, type ProfileProperties } from '../profiles/directory';
import { profileSecrets } from '../profiles/secrets';
import { createVault, type Vault } from '../secrets/secrets';
import type { Store } from './port';
import { openEmbeddedStore } from './embedded/store';
import { unavailableStore } from './unavailable';
import type { MigrationProgress } from './embedded/migrate-nedb';
import { openMongoStore } from './mongodb/store';
import type { MongoProps } from './mongodb/settings';

/** Why this runtime cannot run the embedded store (no node:sqlite), checked before the console starts. */
export { runtimeProblem } from './embedded/sqlite';

export const embeddedDir = (dataDir: string, profileId: string) => path.join(profileDir(dataDir, profileId), 'db');

export interface EmbeddedProps {
  /** The SQLite database file of the embedded store. */
  file?: string;
}

export interface OpenStoreOptions {
  timeoutMs?: number;
  /** Progress of converting a profile's store from the previous embedded format (logged when not given). */
  onProgress?: (progress: MigrationProgress) => void;
  /** Opens a sealed database password (the host's vault; the data directory's key file when not given). */
  vault?: Vault;
}

const logProgress = (profileId: string) => (p: MigrationProgress) => console.info(`[store] profile ${profileId}: ${p.message}`);

export async function openStore(dataDir: string, profile: ProfileProperties, options: OpenStoreOptions = {}): Promise<Store> {
  const props = (profile.mongoProps ?? {}) as MongoProps;
  if (!props.url) {
    const embedded = (profile.embeddedProps ?? {}) as EmbeddedProps;
    const file = typeof embedded.file === 'string' && embedded.file.trim() ? embedded.file : undefined;
    const dir = embeddedDir(dataDir, profile.id);
    try {
      return await openEmbeddedStore(dir, { file, onProgress: options.onProgress ?? logProgress(profile.id) });
    } catch (error) {
      // As with an unreachable MongoDB, the console starts and its store calls name the cause.
      const cause = (error as Error).message;
      console.error(`[store] profile ${profile.id}: ${cause}`);
      return unavailableStore('embedded', `embedded store in ${file ? path.resolve(dir, file) : path.join(dir, 'console.sqlite')}`, cause);
    }
  }
  // A password sealed at rest is opened here, for the driver only.
  let passwd: string | undefined;
  let url = props.url;
  let unusable: string | undefined;
  try {
    const vault = options.vault ?? createVault(dataDir);
    passwd = await profileSecrets.passwordOf(vault, profile);
    url = (await profileSecrets.urlOf(vault, profile)) ?? url;
  } catch (error) {
    unusable = (error as Error).message;
  }
  const credentials = props.credentials ? { ...props.credentials, passwd } : undefined;
  return openMongoStore({ ...props, url, ...(credentials ? { credentials } : {}) }, { ...options, unusable });
}
