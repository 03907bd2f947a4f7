// The secrets of a profile, as the one classifier (core/secrets/classify.ts) finds them: keys
// named like passwords and tokens, a password inside a URL, a password query parameter, a PEM
// private key. The API never returns them: each is replaced by SECRET_MASK, and a save that
// sends the mask back keeps the stored value. With `pathProps.encrypted: true` every one of
// them is sealed at rest (the whole value, or the secret part inside a URL or a text), and the
// backup of the previous file is sealed the same way. The service's own protected forms
// (`$ENC...`, `$SECRET_... $KEY_...`) are kept exactly as the service wrote them.
import { promises as fs } from 'node:fs';
import { SECRET_MASK } from '../contract/profiles';
import { classifyField, mapSecretsInText, MASK } from '../secrets/classify';
import { isSealed, SecretError, type Vault } from '../secrets/secrets';
import { writeJsonAtomic } from '../files/atomic';
import type { ProfileProperties } from './directory';

export const PASSWD_PATH = ['mongoProps', 'credentials', 'passwd'];

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A sealed value inside a text (a URL's password, a query parameter). */
const SEALED_IN_TEXT = /enc:v1:[A-Za-z0-9-]+:[A-Za-z0-9_-]+/g;

/** A copy of `json` with each string field changed by `change(key, value, class, path)`: the same shape, strings changed. */
function mapStrings<T>(json: T, change: (key: string, value: string, path: string[]) => string): T;
function mapStrings(json: unknown, change: (key: string, value: string, path: string[]) => string): unknown {
  // A string in a list is classified by the list's name (`"Set-Cookie": ["a=b"]`).
  const visit = (node: unknown, at: string[], key: string): unknown => {
    if (typeof node === 'string' && at.length > 0) return change(key, node, at);
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...at, String(i)], key));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, value] of Object.entries(node)) out[k] = visit(value, [...at, k], k);
    return out;
  };
  return visit(json, [], '');
}

/** A copy with every non-empty secret replaced by the mask, and the paths that were masked. */
export function maskSecrets<T>(json: T): { masked: T; paths: string[] } {
  const paths: string[] = [];
  const masked = mapStrings(json, (key, value, path) => {
    const kind = classifyField(key, value);
    if (kind === 'plain') return value;
    paths.push(path.join('.'));
    return kind === 'secret' ? SECRET_MASK : mapSecretsInText(value, () => MASK);
  });
  return { masked, paths };
}

/** The value at a path of a JSON document (object keys, array indexes); undefined where there is none. */
export const getAt = (json: unknown, at: string[]): unknown =>
  at.reduce<unknown>((node, key) => (isObject(node) ? node[key] : Array.isArray(node) ? node[Number(key)] : undefined), json);

/**
 * The stored text behind a masked text (`mongodb://u:********@new-host` after an edit of the
 * host): each mask takes the stored secret at the same place; undefined when they do not line up.
 */
function unmaskText(incoming: string, stored: unknown): string | undefined {
  if (typeof stored !== 'string') return undefined;
  const secrets: string[] = [];
  mapSecretsInText(stored, (secret) => (secrets.push(secret), secret));
  const parts = incoming.split(MASK);
  if (parts.length - 1 !== secrets.length || secrets.length === 0) return undefined;
  return parts.reduce((out, part, i) => out + part + (i < secrets.length ? secrets[i] : ''), '');
}

/**
 * Puts back, wherever the incoming document carries the mask, the value stored at the same
 * path. A mask with nothing stored behind it is dropped and reported (e.g. an exported file
 * imported elsewhere: its secrets must be set again).
 */
export function restoreMasked<T>(incoming: T, stored: unknown): { value: T; dropped: string[] } {
  const dropped: string[] = [];
  const value = mapStrings(incoming, (key, text, path) => {
    if (!text.includes(MASK)) return text;
    const previous = getAt(stored, path);
    if (text === MASK) {
      if (typeof previous === 'string' && previous !== '') return previous;
      dropped.push(path.join('.'));
      return '';
    }
    const restored = unmaskText(text, previous);
    if (restored !== undefined) return restored;
    if (classifyField(key, text) === 'plain' && !text.includes(`:${MASK}@`) && !text.includes(`=${MASK}`)) return text;
    dropped.push(path.join('.'));
    return mapSecretsInText(text, (secret) => (secret === MASK ? '' : secret)).replace(`:${MASK}@`, '@');
  });
  return { value, dropped };
}

const wantsEncryption = (profile: unknown) => getAt(profile, ['pathProps', 'encrypted']) === true;

