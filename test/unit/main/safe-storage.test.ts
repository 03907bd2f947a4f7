// Profile secrets sealed with the OS keychain in the desktop app, readable back, and the
// key-file provider kept where the keychain is not available.
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeStorageProvider, type SafeStorageLike } from '../../../main/safe-storage';
import { createVault } from '../../../core/secrets/secrets';

// Stands in for the OS keychain: reversible, and visibly not the clear text.
const keychain: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from([...Buffer.from(plain)].map((b) => b ^ 0x5a)),
  decryptString: (sealed) => Buffer.from([...sealed].map((b) => b ^ 0x5a)).toString(),
};

describe('safeStorage provider', () => {
  it('is not used when the keychain is unavailable', () => {
    expect(safeStorageProvider({ ...keychain, isEncryptionAvailable: () => false })).toBeUndefined();
  });

  it('seals new secrets with the keychain and still reads ones sealed by the key file', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-keychain-'));
    const before = await createVault(dataDir).seal('old-password');
    const vault = createVault(dataDir, safeStorageProvider(keychain));
    const sealed = await vault.seal('s3cret');
    expect(sealed).toMatch(/^enc:v1:os-keychain:/);
    expect(sealed).not.toContain('s3cret');
    expect(await vault.open(sealed)).toBe('s3cret');
    expect(await vault.open(before)).toBe('old-password');
  });
});
