// `npm run upgrade-check -- DIR --rehearse`: the workflows exported under DIR rehearsed headless.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { workflow } from '../engine/queue/support';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'core/cli/upgrade-check.ts', ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'rehearse-cli-'));
  const firstChar = workflow('first-char', { cp: { name: 'codePointAt', variables: { incoming: { str: 'abc', pos: 9 }, outgoing: { codePointValue: null } } } }, [
    ['workflow_start', 'cp'],
    ['cp', 'workflow_end'],
  ]);
  const shout = workflow('shout', { up: { name: 'toUpperCase', variables: { incoming: { str: 'abc' }, outgoing: { uppercaseString: null } } } }, [
    ['workflow_start', 'up'],
    ['up', 'workflow_end'],
  ]);
  const device = workflow('device', { get: { name: 'getDevice', app: 'Inventory', variables: { incoming: {}, outgoing: { result: null } } } }, [
    ['workflow_start', 'get'],
    ['get', 'workflow_end'],
  ]);
  await writeFile(path.join(dir, 'first-char.json'), JSON.stringify(firstChar));
  await writeFile(path.join(dir, 'others.json'), JSON.stringify([shout, device]));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('reports the differing workflow with its first divergence and exits 1; an adapter workflow could not run', async () => {
  const before = (await readdir(os.tmpdir())).filter((f) => f.startsWith('console-rehearsal-'));
  const { code, stdout } = await run([dir, '--rehearse', '--json']);
  expect(code).toBe(1);
  const report = JSON.parse(stdout);
  expect(report).toMatchObject({ from: '2021.2', workflows: 3, same: 1 });
  expect(report.differ.map((d: { workflow: string; firstDivergence: { task: string } }) => [d.workflow, d.firstDivergence.task])).toEqual([['first-char', 'cp']]);
  expect(report.couldNotRun).toEqual([{ workflow: 'device', why: expect.stringContaining('"Inventory"') }]);
  expect((await readdir(os.tmpdir())).filter((f) => f.startsWith('console-rehearsal-'))).toEqual(before);
});

it('prints the readable report, and refuses a --from it does not know with exit 2', async () => {
  const readable = await run([dir, '--rehearse', '--from', '2021.1']);
  expect(readable.stdout).toContain('Rehearsal from 2021.1 to 2022.1: 3 workflows, 1 the same, 1 differ, 1 could not run.');
  expect(readable.stdout).toContain('first-char: first divergence at task cp (status, transition, outgoing)');
  const bad = await run([dir, '--rehearse', '--from', '2020.2']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--from must be 2021.1 or 2021.2');
});
