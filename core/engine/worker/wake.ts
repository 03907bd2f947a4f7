// Waking an idle worker when another server queues a task. Where the store offers a
// change stream (MongoDB replica sets and sharded clusters), each task record inserted
// or updated as queued (or resumed: its runAfter moved) wakes the worker at once. Where
// it offers none (the embedded store: the worker polls, backing off from 5 ms to its
// idle limit) or refuses one (a standalone MongoDB answers that change streams need a
// replica set), the poll alone picks up the work; a refusal is logged once, at info.
// An idle worker also wakes when the earliest timer comes due (untilDue).
import type { Logger } from 'pino';
import { StoreError } from '../../store/errors';
import type { Filter, Store } from '../../store/port';
import type { TaskQueue } from '../queue/queue';

/** The change events of the `tasks` collection that mean a task may be claimable now. */
export const QUEUED_EVENTS: Filter = {
  $or: [
    { operationType: { $in: ['insert', 'replace'] }, 'fullDocument.status': 'queued' },
    { operationType: 'update', 'updateDescription.updatedFields.status': 'queued' },
    { operationType: 'update', 'updateDescription.updatedFields.runAfter': { $exists: true } },
  ],
};

export interface QueueWatch {
  /** True while the change stream is open (false once it failed, or where there is none). */
  readonly live: boolean;
  /** The stream failed because the database could not be reached: worth opening again later. */
  readonly retry: boolean;
  close(): Promise<void>;
}

/** Calls `wake` for each task queued by any server, where the store can tell; see above. */
export function watchQueuedTasks(store: Pick<Store, 'watch' | 'location'>, wake: () => void, log: Logger, onRefused?: () => void): QueueWatch {
  if (!store.watch) {
    log.debug({ store: store.location }, 'no change stream on this store: idle workers poll for tasks queued by other servers');
    return { live: false, retry: false, close: async () => undefined };
  }
  let live = true;
  let retry = false;
  const stream = store.watch('tasks', QUEUED_EVENTS, {
    change: wake,
    error: (error) => {
      live = false;
      if (error instanceof StoreError && error.reason === 'unreachable') {
        // Not a refusal: the database is down (the claim loop reports that); polled until it is back.
        retry = true;
        log.debug({ store: store.location, err: error }, `the change stream on tasks is opened again later: ${error.message}`);
        return;
      }
      onRefused?.();
      log.info(
        { store: store.location, err: error },
        `tasks queued by other servers are picked up by polling: the ${store.location} offers no change stream (${error.message})`,
      );
    },
  });
  return {
    get live() {
      return live;
    },
    get retry() {
      return retry;
    },
    close: async () => {
      live = false;
      await stream.close();
    },
  };
}

/**
 * How long an idle worker waits before it polls again: `ms`, or less when a task's timer (or a
 * retry's delay) comes due sooner, so that the task runs at its due time, not up to a poll later.
 */
export async function untilDue(queue: Pick<TaskQueue, 'nextDue'>, ms: number, now = Date.now()): Promise<number> {
  const due = await queue.nextDue(now);
  return due === undefined ? ms : Math.max(0, Math.min(ms, due - now));
}
