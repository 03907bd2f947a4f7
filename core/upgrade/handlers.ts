// Handlers of the upgrade check: a folder on the server's machine, named by an absolute path.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ConsoleError } from '../errors';
import { UpgradeRuns } from './runs';

function badPath(message: string): never {
  throw new ConsoleError('bad_input', `body.path: ${message}`, { issues: [{ path: 'body.path', message }] });
}

/** The folder to check, or a 400 naming body.path. */
async function requireFolder(given: string): Promise<string> {
  const folder = given.trim();
  if (!path.isAbsolute(folder)) badPath(`"${folder}" must be an absolute path of a folder on the console's machine`);
  const stat = await fs.stat(folder).catch(() => undefined);
  if (!stat) badPath(`"${folder}" does not exist on the console's machine`);
  if (!stat.isDirectory()) badPath(`"${folder}" is not a folder`);
  return folder;
}

/** The upgrade check's service: the runs started from this console (kept in memory, the last few). */
export function createUpgradeService(): { runs: UpgradeRuns } {
  return { runs: new UpgradeRuns() };
}

/** How long the one-request form waits for the report before it answers 202 with the run. */
export const SYNC_WAIT_MS = 5_000;

type Body = { path: string; maxFiles?: number; maxSeconds?: number };
type Ctx = { setStatus(code: number): void; setHeader(name: string, value: string): void };

export function upgradeHandlers({ runs }: { runs: UpgradeRuns }) {
  const notFound = (id: string): never => {
    throw new ConsoleError('not_found', `no upgrade check ${id}: it was never started here, or is older than the last few kept`, { id });
  };
  return {
    'upgrade.check': async ({ body }: { body: Body }, ctx: Ctx) => {
      const started = runs.start(await requireFolder(body.path), body);
      const run = (await runs.settle(started.id, SYNC_WAIT_MS)) ?? started;
      if (run.state === 'done' && run.report) return run.report;
      if (run.state === 'failed') throw new ConsoleError('unprocessable', `the check of ${run.path} failed: ${run.error ?? 'unknown error'}`);
      // Still running: the caller follows it like a run started with upgrade.start.
      ctx.setStatus(202);
      ctx.setHeader('Location', `/upgrade/checks/${run.id}`);
      return run;
    },
    'upgrade.start': async ({ body }: { body: Body }, ctx: Ctx) => {
      const run = runs.start(await requireFolder(body.path), body);
      ctx.setStatus(202);
      ctx.setHeader('Location', `/upgrade/checks/${run.id}`);
      return run;
    },
    'upgrade.run': async ({ params }: { params: { id: string } }) => runs.get(params.id) ?? notFound(params.id),
    'upgrade.cancel': async ({ params }: { params: { id: string } }) => (await runs.cancel(params.id)) ?? notFound(params.id),
  };
}
