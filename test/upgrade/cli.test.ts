import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySite, FIXTURE_SITE } from './site';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The command as package.json defines it (`viaNpm`), or the same command line without npm's start-up. */
function run(args: string[], viaNpm = false): Promise<{ code: number; stdout: string; stderr: string }> {
  const [command, ...prefix] = viaNpm
    ? ['npm', 'run', '--silent', 'upgrade-check', '--']
    : [process.execPath, '--import', 'tsx', 'core/cli/upgrade-check.ts'];
  return new Promise((resolve) => {
    execFile(command, [...prefix, ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let site: Awaited<ReturnType<typeof copySite>>;
let clean: string;
beforeAll(async () => {
  site = await copySite();
  // Only warnings (a child-job variable that can be undefined) and near misses: nothing blocks.
  clean = await mkdtemp(path.join(os.tmpdir(), 'upgrade-clean-'));
  await mkdir(path.join(clean, 'workflows'));
  await cp(path.join(FIXTURE_SITE, 'workflows/checked-char.json'), path.join(clean, 'workflows/checked-char.json'));
  await cp(path.join(FIXTURE_SITE, 'workflows/notify.json'), path.join(clean, 'workflows/notify.json'));
  await writeFile(path.join(clean, 'app.js'), "// was: fetch('/admin/services/health')\nimport 'ui/lib/a/src/a.css';\n");
});
afterAll(async () => {
  await site.dispose();
  await rm(clean, { recursive: true, force: true });
});

// Each case starts the command (Node with tsx): slow on a loaded machine, hence the longer timeout.
describe('npm run upgrade-check', { timeout: 120_000 }, () => {
  it('prints a readable report grouped by rule and exits 1 when something blocks', async () => {
    const { code, stdout } = await run([site.dir], true);
    expect(code).toBe(1);
    expect(stdout).toContain('Legacy activate setting (release notes 1.2 rule 5; 9.2): 2');
    expect(stdout).toContain('BLOCKS  scripts/reindex.sh:5');
    expect(stdout).toContain('fix: Call GET /health/adapters or GET /health/applications instead');
    expect(stdout).toContain('not read: apps/app-ui/src/huge.js (larger than 2 MiB)');
    expect(stdout).toContain('10 findings block the upgrade, 5 warnings.');
  });

  it('prints { findings, summary } with --json', async () => {
    const { code, stdout } = await run([site.dir, '--json']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ findings: 15, blocking: 10, blocked: true });
    expect(report.findings[0]).toEqual(
      expect.objectContaining({ rule: 'activate-setting', file: 'config/service_configs.json', line: 6, message: expect.any(String), fix: expect.any(String) }),
    );
  });

  it('exits 0 when only warnings remain', async () => {
    const { code, stdout } = await run([clean, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ blocking: 0, warnings: 1, blocked: false });
    expect(report.findings.map((f: { rule: string; line: number }) => `${f.rule}:${f.line}`)).toEqual(['child-job-undefined:16']);
  });

  it('exits 2 with a clear message without DIR, or with a DIR that is not a folder', async () => {
    const [none, missing, file] = await Promise.all([
      run([], true),
      run(['/no/such/dir']),
      run([path.join(FIXTURE_SITE, 'config/properties.json')]),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('upgrade-check: missing DIR');
    expect(none.stderr).toContain('usage: npm run upgrade-check -- DIR [--json]');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('DIR /no/such/dir does not exist');
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('is not a folder');
  });
});
