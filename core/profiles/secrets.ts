// The secrets of a profile. The API never returns them: each is replaced by SECRET_MASK,
// and a save that sends the mask back keeps the stored value. The database password
// (`mongoProps.credentials.passwd`) is sealed at rest when `pathProps.encrypted` is true.
import { isSecretKey, SECRET_MASK, URL_PASSWORD } from '../secrets/classify';
import { isSealed, openSecret, sealSecret, SecretError } from '../secrets/secrets';
import type { ProfileProperties } from './directory';

export const PASSWD_PATH = ['mongoProps', 'credentials', 'passwd'];
const MASKED_URL_PASSWORD = `:${SECRET_MASK}@`;

function maskUrlPassword(value: string): string | undefined {
  const match = URL_PASSWORD.exec(value);
  if (!match || match[2] === SECRET_MASK) return undefined;
  return value.replace(URL_PASSWORD, `$1${SECRET_MASK}$3`);
}

/** A URL sent back with its password masked gets the stored URL's password again. */
function restoreUrlPassword(value: string, previous: unknown): { value: string; dropped: boolean } {
  const stored = typeof previous === 'string' ? URL_PASSWORD.exec(previous)?.[2] : undefined;
  if (stored !== undefined && stored !== SECRET_MASK) return { value: value.replace(URL_PASSWORD, `$1${stored}$3`), dropped: false };
  return { value: value.replace(MASKED_URL_PASSWORD, '@'), dropped: true };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy with every non-empty secret replaced by the mask, and the paths that were masked. */
export function maskSecrets<T>(json: T): { masked: T; paths: string[] } {
  const paths: string[] = [];
  const visit = (node: unknown, at: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...at, String(i)]));
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (isSecretKey(key) && typeof value === 'string' && value !== '') {
          paths.push([...at, key].join('.'));
          return [key, SECRET_MASK];
        }
        const maskedUrl = typeof value === 'string' ? maskUrlPassword(value) : undefined;
        if (maskedUrl !== undefined) {
          paths.push([...at, key].join('.'));
          return [key, maskedUrl];
        }
        return [key, visit(value, [...at, key])];
      }),
    );
  };
  return { masked: visit(json, []) as T, paths };
}

const getAt = (json: unknown, at: string[]): unknown =>
  at.reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined), json);

/**
 * Puts back, wherever the incoming document carries the mask, the value stored at the same
 * path. A mask with nothing stored behind it is dropped and reported (e.g. an exported file
 * imported elsewhere: its secrets must be set again).
 */
export function restoreMasked<T>(incoming: T, stored: unknown): { value: T; dropped: string[] } {
  const dropped: string[] = [];
  const visit = (node: unknown, at: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...at, String(i)]));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      const path = [...at, key];
      if (value === SECRET_MASK && isSecretKey(key)) {
        const previous = getAt(stored, path);
        if (typeof previous === 'string' && previous !== '') out[key] = previous;
        else dropped.push(path.join('.'));
        continue;
      }
      if (typeof value === 'string' && value.includes(MASKED_URL_PASSWORD) && URL_PASSWORD.test(value)) {
        const restored = restoreUrlPassword(value, getAt(stored, path));
        if (restored.dropped) dropped.push(path.join('.'));
        out[key] = restored.value;
        continue;
      }
      out[key] = visit(value, path);
    }
    return out;
  };
  return { value: visit(incoming, []) as T, dropped };
}

function withPasswd(profile: ProfileProperties, passwd: string): ProfileProperties {
  const mongoProps = isObject(profile.mongoProps) ? profile.mongoProps : {};
  const credentials = isObject(mongoProps.credentials) ? mongoProps.credentials : {};
  return { ...profile, mongoProps: { ...mongoProps, credentials: { ...credentials, passwd } } };
}

const storedPasswd = (profile: unknown): string | undefined => {
  const value = getAt(profile, PASSWD_PATH);
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const wantsEncryption = (profile: unknown) => getAt(profile, ['pathProps', 'encrypted']) === true;

export function secretErrorFor(profileId: string, error: unknown): SecretError {
  const cause = error instanceof Error ? error.message : String(error);
  return new SecretError(`profile "${profileId}": mongoProps.credentials.passwd cannot be read: ${cause}. Set the password again.`);
}

/** The profile as it goes to disk: the password sealed when `pathProps.encrypted` is true, clear otherwise. */
export async function sealForStorage(dataDir: string, profile: ProfileProperties): Promise<ProfileProperties> {
  const passwd = storedPasswd(profile);
  if (passwd === undefined) return profile;
  if (wantsEncryption(profile)) return isSealed(passwd) ? profile : withPasswd(profile, await sealSecret(dataDir, passwd));
  if (!isSealed(passwd)) return profile;
  try {
    return withPasswd(profile, await openSecret(dataDir, passwd));
  } catch (error) {
    throw secretErrorFor(profile.id, error);
  }
}

export const profileSecrets = {
  /**
   * The database password of a profile in clear, for connecting; undefined when none is set.
   * Throws a SecretError naming the profile when a sealed password cannot be read.
   */
  async passwordOf(dataDir: string, profile: ProfileProperties): Promise<string | undefined> {
    const passwd = storedPasswd(profile);
    if (passwd === undefined) return undefined;
    try {
      return await openSecret(dataDir, passwd);
    } catch (error) {
      throw secretErrorFor(profile.id, error);
    }
  },
  /** Whether a password is stored (the API says so without showing it). */
  isSet: (profile: unknown) => storedPasswd(profile) !== undefined,
};

export { SecretError };
