// Handlers of the upgrade check: a folder on the server's machine, named by an absolute path.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { OpError } from '../dispatch/dispatch';
import { UpgradeRuns } from './runs';
import { scanFolder } from './scan';

function badPath(message: string): never {
  throw new OpError(400, `body.path: ${message}`, { issues: [{ path: 'body.path', message }] });
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

export function upgradeHandlers({ runs }: { runs: UpgradeRuns }) {
  return {
    'upgrade.check': async ({ body }: { body: { path: string } }) => scanFolder(await requireFolder(body.path)),
    'upgrade.start': async ({ body }: { body: { path: string } }, ctx: { setStatus(code: number): void }) => {
      const run = runs.start(await requireFolder(body.path));
      ctx.setStatus(202);
      return run;
    },
    'upgrade.run': async ({ params }: { params: { id: string } }) => {
      const run = runs.get(params.id);
      if (!run) throw new OpError(404, `no upgrade check ${params.id}: it was never started here, or is older than the last few kept`, { id: params.id });
      return run;
    },
  };
}
