// Secrets at rest: a value is sealed into `enc:v1:<provider>:<payload>` so it is read back by
// the provider that sealed it. The default provider is AES-256-GCM with a key kept in the
// data directory (owner-only); Electron's safeStorage is given to the host by main/ and seals
// new values in its vault, and values sealed by the key file stay readable after that.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { writeFileAtomic } from '../files/atomic';
import { errorMessage, systemErrorCode } from '../errors';

export interface SecretProvider {
  /** Written into each sealed value; letters, digits and '-' only. */
  readonly name: string;
  encrypt(plain: string): Promise<string>;
  decrypt(payload: string): Promise<string>;
}

/** A secret that cannot be read: wrong key, tampered value, provider not available here. */
export class SecretError extends Error {}

const PREFIX = 'enc:v1:';
export const KEY_FILE_NAME = 'secret.key';
export const keyFile = (dataDir: string) => path.join(dataDir, KEY_FILE_NAME);

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** AES-256-GCM with a 32-byte key in `<dataDir>/secret.key` (mode 0600), created on first use. */
export function keyFileProvider(dataDir: string): SecretProvider {
  let key: Promise<Buffer> | undefined;
  const getKey = () => (key ??= loadOrCreateKey(keyFile(dataDir)).catch((error) => ((key = undefined), Promise.reject(error))));
  return {
    name: 'key-file',
    async encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await getKey(), iv);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
    },
    async decrypt(payload) {
      const raw = Buffer.from(payload, 'base64url');
      if (raw.length < 28) throw new SecretError('the sealed value is truncated');
      const decipher = createDecipheriv('aes-256-gcm', await getKey(), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      try {
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretError(`it was altered, or sealed with another key than ${keyFile(dataDir)}`);
      }
    },
  };
}

async function loadOrCreateKey(file: string): Promise<Buffer> {
  try {
    const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new SecretError(`${file} does not hold a 32-byte key`);
    // Tightening the mode is best effort (a read-only or foreign-owned file still holds a usable key).
    await fs.chmod(file, 0o600).catch(() => undefined);
    return key;
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') {
      if (error instanceof SecretError) throw error;
      throw new SecretError(`cannot read the key file ${file}: ${errorMessage(error)}`);
    }
  }
  // Created beside the target and linked in: two processes creating at once keep one key.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.new`;
  await writeFileAtomic(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    await fs.link(temp, file);
  } catch (error) {
    if (systemErrorCode(error) !== 'EEXIST') throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
  return loadOrCreateKey(file);
}

/** Seals and opens the secrets of one data directory. The host makes one and hands it down. */
export interface Vault {
  /** The value sealed by the vault's first provider. */
  seal(plain: string): Promise<string>;
  /** The clear value of a sealed secret, by the provider that sealed it; a value that is not sealed is returned as is. */
  open(stored: string): Promise<string>;
}

/**
 * The vault of a data directory: `preferred` (the OS keychain in the desktop app) seals new
 * secrets when given; the key file always opens what it sealed before.
 */
export function createVault(dataDir: string, preferred?: SecretProvider): Vault {
  const providers = preferred ? [preferred, keyFileProvider(dataDir)] : [keyFileProvider(dataDir)];
  return {
    async seal(plain) {
      const provider = providers[0]!;
      return `${PREFIX}${provider.name}:${await provider.encrypt(plain)}`;
    },
    async open(stored) {
      if (!isSealed(stored)) return stored;
      const rest = stored.slice(PREFIX.length);
      const colon = rest.indexOf(':');
      const name = colon < 0 ? '' : rest.slice(0, colon);
      const provider = providers.find((p) => p.name === name);
      if (!provider) throw new SecretError(`it was sealed by "${name || '?'}", which is not available on this console`);
      try {
        return await provider.decrypt(rest.slice(colon + 1));
      } catch (error) {
        if (error instanceof SecretError) throw error;
        throw new SecretError(`it cannot be decrypted (${errorMessage(error)})`);
      }
    },
  };
}
