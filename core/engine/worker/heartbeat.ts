// Heartbeats of the servers on one database (collection `wfe_workers`): each
// server records whether it works tasks, so an operator sees at once whether one
// or two sites (a DR standby by mistake) are working the queue.
import os from 'node:os';
import type { Collection, Store } from '../../store/port';
import { isDuplicateKey } from '../../store/errors';

export interface ServerBeat {
  serverId: string;
  serverName: string;
  taskWorker: boolean;
  heartbeatAt: number;
  /** A beat within the last few intervals: the server is up. */
  alive: boolean;
}

export class Heartbeats {
  readonly collection: Collection;
  constructor(
    store: Store,
    readonly intervalMs = 5_000,
  ) {
    this.collection = store.collection('wfe_workers');
  }

  async beat(serverId: string, serverName: string, taskWorker: boolean, now = Date.now()): Promise<void> {
    // The pid and host say, after a crash, whether the run that wrote the beat is gone (./recover).
    const fields = { serverName, taskWorker, heartbeatAt: now, pid: process.pid, host: os.hostname() };
    const result = await this.collection.updateOne({ _id: serverId }, { $set: fields });
    if (result.matched) return;
    try {
      await this.collection.insertOne({ _id: serverId, ...fields });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.collection.updateOne({ _id: serverId }, { $set: fields });
    }
  }

  async list(now = Date.now()): Promise<ServerBeat[]> {
    const docs = await this.collection.find({}, { sort: { heartbeatAt: -1 }, limit: 200 });
    return docs.map((doc) => ({
      serverId: String(doc._id),
      serverName: String(doc.serverName ?? doc._id),
      taskWorker: doc.taskWorker === true,
      heartbeatAt: Number(doc.heartbeatAt ?? 0),
      alive: Number(doc.heartbeatAt ?? 0) >= now - 3 * this.intervalMs,
    }));
  }
}
