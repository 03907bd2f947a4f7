// Secrets of profiles sealed with the operating system's keychain (Electron's safeStorage)
// where it is available; otherwise the core keeps its key-file provider.
import type { SecretProvider } from '../core/secrets/secrets';

export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(sealed: Buffer): string;
}

export function safeStorageProvider(safeStorage: SafeStorageLike): SecretProvider | undefined {
  // Only a plain true: anything else is no keychain to seal secrets with.
  if (safeStorage.isEncryptionAvailable() !== true) return undefined;
  return {
    name: 'os-keychain',
    async encrypt(plain) {
      return safeStorage.encryptString(plain).toString('base64url');
    },
    async decrypt(payload) {
      return safeStorage.decryptString(Buffer.from(payload, 'base64url'));
    },
  };
}
