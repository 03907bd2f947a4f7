// A simulated instance of one of the service's own applications' methods (MOP's
// RunCommandTemplate, which the console does not run itself) is kept in the profile's store and
// answers again after the console restarts, after a kill -9, and after a switch to another
// profile and back: a job of a workflow calling it is started, not refused with 409.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../core/files/atomic';
import { propertiesFile } from '../../core/profiles/directory';
import { startTestHost, type TestHost } from '../support/host';
import { workflow } from '../engine/queue/support';
import { waitFor } from './support';

const flow = workflow(
  'Run a command template',
  { run: { name: 'RunCommandTemplate', app: 'MOP', variables: { incoming: { template: 'show version', devices: ['edge-1'] }, outgoing: { all_pass_flag: '$var.job.passed' } } } },
  [['workflow_start', 'run'], ['run', 'workflow_end']],
);

type Api = (pathname: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;

/** Starts a job of the workflow; the answer's status and message (200 when the console has every part). */
async function start(api: Api) {
  const answer = await api('/operations-manager/jobs/start', { method: 'POST', json: { workflow: flow.name, options: { variables: {} } } });
  const body = (await answer.json()) as { message?: string; data?: { _id: string } };
  return { status: answer.status, message: body.message, id: body.data?._id };
}

async function jobEnds(api: Api, id: string) {
  return waitFor(async () => {
    const job = ((await (await api(`/operations-manager/jobs/${id}`)).json()) as { data: { status: string } }).data;
    return ['complete', 'error', 'canceled'].includes(job.status) && job.status;
  }, `job ${id} to end`);
}

async function labDir() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'console-simulate-persist-'));
  await writeJsonAtomic(propertiesFile(dataDir, 'lab'), { id: 'lab', processTasksOnStart: true });
  return dataDir;
}

/** Imports the workflow, checks it is refused for the missing MOP method, then simulates it. */
async function simulateMop(host: TestHost) {
  expect((await host.api('/workflows', { method: 'POST', json: flow })).status).toBeLessThan(300);
  const refused = await start(host.api);
  expect(refused.status).toBe(409);
  expect(refused.message).toContain('MOP.RunCommandTemplate');
  const made = (await (await host.api('/adapters/simulate', { method: 'POST', json: { workflows: [flow.name] } })).json()) as { results: { id: string; mode: string }[] };
  expect(made.results).toEqual([expect.objectContaining({ id: 'MOP', mode: 'simulated' })]);
  const started = await start(host.api);
  expect(started.status).toBe(200);
  expect(await jobEnds(host.api, started.id!)).toBe('complete');
}

describe('a simulated MOP method', () => {
  it('answers again after a restart, and after a switch to another profile and back', async () => {
    const dataDir = await labDir();
    try {
      const first = await startTestHost({ dataDir });
      try {
        await simulateMop(first);
      } finally {
        await first.close();
      }
      const again = await startTestHost({ dataDir });
      try {
        const afterRestart = await start(again.api);
        expect(afterRestart, 'a job started after the restart').toMatchObject({ status: 200 });
        expect(await jobEnds(again.api, afterRestart.id!)).toBe('complete');

        expect((await again.api('/profiles', { method: 'POST', json: { id: 'other', processTasksOnStart: true } })).status).toBe(201);
        expect((await again.api('/profiles/other/active', { method: 'PUT' })).status).toBe(200);
        expect((await start(again.api)).status, 'the other profile has no such workflow').toBe(404);
        expect((await again.api('/profiles/lab/active', { method: 'PUT' })).status).toBe(200);
        const afterSwitch = await start(again.api);
        expect(afterSwitch, 'a job started after switching back').toMatchObject({ status: 200 });
        expect(await jobEnds(again.api, afterSwitch.id!)).toBe('complete');
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers again after the console is killed (kill -9)', async () => {
    const dataDir = await labDir();
    try {
      const first = await startTestHost({ dataDir });
      try {
        await simulateMop(first);
      } finally {
        await first.close();
      }
      // A console of its own process, killed without a chance to close anything.
      const child = spawn(process.execPath, ['--import', 'tsx', 'core/cli/serve.ts', '--data-dir', dataDir, '--port', '0', '--print-token'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += String(chunk);
          const open = /Open (http:\/\/[^/\s]+)\/#token=(\S+)/.exec(output);
          if (open) resolve(`${open[1]}#${open[2]}`);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
      });
      const [base, token] = url.split('#') as [string, string];
      const api: Api = (pathname, init = {}) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${token}`);
        if (init.json !== undefined) headers.set('content-type', 'application/json');
        return fetch(base + pathname, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
      };
      const before = await start(api);
      expect(before.status).toBe(200);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const again = await startTestHost({ dataDir });
      try {
        const afterKill = await start(again.api);
        expect(afterKill, 'a job started after kill -9').toMatchObject({ status: 200 });
        expect(await jobEnds(again.api, afterKill.id!)).toBe('complete');
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
