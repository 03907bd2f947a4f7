// What the API shows of a profile: the service's `{ metadata, profile }` entry, secrets masked,
// and the warnings an operator must see (a legacy `activate`, an unreadable secret, a bad file).
import type { ProfileEntry } from '../contract/profiles';
import { isSealed, type Vault } from '../secrets/secrets';
import { sdkDirWarnings } from '../secrets/sdk-dir';
import { isServiceProtected } from '../secrets/classify';
import { findLegacyActivate, legacyActivateWarnings } from './legacy-activate';
import type { StoredProfile } from './repository';
import { getAt, maskSecrets, PASSWD_PATH, profileSecrets, secretErrorFor } from './secrets';

export async function toEntry(dataDir: string, vault: Vault, stored: StoredProfile, activeId: string | undefined): Promise<ProfileEntry> {
  const { json } = stored;
  const warnings: string[] = [];
  if (stored.problem) warnings.push(stored.problem);
  const legacyActivate = findLegacyActivate(json);
  warnings.push(...legacyActivateWarnings(json, legacyActivate));
  const passwd = getAt(json, PASSWD_PATH);
  if (isSealed(passwd)) {
    try {
      await vault.open(passwd);
    } catch (error) {
      warnings.push(secretErrorFor(stored.id, error).message);
    }
  }
  if (typeof passwd === 'string' && isServiceProtected(passwd)) {
    warnings.push(
      'mongoProps.credentials.passwd is kept in the service\'s own protected form ($ENC or $SECRET_): the service reads it, the console cannot; to connect from the console, set the password here in a profile of its own',
    );
  }
  // A stored file, read as it is (it may not follow the model): the runtime reads sdk_dir from its config.
  warnings.push(...(await sdkDirWarnings(dataDir, getAt(json, ['pathProps', 'sdk_dir']))));
  const { masked, paths } = maskSecrets(json);
  return {
    metadata: {
      isActive: stored.id === activeId,
      passwdSet: profileSecrets.isSet(json),
      maskedFields: paths,
      warnings,
      legacyActivate,
    },
    profile: { ...masked, id: stored.id },
  };
}

export { PASSWD_PATH };
