// `npm run drill` with sites: two --site URL=TOKEN pairs (and --load), the usage named when they are wrong, and
// a drill whose active site does not answer printed as a failed JSON report with exit code 1.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function drill(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'core/cli/drill.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run drill with two sites', () => {
  it('names what is wrong with the sites given', async () => {
    const one = await drill(['--site', 'http://127.0.0.1:9=token']);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('give two sites');
    const noToken = await drill(['--site', 'http://127.0.0.1:9', '--site', 'http://127.0.0.1:8=t']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('--site (active): give the API token after the URL');
    const kill = await drill(['--site', 'http://127.0.0.1:9=t', '--site', 'http://127.0.0.1:8=t', '--failure', 'kill']);
    expect(kill.code).toBe(2);
    expect(kill.stderr).toContain('--failure must be stop');
    const load = await drill(['--site', 'http://127.0.0.1:9=t', '--site', 'http://127.0.0.1:8=t', '--load', 'mine']);
    expect(load.code).toBe(2);
    expect(load.stderr).toContain('--load must be ledger');
    const noNames = await drill(['--site', 'http://127.0.0.1:9=t', '--site', 'http://127.0.0.1:8=t', '--load', 'workflows']);
    expect(noNames.code).toBe(2);
    expect(noNames.stderr).toContain('--load workflows: name the workflows the load runs (--workflow NAME)');
  }, 120_000);

  it('prints a failed JSON report and exits 1 when the active site does not answer', async () => {
    const run = await drill(['--site', 'http://127.0.0.1:9=t', '--site', 'http://127.0.0.1:8=t', '--jobs', '2', '--json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { kind: string; passed: boolean; error: string; leftAs: string; steps: { name: string; ok: boolean }[] };
    expect(report).toMatchObject({ kind: 'sites', passed: false });
    expect(report.error).toContain('site "active" (http://127.0.0.1:9) does not answer');
    expect(report.leftAs).toContain('neither site was changed');
    expect(report.steps.at(-1)).toMatchObject({ name: 'Both sites answer', ok: false });
    expect(run.stdout).not.toContain('"token"');
  }, 60_000);
});
