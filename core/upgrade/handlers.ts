// Handlers of the upgrade check: a folder on the server's machine, named by an absolute path.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { OpError } from '../dispatch/dispatch';
import type { HostState } from '../host/state';
import { scanFolder } from './scan';

function badPath(message: string): never {
  throw new OpError(400, `body.path: ${message}`, { issues: [{ path: 'body.path', message }] });
}

export function upgradeHandlers(_state: HostState) {
  return {
    'upgrade.check': async ({ body }: { body: { path: string } }) => {
      const folder = body.path.trim();
      if (!path.isAbsolute(folder)) badPath(`"${folder}" must be an absolute path of a folder on the console's machine`);
      const stat = await fs.stat(folder).catch(() => undefined);
      if (!stat) badPath(`"${folder}" does not exist on the console's machine`);
      if (!stat.isDirectory()) badPath(`"${folder}" is not a folder`);
      return scanFolder(folder);
    },
  };
}
