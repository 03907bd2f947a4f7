// The store layer's own claim + complete, as a system of the queues bench (queues.ts): what
// the engine's task queue does per task (claim the oldest queued record, then write its end
// fenced by worker and attempt), on the embedded store with the engine's indexes, measured in
// the same alternating rounds as raw node:sqlite's claim + complete (queues-peers.ts) and in
// the same way: batches of BATCH records inserted, then claimed and completed one by one, the
// claims' and completions' time alone counted.
import { TaskQueue, type TaskRecord } from '../core/engine/queue/queue';
import { tempStore } from './engine-support';
import { BATCH, yieldToWorkers, type Work } from './queues-peers';

export async function storeLayerRound(seconds: number): Promise<Work> {
  const t = await tempStore();
  try {
    const queue = new TaskQueue(t.store);
    const tasks = t.store.collection<TaskRecord>('tasks');
    const started = performance.now();
    let items = 0;
    let claimCompleteMs = 0;
    while (performance.now() - started < seconds * 1000) {
      const now = Date.now();
      await tasks.insertMany(
        Array.from({ length: BATCH }, (_, k) => {
          const i = items + k;
          return { _id: `r${i}`, jobId: `j${i % 50}`, taskId: `t${i}`, iteration: 0, name: 'toUpperCase', app: 'WorkFlowEngine', type: 'automatic', status: 'queued', queuedAt: now + k, runAfter: now, attempt: 0, incoming: { str: `job ${i}` }, metrics: {} };
        }),
      );
      const claiming = performance.now();
      for (let record = await queue.claim('w1', 30_000); record; record = await queue.claim('w1', 30_000)) {
        const text = String(record.incoming?.str).toUpperCase();
        await queue.complete({ _id: record._id, workerId: 'w1', attempt: record.attempt }, { status: 'complete', finishState: 'success', outgoing: { uppercaseString: text }, 'metrics.end_time': Date.now() });
        items++;
      }
      claimCompleteMs += performance.now() - claiming;
      await yieldToWorkers();
    }
    return { items, elapsedMs: performance.now() - started, bytesPerItem: Number.NaN, claimCompleteMs };
  } finally {
    await t.dispose();
  }
}
