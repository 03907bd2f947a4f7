// A console killed outright (SIGKILL) leaves no adapter process behind, and its adapters never
// held the console's token or secrets in their environment. Reads /proc: Linux only.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const hasProc = existsSync('/proc/self/stat');
if (!hasProc) console.log('orphans.test: skipped, it reads the process table from /proc (Linux only)');

function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while the table was read: it is not a child any more.
    }
  }
  return found;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
const commandOf = (pid: number) => (existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') : '');

describe('adapter processes and their console', () => {
  it.skipIf(!hasProc)('end within 2 s of a SIGKILL of the console, and never see its token', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-orphans-'));
    const console_ = spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, '--port', '0'], {
      env: { ...process.env, CONSOLE_TOKEN: 'orphan-token-4242', DB_PASSWORD: 'orphan-secret-4242' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    console_.stdout.on('data', (chunk) => (out += chunk));
    console_.stderr.resume();
    try {
      // A new profile has no adapter instance: create two from the shipped packages' samples.
      const listening = Date.now() + 60_000;
      while (!/listening on (\S+)/.test(out) && Date.now() < listening) await new Promise((r) => setTimeout(r, 100));
      const url = /listening on (\S+)/.exec(out)?.[1];
      expect(url, 'the console says where it listens').toBeTruthy();
      const api = (pathname: string, init: RequestInit = {}) =>
        fetch(url + pathname, { ...init, headers: { authorization: 'Bearer orphan-token-4242', 'content-type': 'application/json' } }).then((r) => r.json());
      for (const [pkg, name] of [['@automation/adapter-example', 'example'], ['@automation/adapter-http_request', 'http-request']]) {
        const sample = await api(`/adapter-packages/sample?package=${encodeURIComponent(pkg!)}&name=${name}`);
        await api('/adapters', { method: 'POST', body: JSON.stringify({ properties: sample.data }) });
      }
      let adapters: number[] = [];
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        adapters = childrenOf(console_.pid!).filter((pid) => commandOf(pid).includes('runner.cjs'));
        if (adapters.length >= 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(adapters.length, 'the adapter instances run, each in its own process').toBeGreaterThanOrEqual(2);
      for (const pid of adapters) {
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
        expect(environ).not.toContain('orphan-token-4242');
        expect(environ).not.toContain('orphan-secret-4242');
      }

      console_.kill('SIGKILL');
      const killedAt = Date.now();
      while (adapters.some(alive) && Date.now() - killedAt < 2_000) await new Promise((r) => setTimeout(r, 50));
      expect(adapters.filter(alive), 'adapter processes left 2 s after the console was killed').toEqual([]);
      console.log(`orphans: ${adapters.length} adapter processes ended ${Date.now() - killedAt} ms after SIGKILL of their console`);
    } finally {
      console_.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
