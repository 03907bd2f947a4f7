// Sums the JSON reports of every test runner into the closing CI line.
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 1);
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];

const vitest = 'test-results/vitest.json';
if (existsSync(vitest)) {
  const report = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
} else missing.push('vitest');

const playwright = 'test-results/playwright.json';
if (existsSync(playwright)) {
  const { stats } = JSON.parse(readFileSync(playwright, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
} else missing.push('playwright');

// A runner that never reported (the build, type check or dependency rules stopped the run) counts as failed.
if (status !== 0 && failed === 0) failed += Math.max(1, missing.length);
if (missing.length) console.log(`ci: no report from ${missing.join(', ')} (an earlier step failed or it did not run)`);
console.log(`ci: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
