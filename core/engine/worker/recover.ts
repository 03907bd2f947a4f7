// On start, a server takes back at once the tasks that a dead run of itself held: same server
// id (the data directory's), and that run is gone (its heartbeat is stale, or the process that
// beat it no longer exists on this machine). Waiting out their lease (30 s) is then needless.
// Another live process with the same server id (a second console on the same data directory)
// keeps its tasks.
import os from 'node:os';
import type { Collection } from '../../store/port';

/** The server's last heartbeat document (`wfe_workers`), as read. */
export type PreviousBeat = { heartbeatAt?: unknown; pid?: unknown; host?: unknown; [field: string]: unknown };

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/** Whether the run that wrote this beat is gone. */
export function previousRunGone(beat: PreviousBeat | null, staleAfterMs: number, now = Date.now()): boolean {
  if (!beat) return true;
  if (typeof beat.heartbeatAt !== 'number' || beat.heartbeatAt < now - staleAfterMs) return true;
  const pid = typeof beat.pid === 'number' ? beat.pid : undefined;
  if (pid === undefined || beat.host !== os.hostname()) return false;
  return pid !== process.pid && !processExists(pid);
}

/** Re-queues the running tasks held by workers of `serverId` other than `currentWorkerId`; returns how many. */
export async function requeueTasksOf(tasks: Collection, serverId: string, currentWorkerId: string, now = Date.now()): Promise<number> {
  let count = 0;
  // A task a worker holds has a lease: the lease index finds them (the claim index holds queued tasks only).
  for (const record of await tasks.find({ status: 'running', leaseUntil: { $gt: 0 } })) {
    const workerId = typeof record.workerId === 'string' ? record.workerId : '';
    if (!workerId.startsWith(`${serverId}:`) || workerId === currentWorkerId) continue;
    const result = await tasks.updateOne(
      { _id: record._id, status: 'running', workerId, attempt: record.attempt },
      { $set: { status: 'queued', runAfter: now }, $unset: { workerId: '', leaseUntil: '' } },
    );
    count += result.modified;
  }
  return count;
}
