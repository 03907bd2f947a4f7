// The readable report of the upgrade check (the command's default output).
import { UPGRADE_RULES, type UpgradeReport, type UpgradeRule } from '../contract/upgrade';

export function formatReport(report: UpgradeReport): string {
  const { findings, summary } = report;
  const lines: string[] = [`Upgrade check for release ${summary.release}: ${summary.root}`, `${summary.filesScanned} files read.`, ''];
  if (findings.length === 0) lines.push('Nothing to change before the upgrade.');
  for (const rule of Object.keys(UPGRADE_RULES) as UpgradeRule[]) {
    const group = findings.filter((f) => f.rule === rule);
    if (group.length === 0) continue;
    lines.push(`${UPGRADE_RULES[rule].title} (release notes ${UPGRADE_RULES[rule].section}): ${group.length}`);
    for (const f of group) {
      lines.push(`  ${f.blocking ? 'BLOCKS ' : 'warning'} ${f.file}:${f.line}`);
      lines.push(`    ${f.message}`);
      lines.push(`    fix: ${f.fix}`);
    }
    lines.push('');
  }
  for (const s of summary.skipped) lines.push(`not read: ${s.file} (${s.reason})`);
  if (summary.skipped.length) lines.push('');
  lines.push(
    summary.blocked
      ? `${summary.blocking} finding${summary.blocking === 1 ? '' : 's'} block${summary.blocking === 1 ? 's' : ''} the upgrade, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}.`
      : `Nothing blocks the upgrade; ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}.`,
  );
  return lines.join('\n');
}
