// What `serve` checks before it writes anything: a console that cannot listen leaves no new data
// directory or token behind (the port is tried first; a race lost after that removes what it made).
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** Why nothing can listen on `host:port` now (an error code such as EADDRINUSE), or undefined when it can. */
export function listenProblem(port: number, host: string): Promise<string | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** What a start in `dataDir` will create that is not there yet: the topmost missing folder, else the token file. */
export function newPaths(dataDir: string): { folder?: string; token?: string } {
  let folder: string | undefined;
  for (let dir = path.resolve(dataDir); !existsSync(dir); dir = path.dirname(dir)) {
    folder = dir;
    if (path.dirname(dir) === dir) break;
  }
  if (folder) return { folder };
  const token = path.join(dataDir, 'console-token');
  return existsSync(token) ? {} : { token };
}

/** Removes what a failed start created (from `newPaths`, taken before it). */
export async function removeNew(created: { folder?: string; token?: string }): Promise<void> {
  if (created.folder) await rm(created.folder, { recursive: true, force: true });
  else if (created.token) await rm(created.token, { force: true });
}
