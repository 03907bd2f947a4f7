// Opens the store a profile's runtime config names (core/profiles/runtime-config.ts): MongoDB
// when `mongoProps.url` is set, otherwise the embedded store: `<dataDir>/profiles/<id>/db/console.sqlite`,
// or the file `embeddedProps.file` names (absolute, or relative to that `db` folder), which is
// how two consoles on one machine, each with its own data directory, share one database.
import { storeConfig, type MongoStoreConfig, type StoreConfig } from '../profiles/runtime-config';
import type { ProfileProperties } from '../profiles/directory';
import { openField, PASSWD_PATH } from '../profiles/secrets';
import { createVault, type Vault } from '../secrets/secrets';
import type { Store } from './port';
import { openEmbeddedStore } from './embedded/store';
import { unavailableStore } from './unavailable';
import type { MigrationProgress } from './embedded/migrate-nedb';
import { openMongoStore } from './mongodb/store';

/** Why this runtime cannot run the embedded store (no node:sqlite), checked before the console starts. */
export { runtimeProblem } from './embedded/sqlite';
export { embeddedDir } from '../profiles/runtime-config';

/** Where opening a store says what it does (the host's logger); nothing is said when not given. */
export interface StoreOpenLog {
  info(message: string): void;
  error(message: string): void;
}

export interface OpenStoreOptions {
  timeoutMs?: number;
  /** Progress of converting a profile's store from the previous embedded format (logged when not given). */
  onProgress?: (progress: MigrationProgress) => void;
  /** Opens a sealed database password (the host's vault; the data directory's key file when not given). */
  vault?: Vault;
  log?: StoreOpenLog;
  /** The console's version, named in the manifests of the embedded store's backups. */
  consoleVersion?: string;
}

/** Opens the store of a saved profile (a connection test, a tool): its store as the runtime config reads it. */
export async function openStore(dataDir: string, profile: ProfileProperties, options: OpenStoreOptions = {}): Promise<Store> {
  return openConfiguredStore(storeConfig(profile, dataDir), profile.id, { ...options, vault: options.vault ?? createVault(dataDir) });
}

/** Opens the store `config` names for profile `profileId`; a store that cannot open is an unavailable store naming why. */
export async function openConfiguredStore(config: StoreConfig, profileId: string, options: OpenStoreOptions & { vault: Vault }): Promise<Store> {
  const log = options.log;
  if (config.kind === 'none') return unavailableStore('embedded', 'no store (no profile is active)', config.reason);
  if (config.kind === 'mongo') return openMongo(config, profileId, options);
  const onProgress = options.onProgress ?? ((p: MigrationProgress) => log?.info(`[store] profile ${profileId}: ${p.message}`));
  try {
    return await openEmbeddedStore(config.folder, { file: config.file, onProgress, log: log && { error: log.error, info: log.info }, backups: config.backups ?? {}, consoleVersion: options.consoleVersion });
  } catch (error) {
    // As with an unreachable MongoDB, the console starts and its store calls name the cause.
    const cause = error instanceof Error ? error.message : String(error);
    log?.error(`[store] profile ${profileId}: ${cause}`);
    return unavailableStore('embedded', `embedded store in ${config.file}`, cause, { stopped: true });
  }
}

async function openMongo(config: MongoStoreConfig, profileId: string, options: OpenStoreOptions & { vault: Vault }): Promise<Store> {
  // A password sealed at rest is opened here, for the driver only.
  let passwd: string | undefined;
  let url = config.url;
  let unusable: string | undefined;
  try {
    passwd = await openField(options.vault, profileId, PASSWD_PATH.join('.'), config.credentials.passwd);
    url = (await openField(options.vault, profileId, 'mongoProps.url', config.url)) ?? url;
  } catch (error) {
    unusable = error instanceof Error ? error.message : String(error);
  }
  const props = { url, db: config.db, credentials: { ...config.credentials, passwd }, ssl: config.tls };
  return openMongoStore(props, { timeoutMs: options.timeoutMs, unusable });
}
