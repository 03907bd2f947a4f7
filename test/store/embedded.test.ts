// The store contract on the embedded adapter, always.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEmbeddedStore } from '../../core/store/embedded/store';
import { storeContract } from './contract-suite';

storeContract('embedded', {
  kind: 'embedded',
  backend: async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'store-contract-'));
    return {
      open: () => openEmbeddedStore(path.join(dir, 'db')),
      dispose: () => rm(dir, { recursive: true, force: true }),
    };
  },
});
