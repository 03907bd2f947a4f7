// A save killed (SIGKILL) at each of its steps, and at random moments, leaves properties.json
// holding the old content or the new one, never a torn file; the next save cleans up after it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATOMIC_STEPS, writeJsonAtomic } from '../../core/files/atomic';

const writer = path.resolve(import.meta.dirname, 'support/atomic-writer.ts');
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atomic-crash-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A properties.json big enough that its write is not one syscall's worth. */
function profile(version: string) {
  return {
    id: 'primary',
    processTasksOnStart: version === 'new',
    version,
    vaultProps: { padding: Array.from({ length: 4000 }, (_, i) => `${version}-${i}`) },
  };
}
const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', writer, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function waitFor(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (out.includes(line)) resolve();
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`writer exited (${code}) before "${line}": ${err}`)));
  });
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.on('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('a save killed at each step', () => {
  for (const step of ATOMIC_STEPS) {
    it(`after "${step}" leaves the old or the new file, and a whole backup`, async () => {
      const file = path.join(dir, step, 'properties.json');
      const oldText = text(profile('old'));
      const newText = text(profile('new'));
      await writeJsonAtomic(file, profile('old'));
      const content = path.join(dir, `${step}.new.json`);
      await writeFile(content, newText);

      const child = start(['pause', file, content, step]);
      await waitFor(child, `AT ${step}`);
      await kill9(child);

      const after = await readFile(file, 'utf8');
      const renamed = ATOMIC_STEPS.indexOf(step) >= ATOMIC_STEPS.indexOf('renamed');
      expect(after).toBe(renamed ? newText : oldText);
      const names = await readdir(path.dirname(file));
      if (names.includes('properties.json.bak')) expect(await readFile(`${file}.bak`, 'utf8')).toBe(oldText);

      // The next save succeeds and removes what the killed writer left behind.
      await writeJsonAtomic(file, profile('next'), { backup: true });
      expect(JSON.parse(await readFile(file, 'utf8')).version).toBe('next');
      expect((await readdir(path.dirname(file))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });
  }
});

describe('a writer killed at random moments', () => {
  it('never leaves a torn properties.json (20 kills)', async () => {
    const file = path.join(dir, 'random', 'properties.json');
    const versions = ['a', 'b'].map((v) => profile(v));
    await writeJsonAtomic(file, profile('initial'));
    const allowed = new Set([text(profile('initial')), ...versions.map(text)]);
    const inputs = await Promise.all(
      versions.map(async (v, i) => {
        const p = path.join(dir, `random-${i}.json`);
        await writeFile(p, text(v));
        return p;
      }),
    );
    const seen = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const child = start(['loop', file, ...inputs]);
      await waitFor(child, 'LOOPING');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
      await kill9(child);
      const content = await readFile(file, 'utf8');
      expect(allowed.has(content), `round ${round}: torn file of ${content.length} bytes`).toBe(true);
      seen.add(JSON.parse(content).version);
      const backup = await readFile(`${file}.bak`, 'utf8').catch(() => undefined);
      if (backup !== undefined) expect(allowed.has(backup), `round ${round}: torn backup`).toBe(true);
    }
    // The kills landed at different points of the save loop: both versions were left behind.
    expect([...seen].sort()).toEqual(['a', 'b']);
  }, 120_000);
});