export function secretErrorFor(profileId: string, error: unknown, field = PASSWD_PATH.join('.')): SecretError {
  const cause = error instanceof Error ? error.message : String(error);
  const what = field === PASSWD_PATH.join('.') ? 'the password' : 'it';
  return new SecretError(`profile "${profileId}": ${field} cannot be read: ${cause}. Set ${what} again.`);
}

/** Every secret of `json` sealed (whole values and the secret parts of texts), the service's own forms untouched. */
export async function sealAll<T>(vault: Vault, json: T): Promise<T> {
  const clear = new Set<string>();
  mapStrings(json, (key, value) => {
    const kind = classifyField(key, value);
    if (kind === 'secret' && !isSealed(value)) clear.add(value);
    if (kind === 'contains-secret') mapSecretsInText(value, (secret) => (isSealed(secret) || clear.add(secret), secret));
    return value;
  });
  const sealed = new Map<string, string>();
  for (const value of clear) sealed.set(value, await vault.seal(value));
  return mapStrings(json, (key, value) => {
    const kind = classifyField(key, value);
    if (kind === 'secret') return sealed.get(value) ?? value;
    if (kind === 'contains-secret') return mapSecretsInText(value, (secret) => sealed.get(secret) ?? secret);
    return value;
  });
}

/** Every value sealed by the console opened back to clear; a value that cannot be read names its field. */
export async function openAll<T>(vault: Vault, id: string, json: T): Promise<T> {
  const opened = new Map<string, { value?: string; error?: unknown; path: string }>();
  mapStrings(json, (_key, value, path) => {
    for (const sealed of value.match(SEALED_IN_TEXT) ?? []) opened.set(sealed, { path: path.join('.') });
    return value;
  });
  for (const [sealed, entry] of opened) {
    try {
      entry.value = await vault.open(sealed);
    } catch (error) {
      throw secretErrorFor(id, error, entry.path);
    }
  }
  return mapStrings(json, (_key, value) => value.replace(SEALED_IN_TEXT, (sealed) => opened.get(sealed)?.value ?? sealed));
}

/** The profile as it goes to disk: every secret sealed when `pathProps.encrypted` is true, clear otherwise. */
export async function sealForStorage(vault: Vault, profile: ProfileProperties): Promise<ProfileProperties> {
  if (wantsEncryption(profile)) return sealAll(vault, profile);
  return openAll(vault, profile.id, profile);
}

/**
 * After a save of a profile whose secrets are sealed: its backup (the previous file) gets them
 * sealed too, so no secret the live file no longer keeps in clear stays in clear beside it.
 */
export async function sealBackup(vault: Vault, profile: ProfileProperties, backupFile: string): Promise<void> {
  if (!wantsEncryption(profile)) return;
  let previous: unknown;
  try {
    previous = JSON.parse(await fs.readFile(backupFile, 'utf8'));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return;
    // A backup that is not JSON cannot be sealed field by field: it goes, rather than keep a secret in clear.
    await fs.rm(backupFile, { force: true });
    return;
  }
  const sealed = await sealAll(vault, previous);
  if (JSON.stringify(sealed) !== JSON.stringify(previous)) await writeJsonAtomic(backupFile, sealed, { mode: 0o600 });
}

/** The clear value of a profile's field for connecting: a sealed value (whole, or inside a URL) opened; undefined when empty. */
export async function openField(vault: Vault, profileId: string, field: string, value: unknown): Promise<string | undefined> {
  if (typeof value !== 'string' || value === '') return undefined;
  if (!value.match(SEALED_IN_TEXT)) return value;
  const opened = await openAll(vault, profileId, { [field]: value });
  return opened[field];
}

const openedField = (vault: Vault, profile: ProfileProperties, path: string[]) => openField(vault, profile.id, path.join('.'), getAt(profile, path));

export const profileSecrets = {
  /**
   * The database password of a profile in clear, for connecting; undefined when none is set.
   * Throws a SecretError naming the profile when a sealed password cannot be read.
   */
  passwordOf: (vault: Vault, profile: ProfileProperties) => openedField(vault, profile, PASSWD_PATH),
  /** The MongoDB URL in clear (a password inside it opened), for the driver only. */
  urlOf: (vault: Vault, profile: ProfileProperties) => openedField(vault, profile, ['mongoProps', 'url']),
  /** Whether a password is stored (the API says so without showing it). */
  isSet: (profile: unknown) => {
    const value = getAt(profile, PASSWD_PATH);
    return typeof value === 'string' && value !== '';
  },
};

export { SecretError };
