// Profiles: an atomic save with its backup (fsync of file and directory), the same without
// backup, the list operation over 200 profiles (read, validate, look for a legacy activate,
// mask), sealing and opening a password, and activation of another profile (runtime
// closed and opened) through the API.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeJsonAtomic } from '../core/files/atomic';
import { writeProfile } from '../core/profiles/repository';
import { writeActiveProfileId } from '../core/profiles/directory';
import { createVault } from '../core/secrets/secrets';
import { startHost } from '../core/host/host';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(what: string, n: number, fn: (i: number) => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { what, n, p50_ms: +percentile(times, 50).toFixed(3), p95_ms: +percentile(times, 95).toFixed(3), max_ms: +times.at(-1)!.toFixed(3) };
}

const sample = (id: string) => ({
  id,
  serverName: `${id}-01`,
  processTasksOnStart: true,
  mongoProps: { url: 'mongodb://db1:27017', db: 'automation', credentials: { user: 'u', passwd: 'p', dbAuth: true } },
  pathProps: { description: 'File Path Variables', sdk_dir: '/opt/apps', encrypted: false },
  vaultProps: { url: 'https://vault:8200', token: 's.x' },
});

export async function benchProfiles() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-profiles-'));
  const rows = [];
  try {
    const file = path.join(dataDir, 'single', 'properties.json');
    rows.push(await timed('atomic save + backup', 100, (i) => writeJsonAtomic(file, { ...sample('single'), i }, { backup: true })));
    rows.push(await timed('atomic save, no backup', 100, (i) => writeJsonAtomic(file, { ...sample('single'), i })));
    const vault = createVault(dataDir);
    rows.push(await timed('seal a password (AES-256-GCM)', 1000, () => vault.seal('hunter2')));
    const sealed = await vault.seal('hunter2');
    rows.push(await timed('open a sealed password', 1000, () => vault.open(sealed)));

    for (let i = 0; i < 200; i++) await writeProfile(dataDir, vault, sample(`p${String(i).padStart(3, '0')}`));
    // The active profile uses the embedded store (the 200 point at a MongoDB that is not there).
    await writeProfile(dataDir, vault, { id: 'default', processTasksOnStart: true });
    await writeActiveProfileId(dataDir, 'default');
    const host = await startHost({ dataDir, port: 0, token: 'bench' });
    const api = (url: string, method = 'GET') => fetch(host.url + url, { method, headers: { authorization: 'Bearer bench' } });
    try {
      rows.push(await timed('GET /profiles (201 profiles)', 20, async () => (await api('/profiles')).json()));
      rows.push(await timed('GET /profiles/:id', 100, async () => (await api('/profiles/p100')).json()));
      // Two embedded profiles in turn: close one runtime (engine, adapters, store), open the other.
      await writeProfile(dataDir, vault, { id: 'other', processTasksOnStart: true });
      rows.push(await timed('PUT /profiles/:id/active', 10, async (i) => (await api(`/profiles/${i % 2 ? 'default' : 'other'}/active`, 'PUT')).json()));
    } finally {
      await host.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  return rows;
}
