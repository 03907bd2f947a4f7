// scripts/perf-equal.mjs writes the equal-work section (issue 45) into a page between its markers
// from the benches' JSON, each figure beside its reference and every round with its load, leaving
// the rest of the page as it was; and docs/performance.md holds the section the committed JSON
// files give (a page edited by hand, or figures refreshed without the page, fail here).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'perf-equal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const figures = {
  machine: 'Test CPU, 2 cores',
  measuredAt: '2026-11-28T05:00:00.000Z',
  method: '3 rounds',
  oneTaskJobsPerSecond: 2000,
  plainjobJobsPerSecond: 4000,
  oneTaskJobsRatioToPlainjob: 0.5,
  tasksPerSecond: 3000,
  rawSamePatternTasksPerSecond: 6000,
  rawSamePatternOneTaskJobsPerSecond: 5000,
  rawSamePatternBytesPerOneTaskJob: 1900,
  tasksOverRawSamePattern: 0.5,
  cpuMsPerOneTaskJob: 0.3,
  plainjobCpuMsPerJob: 0.1,
  cpuMsPerTask: 0.12,
  bytesPerJob: 2400,
  plainjobBytesPerJob: 90,
  oneTaskJobsQueued: { '1000': { engineJobsPerSecond: 900, plainjobJobsPerSecond: 1000, ratio: 0.9, ratioRounds: [0.85, 0.9, 0.95], engineBytesPerJob: 2500 } },
  oneTaskJobsRatioUnderLoad: 0.4,
  oneTaskJobsRatioUnderLoadRounds: [0.4],
  targets: {
    oneTaskJobsOverPlainjob: { value: 0.5, target: '>= 0.8', met: false },
    oneTaskJobsQueued1000OverPlainjob: { value: 0.9, target: '>= 0.8', met: true },
    tasksOverRawSamePattern: { value: 0.5, target: '>= 0.35', met: true },
  },
  rounds: [{ round: 1, system: 'plainjob', perSecond: 4000, items: 12000, seconds: 3, cpuMsPerItem: 0.1, loadAverage: 7.25, stealPercent: 0 }],
};
const levers = { method: 'two rounds', levers: [{ lever: 'inline checkpoints', oneTaskJobsPerSecond: 1900, oneTaskRatioToStore: 0.95 }], rounds: [{ round: 1, lever: 'inline checkpoints', oneTaskJobsPerSecond: 1900, loadAverage: 3.5 }] };

async function writePage(page: string): Promise<string> {
  const files = ['equal.json', 'levers.json', 'profile.json', 'page.md'].map((name) => path.join(dir, name));
  writeFileSync(files[0]!, JSON.stringify(figures));
  writeFileSync(files[1]!, JSON.stringify(levers));
  writeFileSync(files[3]!, page);
  await promisify(execFile)(process.execPath, ['scripts/perf-equal.mjs', ...files], { cwd: root });
  return readFileSync(files[3]!, 'utf8');
}

describe('the equal-work section of the performance page', () => {
  it('puts each figure beside its reference, says which targets are not met, and lists every round with its load', async () => {
    const page = await writePage('# Performance\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Later\n\ntext\n');
    expect(page).toContain('| one-task jobs, steady stream (enqueue + run) | 2,000 jobs/s | plainjob 4,000 jobs/s | 0.50× | ≥ 0.8× | **not met** |');
    expect(page).toContain('| 1,000 one-task jobs queued at once, then run | 900 jobs/s | plainjob 1,000 jobs/s | 0.90× (rounds 0.85, 0.90, 0.95) | ≥ 0.8× | met |');
    expect(page).toContain("raw `node:sqlite`, the engine's own write pattern: 6,000 tasks/s | 0.500× | ≥ 0.35× | met |");
    expect(page).toContain('| 1 | plainjob | 4,000/s | 12,000 | 3.0 | 0.100 | — | 7.25 | 0.00 |');
    expect(page).toContain('| inline checkpoints | 1,900 | 0.95× |');
    // After the first table, the rest of the page kept.
    expect(page.indexOf('<!-- engine-equal:start -->')).toBeGreaterThan(page.indexOf('| 1 | 2 |'));
    expect(page).toMatch(/<!-- engine-equal:end -->\n\n## Later\n\ntext\n$/);
  });

  it('replaces its own section when written again, the page otherwise unchanged', async () => {
    const once = await writePage('# Performance\n\n| a |\n|---|\n\nafter\n');
    expect(await writePage(once)).toBe(once);
  });

  it('docs/performance.md holds the section the committed JSON gives', async () => {
    const committed = path.join(root, 'docs/performance-engine-equal.json');
    if (!existsSync(committed)) throw new Error('docs/performance-engine-equal.json is missing: run the engine bench with --json --equal-only and scripts/perf-equal.mjs');
    const page = readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
    const copy = path.join(dir, 'current.md');
    writeFileSync(copy, page);
    const jsons = ['performance-engine-equal.json', 'performance-levers.json', 'performance-profile.json'].map((name) => path.join(root, 'docs', name));
    await promisify(execFile)(process.execPath, ['scripts/perf-equal.mjs', ...jsons, copy], { cwd: root });
    expect(readFileSync(copy, 'utf8'), 'run: node scripts/perf-equal.mjs').toBe(page);
  });
});
