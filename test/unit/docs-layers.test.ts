// docs/layers.svg, the map of the code the README links, is what the code draws now: the test
// redraws it from dependency-cruiser's analysis (scripts/layers-svg.mjs --check) and fails, naming
// the folders and dependencies that differ and the command that refreshes it, when it is stale.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('docs/layers.svg', () => {
  it('is the picture the code draws now (`npm run docs:layers` refreshes it)', async () => {
    const run = await promisify(execFile)(process.execPath, ['scripts/layers-svg.mjs', '--check'], { cwd: root, maxBuffer: 16 * 1024 * 1024 }).then(
      ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
    );
    expect(run.code, run.output).toBe(0);
  }, 120_000);

  it('draws every folder of core/ that holds code, with main and renderer', () => {
    const svg = readFileSync(path.join(root, 'docs', 'layers.svg'), 'utf8');
    const drawn = new Set([...svg.matchAll(/<g><title>([^<]+)<\/title>/g)].map((m) => m[1]));
    const folders = readdirSync(path.join(root, 'core'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `core/${entry.name}`);
    expect([...folders, 'main', 'renderer'].filter((name) => !drawn.has(name))).toEqual([]);
  });
});
