// The deprecation policy (release notes, section 9 rule 2): an API is announced as deprecated at
// least two release cycles before it is removed. Cycles are counted as in label.ts
// (releaseCycleIndex): two feature releases a year, year.1 and year.2.
import { compareReleases, parseRelease, releaseCyclesBetween } from './label';
import type { LifecycleRow } from './table';
import { errorMessage } from '../errors';

export const MIN_DEPRECATION_CYCLES = 2;

export interface PolicyFinding {
  rowId: string;
  item: string;
  problem: 'no-deprecation-release' | 'too-short-notice' | 'removal-before-deprecation' | 'uncountable-release' | 'malformed-release';
  message: string;
}

export function checkPolicy(table: readonly LifecycleRow[]): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  for (const row of table) {
    const report = (problem: PolicyFinding['problem'], message: string) =>
      findings.push({ rowId: row.id, item: row.item, problem, message });
    try {
      parseRelease(row.removal);
      if (row.deprecated !== undefined) parseRelease(row.deprecated);
    } catch (error) {
      report('malformed-release', `${row.item}: ${errorMessage(error)}`);
      continue;
    }
    if (row.deprecated === undefined) {
      report(
        'no-deprecation-release',
        `${row.item} is removed in ${row.removal} with no deprecation release: the policy needs it announced as deprecated at least ${MIN_DEPRECATION_CYCLES} release cycles before removal`,
      );
      continue;
    }
    if (compareReleases(row.removal, row.deprecated) <= 0) {
      report('removal-before-deprecation', `${row.item} is removed in ${row.removal}, not after its deprecation in ${row.deprecated}`);
      continue;
    }
    let cycles: number;
    try {
      cycles = releaseCyclesBetween(row.deprecated, row.removal);
    } catch (error) {
      report('uncountable-release', `${row.item}: ${errorMessage(error)}`);
      continue;
    }
    if (cycles < MIN_DEPRECATION_CYCLES) {
      report(
        'too-short-notice',
        `${row.item} is deprecated in ${row.deprecated} and removed in ${row.removal}: ${cycles} release cycle${cycles === 1 ? '' : 's'} of notice, the policy needs at least ${MIN_DEPRECATION_CYCLES}`,
      );
    }
  }
  return findings;
}
