// scripts/perf-page.mjs writes the engine bench's table into a page between its markers from the
// bench's JSON, leaving the rest of the page as it was; and docs/performance.md holds the section
// the committed docs/performance-engine.json gives (a page edited by hand, or figures refreshed
// without the page, fail here naming the command).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'perf-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const figures = {
  machine: 'Test CPU, 2 cores',
  measuredAt: '2026-11-26T02:00:00.000Z',
  method: '3 rounds',
  oneTaskJobsPerSecond: 1234,
  plainjobJobsPerSecond: 4936,
  liteQueueJobsPerSecond: 617,
  rawClaimCompletePerSecond: 10000,
  tasksPerSecond: 2500,
  tasksPerSecondConcurrency1: 2000,
  cpuMsPerTask: 0.35,
  bytesPerJob: 3000,
  targets: { oneTaskJobsOverPlainjob: { value: 0.25, target: '>= 0.5', met: false } },
  rounds: [{ round: 1, system: 'plainjob', perSecond: 4936, items: 25000, seconds: 5.1, cpuMsPerItem: 0.1, loadAverage: 1.5, stealPercent: 0.2 }],
};

/** The page as the script writes it; `transformations` given, with the compiled-JST section too. */
async function writePage(page: string, transformations?: object, moreFigures: object = {}): Promise<string> {
  const figuresFile = path.join(dir, 'figures.json');
  const pageFile = path.join(dir, 'page.md');
  const transformationsFile = path.join(dir, transformations ? 'transformations.json' : 'none.json');
  writeFileSync(figuresFile, JSON.stringify({ ...figures, ...moreFigures }));
  writeFileSync(pageFile, page);
  if (transformations) writeFileSync(transformationsFile, JSON.stringify(transformations));
  await promisify(execFile)(process.execPath, ['scripts/perf-page.mjs', figuresFile, pageFile, transformationsFile], { cwd: root });
  return readFileSync(pageFile, 'utf8');
}

describe('scripts/perf-page.mjs', () => {
  it('adds the section with its markers at the end of a page without them, the page kept', async () => {
    const page = await writePage('# Performance\n\nHand-written text.\n');
    expect(page.startsWith('# Performance\n\nHand-written text.\n')).toBe(true);
    expect(page).toContain('<!-- engine-bench:start -->');
    expect(page).toContain('**1,234 jobs/s** (0.25× plainjob, 2.00× liteque)');
    expect(page).toContain('**2,500 tasks/s** (0.25× raw)');
    expect(page).toContain('Measured 2026-11-26T02:00:00.000Z on Test CPU, 2 cores');
    expect(page).toContain('- one-task jobs against plainjob: **not met** (0.25 against >= 0.5)');
    expect(page).toContain('| 1 | plainjob | 4,936/s | 25,000 | 5.1 | 0.100 | — | 1.50 | 0.20 |');
  });

  it('writes the summary rows the engine bench measures from its JSON, and leaves the other rows as they were', async () => {
    const before = [
      '| figure | target | measured | how |',
      '|---|---|---|---|',
      '| engine, embedded, 1 worker | ≥ 1,000 tasks/s | 6,361 tasks/s | old |',
      '| engine, 2 workers in one process | ≥ 1.5× one | 0.95×: **not met** | old |',
      '| store calls / writes per task (embedded) | ≤ 4 / ≤ 2 | 2 calls, 2 writes | counted by the tests |',
      '',
    ].join('\n');
    const page = await writePage(before, undefined, { engineBench: { tasksPerSecond: 9857, twoWorkersRatio: 1.6, twoWorkersRatioRounds: [1.5, 1.6, 1.7] } });
    expect(page).toContain('| engine, embedded, 1 worker | ≥ 1,000 tasks/s | 9,857 tasks/s | `npm run bench -- engine` (`engineBench` in its JSON), median of 3 rounds |');
    expect(page).toContain('| engine, 2 workers in one process | ≥ 1.5× one | 1.60× (rounds 1.50×, 1.60×, 1.70×) |');
    expect(page).toContain('| store calls / writes per task (embedded) | ≤ 4 / ≤ 2 | 2 calls, 2 writes | counted by the tests |');
    expect(page).not.toContain('6,361');
  });

  it("writes the store layer's own claim + complete beside raw SQLite's, and its target, from the same rounds", async () => {
    const page = await writePage('# Performance\n', undefined, {
      rawClaimCompleteOnlyPerSecond: 24000,
      storeClaimCompleteOnlyPerSecond: 21600,
      targets: { storeOverRawClaimComplete: { value: 0.9, target: '>= 0.8', met: true } },
    });
    expect(page).toContain("| the store layer's own claim + complete (the engine's task queue, embedded) | claim + complete alone: 21,600/s (0.90× raw's) | — | — |");
    expect(page).toMatch(/the store layer's own claim \+ complete against raw SQLite's claim \+ complete alone \(one caller, in the same rounds\): .*0\.9/);
  });

  it('writes the compiled-JST section from the transformations bench, saying whether the map reached its target', async () => {
    const page = await writePage('# Performance\n', {
      machine: 'Test CPU, 2 cores',
      mapRatioToPlainJs: 0.0235,
      documents: [{ document: 'Summarize Items', 'compiled runs/s': 133488, 'interpreter runs/s': 6089, 'plain JS runs/s': 5685533, 'compiled / plain': 0.0235 }],
    });
    expect(page).toContain('<!-- transformations-bench:start -->');
    expect(page).toContain('the 50-item map at ≥ 0.25× plain JavaScript doing the same: 0.0235 (**not met**)');
    expect(page).toContain('| Summarize Items | 133,488 | 6,089 | 5,685,533 | 0.0235 |');
    expect(page).toContain('<!-- engine-bench:start -->');
  });

  it("lists every round of the map with its load average, when the bench's JSON has them", async () => {
    const page = await writePage('# Performance\n', {
      machine: 'Test CPU, 2 cores',
      mapRatioToPlainJs: 0.25,
      mapRounds: [
        { round: 1, compiledRunsPerSecond: 1200000, plainRunsPerSecond: 6000000, ratio: 0.2, loadAverage: 1.25 },
        { round: 2, compiledRunsPerSecond: 1500000, plainRunsPerSecond: 6000000, ratio: 0.25, loadAverage: 0.5 },
      ],
      documents: [],
    });
    expect(page).toContain('median of each form over all 2');
    expect(page).toContain('| 1 | 1,200,000 | 6,000,000 | 0.2000 | 1.25 |');
    expect(page).toContain('| 2 | 1,500,000 | 6,000,000 | 0.2500 | 0.5 |');
  });

  it('replaces only what is between the markers', async () => {
    const page = await writePage('before\n<!-- engine-bench:start -->\nold figures\n<!-- engine-bench:end -->\nafter\n');
    expect(page).not.toContain('old figures');
    expect(page.startsWith('before\n<!-- engine-bench:start -->')).toBe(true);
    expect(page.endsWith('<!-- engine-bench:end -->\nafter\n')).toBe(true);
  });
});

describe('docs/performance.md', () => {
  const json = path.join(root, 'docs/performance-engine.json');
  it.skipIf(!existsSync(json))('holds the engine section docs/performance-engine.json gives (`node scripts/perf-page.mjs` writes it)', async () => {
    const committed = readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
    const copy = path.join(dir, 'performance.md');
    writeFileSync(copy, committed);
    await promisify(execFile)(process.execPath, ['scripts/perf-page.mjs', json, copy], { cwd: root });
    expect(readFileSync(copy, 'utf8')).toBe(committed);
  });
});
