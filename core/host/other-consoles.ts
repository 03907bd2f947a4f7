// Other consoles on the active store: those whose heartbeat (`wfe_workers`, written by each
// console's engine) is live. A heartbeat of this machine whose process is gone is not live,
// whatever its age: a console stopped (or killed) just before a restore does not hold it up.
import os from 'node:os';
import { errorMessage } from '../errors';
import type { OtherConsole } from '../store/handlers';
import type { HostState } from './state';

function processGone(pid: number | undefined, host: string): boolean {
  if (pid === undefined || host !== os.hostname()) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to another user; anything else (ESRCH): it is gone.
    return !(error instanceof Error && 'code' in error && error.code === 'EPERM');
  }
}

export async function otherConsoles(state: HostState, now = Date.now()): Promise<OtherConsole[]> {
  const { store, engine } = state.runtime;
  const liveSince = now - 3 * engine.heartbeats.intervalMs;
  let docs;
  try {
    docs = await store.collection('wfe_workers').find({ heartbeatAt: { $gte: liveSince } }, { limit: 200 });
  } catch (error) {
    // A store that cannot be read (stopped: emptied or damaged) is the one a restore repairs: no console can work on it.
    state.logger.warn({ component: 'store' }, `the heartbeats on ${store.location} cannot be read before a restore (${errorMessage(error)}): no other console is known`);
    return [];
  }
  return docs
    .map((doc) => ({
      serverId: String(doc._id),
      host: typeof doc.host === 'string' ? doc.host : '',
      pid: typeof doc.pid === 'number' ? doc.pid : undefined,
      heartbeatAt: Number(doc.heartbeatAt ?? 0),
    }))
    .filter((beat) => beat.serverId !== state.serverId && !processGone(beat.pid, beat.host));
}
