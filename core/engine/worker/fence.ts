// Declaring a failed server gone (failover): once its heartbeat has stopped, the tasks its
// workers held are queued again at once instead of after their lease (30 s). Each is re-queued
// on its attempt, so a late write of the gone server (it was only cut off) matches nothing: the
// queue's fencing token (worker id and attempt) has moved on, and no task completes twice.
import { ConsoleError } from '../../errors';
import type { Collection } from '../../store/port';

export interface FenceAnswer {
  serverId: string;
  /** The server's last heartbeat (ms since epoch), or null when it never beat. */
  heartbeatAt: number | null;
  requeued: number;
}

/** A beat missed: older than one interval and a little (a beat may be late by a write). */
export const stoppedAfter = (intervalMs: number) => intervalMs + Math.min(1000, Math.floor(intervalMs / 5));

export interface FenceDeps {
  beats: Collection;
  /** Queues again the running tasks of the server's workers (the runner's requeueTasksOf); how many. */
  requeue(serverId: string, now: number): Promise<number>;
  selfId: string;
  intervalMs: number;
}

export async function fenceServer(deps: FenceDeps, serverId: string, now = Date.now()): Promise<FenceAnswer> {
  if (serverId === deps.selfId) throw new ConsoleError('bad_input', `serverId: "${serverId}" is this server; declare the failed site gone from the standby`);
  const beat = await deps.beats.findOne({ _id: serverId });
  const heartbeatAt = beat && typeof beat.heartbeatAt === 'number' ? beat.heartbeatAt : null;
  const age = heartbeatAt === null ? Infinity : now - heartbeatAt;
  if (age < stoppedAfter(deps.intervalMs)) {
    throw new ConsoleError('conflict', `server "${serverId}" beat ${age} ms ago: its heartbeat has not stopped, so its tasks are not taken from it (try again after ${stoppedAfter(deps.intervalMs) - age} ms)`);
  }
  const requeued = await deps.requeue(serverId, now);
  return { serverId, heartbeatAt, requeued };
}
