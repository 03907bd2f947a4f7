// An adapter instance's package in words: "@itentialopensource/adapter-gitlab 1.2.3 (shipped: /path)",
// or, for a simulated instance (which has no package, no version and no folder), "Simulated Gitlab
// (answers by its rules, not a live system)" rather than "simulated:Gitlab simulated (simulated: )".
import type { PackageSummary } from '../../core/contract/adapters';

const SOURCES: Record<PackageSummary['source'], string> = { shipped: 'shipped with the console', sdk: 'SDK', 'data-dir': 'data directory', simulated: 'simulated' };

export function packageLabel(pkg: PackageSummary | undefined): string {
  if (!pkg) return 'no package';
  if (pkg.source === 'simulated') return `Simulated ${pkg.title || pkg.export} (answers by its rules, not a live system; ${pkg.methodCount} method${pkg.methodCount === 1 ? '' : 's'})`;
  const where = [SOURCES[pkg.source], pkg.dir].filter(Boolean).join(': ');
  return `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''}${where ? ` (${where})` : ''}`;
}
