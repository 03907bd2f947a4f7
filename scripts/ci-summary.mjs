// Sums the JSON reports of every test runner into the closing CI line.
import { existsSync, readFileSync } from 'node:fs';

const status = Number(process.argv[2] ?? 1);
let passed = 0;
let failed = 0;
let skipped = 0;
// Tests that read the shared corpus of real exports (../shared/corpus/iap) carry this tag in their
// title (test/support/iap.ts); on a clone of the project alone they skip, and are counted apart.
const CORPUS_TAG = '[corpus]';
let corpusSkipped = 0;
const missing = [];

const vitest = 'test-results/vitest.json';
if (existsSync(vitest)) {
  const report = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'passed' && test.status !== 'failed' && String(test.fullName).includes(CORPUS_TAG)) corpusSkipped += 1;
    }
  }
} else missing.push('vitest');

const playwright = 'test-results/playwright.json';
if (existsSync(playwright)) {
  const report = JSON.parse(readFileSync(playwright, 'utf8'));
  const { stats } = report;
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
  const walk = (suite, titles) => {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'skipped' && [...path, spec.title].join(' › ').includes(CORPUS_TAG)) corpusSkipped += 1;
      }
    }
    for (const child of suite.suites ?? []) walk(child, path);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
} else missing.push('playwright');

// A runner that never reported (the build, type check or dependency rules stopped the run) counts as failed.
if (status !== 0 && failed === 0) failed += Math.max(1, missing.length);
if (missing.length) console.log(`ci: no report from ${missing.join(', ')} (an earlier step failed or it did not run)`);
if (corpusSkipped) console.log(`ci: ${corpusSkipped} of the skipped tests read the shared corpus of real exports, absent here (../shared/corpus/iap); the project's own fixtures (test/fixtures/iap) cover the same capabilities`);
console.log(`ci: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${corpusSkipped ? ` (${corpusSkipped} for a missing corpus)` : ''}`);
