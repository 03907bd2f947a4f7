// `--help` on every command of the project: its usage on stdout and exit code 0, through npm as the
// README names them (serve directly: its npm pre-script builds the UI first when it is missing).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, timeout: 90_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
const npm = (script: string, ...args: string[]) => run('npm', ['run', '--silent', script, '--', ...args]);

describe('--help', { timeout: 120_000 }, () => {
  it('npm run drill -- --help: both forms of the drill and every option, exit 0', async () => {
    const { code, stdout, stderr } = await npm('drill', '--help');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run drill -- --lab /);
    expect(stdout).toContain('npm run drill -- --site ACTIVE_URL=TOKEN --site STANDBY_URL=TOKEN');
    for (const option of ['--jobs N', '--failure MODE', '--failback', '--persist', '--load ledger|workflows', '--workflow NAME', '--ledger-host HOST', '--rto-ms N', '--mongo-url URL', '--json', '-h, --help']) expect(stdout, option).toContain(option);
  });

  it('npm run upgrade-check -- --help (and -h): DIR, --json and the exit codes, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const { code, stdout } = await npm('upgrade-check', flag);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^usage: npm run upgrade-check -- DIR \[--json\]/);
      expect(stdout).toContain('Exit code: 0 when nothing blocks the upgrade, 1 when something does, 2 for a usage error.');
    }
  });

  it('npm run bench -- --help: the benches by name and where the queue peers are installed, without running any', async () => {
    const { code, stdout } = await npm('bench', '--help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run bench /);
    expect(stdout).toContain('NAME         one of: store, profiles, indexes');
    expect(stdout).toContain('~/.cache/automation-console-bench');
    expect(stdout).not.toContain('machine:');
  });

  it('serve --help: every option and the default data directory, without starting a console', async () => {
    const { code, stdout } = await run(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run serve -- \[--data-dir DIR\]/);
    for (const option of ['--data-dir DIR', '--port N', '--host ADDR', '--allowed-host NAME[:PORT]', '--print-token', '--no-print-token', '-h, --help']) expect(stdout, option).toContain(option);
    expect(stdout).not.toContain('Console listening');
  });

  it('an unknown option is still a usage error (exit 2) naming it', async () => {
    const { code, stderr } = await npm('upgrade-check', '--helpp');
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown option '--helpp'");
  });
});
