import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFolder } from '../../core/upgrade';
import type { UpgradeReport } from '../../core/contract/upgrade';
import { copySite } from './site';

let site: Awaited<ReturnType<typeof copySite>>;
let report: UpgradeReport;
const progress: number[] = [];

beforeAll(async () => {
  site = await copySite();
  report = await scanFolder(site.dir, { onProgress: (done) => progress.push(done) });
});
afterAll(() => site.dispose());

const where = (rule: string) => report.findings.filter((f) => f.rule === rule).map((f) => `${f.file}:${f.line}`);

describe('upgrade check over the fixture site', () => {
  it('finds legacy activate in both historical service configs, and not in a JSON schema or a 2022.1 properties.json', () => {
    expect(where('activate-setting')).toEqual(['config/service_configs.json:6', 'config/service_configs.json:12']);
    const [engine, worker] = report.findings.filter((f) => f.rule === 'activate-setting');
    expect(engine!.migration).toMatchObject({ place: 'workflow-engine', releases: '2020.1', value: false, config: { name: 'WorkFlowEngine' } });
    expect(worker!.migration).toMatchObject({ place: 'task-worker', releases: '2019.2 and 2019.3', value: true });
    expect(engine!.fix).toContain('"processTasksOnStart": false');
    expect(engine!).toMatchObject({ blocking: true, section: '1.2 rule 5; 9.2' });
  });

  it('finds the deprecated health API built from a constant and from concatenated object properties, not in comments or under another method', () => {
    expect(where('api-call')).toEqual(['apps/app-health-monitor/src/client.ts:10', 'apps/app-health-monitor/src/health.js:7']);
    const call = report.findings.find((f) => f.rule === 'api-call')!;
    expect(call.message).toContain('GET /admin/services/health');
    expect(call.message).toContain('removed in 2023.1 (stated as the actual removal release)');
    expect(call.fix).toBe('Call GET /health/adapters or GET /health/applications instead');
    // Deprecated, not removed, at 2022.1: a warning.
    expect(call.blocking).toBe(false);
  });

  it('finds npm run index in package scripts and shell scripts, not in comments, index:docs or indexer', () => {
    expect(where('npm-run-index')).toEqual(['apps/app-health-monitor/package.json:6', 'scripts/nightly:2', 'scripts/reindex.sh:5']);
    expect(report.findings.find((f) => f.rule === 'npm-run-index')!.fix).toContain('POST {base_url}/indexes/:collectionName');
  });

  it('finds JavaScript under ui/lib/<library>/src, not CSS there nor commented-out references', () => {
    expect(where('ui-lib-src-js')).toEqual([
      'apps/app-ui/index.html:6',
      'apps/app-ui/src/index.js:1',
      'apps/app-ui/src/index.js:4',
      'apps/app-ui/src/index.js:8',
    ]);
    const messages = report.findings.filter((f) => f.rule === 'ui-lib-src-js').map((f) => f.message).join('\n');
    expect(messages).toContain('ui/lib/select2/src/plugins/select2-extra.js');
    expect(messages).not.toMatch(/\.css|legacy\.js|old\.js/);
  });

  it('finds a codePointAt task without an error transition, not one that has it', () => {
    expect(where('codepointat-error')).toEqual(['workflows/first-char.json:5']);
    expect(report.findings.find((f) => f.rule === 'codepointat-error')!.message).toContain('task a1f2');
  });

  it('finds child-job variables that can be undefined, not required, defaulted, set or always-produced ones', () => {
    expect(where('child-job-undefined')).toEqual(['workflows/notify.json:16', 'workflows/provision.json:38', 'workflows/provision.json:40']);
    const messages = report.findings.filter((f) => f.rule === 'child-job-undefined').map((f) => f.message);
    expect(messages[1]).toContain('variable "device"');
    expect(messages[2]).toContain('variable "note", which is null');
    expect(messages.join('\n')).not.toMatch(/"(region|vlan|port|portAgain|owner|label|to)"/);
  });

  it('skips node_modules and .git, and does not read oversized files', () => {
    expect(report.findings.some((f) => f.file.includes('node_modules') || f.file.startsWith('.git'))).toBe(false);
    expect(report.summary.skipped).toEqual([{ file: 'apps/app-ui/src/huge.js', reason: 'larger than 2 MiB' }]);
  });

  it('summarises the findings and reports progress per file', () => {
    expect(report.summary).toMatchObject({ release: '2022.1', findings: 15, blocking: 10, warnings: 5, blocked: true });
    expect(report.summary.byRule).toEqual({
      'activate-setting': 2,
      'api-call': 2,
      'npm-run-index': 3,
      'ui-lib-src-js': 4,
      'codepointat-error': 1,
      'child-job-undefined': 3,
    });
    expect(report.summary.filesScanned).toBe(progress.length);
    expect(progress.at(-1)).toBe(report.summary.filesScanned);
  });

  it('names the path when it is not a folder', async () => {
    await expect(scanFolder('/no/such/folder')).rejects.toThrow('/no/such/folder does not exist');
    await expect(scanFolder(`${site.dir}/config/properties.json`)).rejects.toThrow('properties.json is not a folder');
  });
});
