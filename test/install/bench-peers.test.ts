// The bench's peers (plainjob, liteque, better-sqlite3: a native build) are not in the project's
// install: `npm run bench` installs them on first use into a cache folder outside the clone,
// saying so, and a failed install skips their rounds with the reason instead of failing the bench.
// npm is stood in for by a script, so these tests neither reach a registry nor compile anything.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPeers, missingPeers, PEER_VERSIONS, peersDir } from '../../bench/peers';

const ROOT = path.resolve(import.meta.dirname, '../..');
const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function temp(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-peers-'));
  temps.push(dir);
  return dir;
}

/** A stand-in for npm: records its arguments, then fails with `exitCode` or writes each name@version asked for as a tiny package. */
async function fakeNpm(exitCode: number): Promise<{ command: string[]; calls: () => Promise<string[][]> }> {
  const dir = await temp();
  const script = path.join(dir, 'npm.mjs');
  const record = path.join(dir, 'calls.jsonl');
  await writeFile(
    script,
    `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(record)}, JSON.stringify(args) + '\\n');
if (${exitCode} !== 0) process.exit(${exitCode});
const prefix = args[args.indexOf('--prefix') + 1];
for (const spec of args.filter((a) => /^[a-z].*@\\d/.test(a))) {
  const at = spec.lastIndexOf('@');
  const name = spec.slice(0, at);
  const dir = path.join(prefix, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  const esm = name !== 'better-sqlite3';
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: spec.slice(at + 1), main: 'index.js', ...(esm ? { type: 'module' } : {}) }));
  writeFileSync(path.join(dir, 'index.js'), esm ? 'export const fake = ' + JSON.stringify(name) + ';' : 'module.exports = class { close() {} };');
}
`,
  );
  return {
    command: [process.execPath, script],
    calls: async () =>
      (await readFile(record, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]),
  };
}

describe('the bench peers', () => {
  it('are not in the project install: no package.json dependency, nothing of them in the lockfile', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    for (const name of Object.keys(PEER_VERSIONS)) {
      expect(pkg.dependencies?.[name], name).toBeUndefined();
      expect(pkg.devDependencies?.[name], name).toBeUndefined();
      expect(Object.keys(lock.packages).filter((key) => key.endsWith(`node_modules/${name}`)), name).toEqual([]);
    }
  });

  it('live in a cache folder outside the clone: BENCH_PEERS_DIR, else $XDG_CACHE_HOME or ~/.cache', () => {
    expect(peersDir({ BENCH_PEERS_DIR: '/opt/peers' })).toBe(path.resolve('/opt/peers'));
    expect(peersDir({ XDG_CACHE_HOME: '/var/cache/me' })).toBe(path.join('/var/cache/me', 'automation-console-bench'));
    expect(peersDir({})).toBe(path.join(os.homedir(), '.cache', 'automation-console-bench'));
    expect(path.relative(ROOT, peersDir({})).startsWith('..')).toBe(true);
  });

  it('are installed on first use at their pinned versions, saying where, and loaded from there without npm afterwards', async () => {
    const dir = path.join(await temp(), 'cache');
    const npm = await fakeNpm(0);
    const lines: string[] = [];
    const first = await loadPeers({ dir, npm: npm.command, log: (line) => lines.push(line) });
    expect(first).not.toHaveProperty('unavailable');
    expect((first as unknown as { plainjob: { fake: string } }).plainjob.fake).toBe('plainjob');
    expect((first as unknown as { liteque: { fake: string } }).liteque.fake).toBe('liteque');
    expect(lines).toEqual([expect.stringContaining(`bench: installing plainjob@0.0.14, liteque@0.8.0, better-sqlite3@13.2.0 into ${dir} (first use`)]);
    expect(await npm.calls()).toEqual([['install', '--prefix', dir, '--no-audit', '--no-fund', 'plainjob@0.0.14', 'liteque@0.8.0', 'better-sqlite3@13.2.0']]);
    expect(missingPeers(dir)).toEqual([]);

    const again = await loadPeers({ dir, npm: npm.command, log: (line) => lines.push(line) });
    expect(again).not.toHaveProperty('unavailable');
    expect(await npm.calls()).toHaveLength(1);
    expect(lines).toHaveLength(1);
  });

  it('installs again only the one whose version differs from the pinned one', async () => {
    const dir = path.join(await temp(), 'cache');
    const npm = await fakeNpm(0);
    await loadPeers({ dir, npm: npm.command, log: () => undefined });
    await writeFile(path.join(dir, 'node_modules', 'liteque', 'package.json'), JSON.stringify({ name: 'liteque', version: '0.7.0', main: 'index.js', type: 'module' }));
    expect(missingPeers(dir)).toEqual(['liteque']);
    await loadPeers({ dir, npm: npm.command, log: () => undefined });
    expect((await npm.calls())[1]?.slice(-1)).toEqual(['liteque@0.8.0']);
  });

  it('a failed install (no compiler, no headers) makes them unavailable with the reason, not a failed bench', async () => {
    const dir = path.join(await temp(), 'cache');
    const npm = await fakeNpm(1);
    const found = await loadPeers({ dir, npm: npm.command, log: () => undefined });
    expect(found).toEqual({ unavailable: expect.stringContaining(`into ${dir} failed (npm exited 1, its output above; better-sqlite3 compiles with node-gyp`) });
  });
});
