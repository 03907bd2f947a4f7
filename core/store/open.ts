// Opens the store of a profile: MongoDB when `mongoProps.url` is set, otherwise
// the embedded store in `<dataDir>/profiles/<id>/db/`.
import path from 'node:path';
import { profileDir, type ProfileProperties } from '../profiles/directory';
import { profileSecrets } from '../profiles/secrets';
import type { Store } from './port';
import { openEmbeddedStore } from './embedded/store';
import { openMongoStore } from './mongodb/store';
import type { MongoProps } from './mongodb/settings';

export const embeddedDir = (dataDir: string, profileId: string) => path.join(profileDir(dataDir, profileId), 'db');

export async function openStore(dataDir: string, profile: ProfileProperties, options: { timeoutMs?: number } = {}): Promise<Store> {
  const props = (profile.mongoProps ?? {}) as MongoProps;
  if (!props.url) return openEmbeddedStore(embeddedDir(dataDir, profile.id));
  // A password sealed at rest is opened here, for the driver only.
  let passwd: string | undefined;
  let url = props.url;
  let unusable: string | undefined;
  try {
    passwd = await profileSecrets.passwordOf(dataDir, profile);
    url = (await profileSecrets.urlOf(dataDir, profile)) ?? url;
  } catch (error) {
    unusable = (error as Error).message;
  }
  const credentials = props.credentials ? { ...props.credentials, passwd } : undefined;
  return openMongoStore({ ...props, url, ...(credentials ? { credentials } : {}) }, { ...options, unusable });
}
