// A job's run on MongoDB across a network link: jobs of a 10-task workflow, one at a
// time, on the jongodb wire test server behind a link that holds each chunk 1 ms each way
// (BENCH_LINK_DELAY_MS, BENCH_LINK_JOBS, 20). On such a link a task's end costs what its
// round trips cost: the time per task is divided by the link's measured ping.
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine/index';
import type { JobDoc } from '../core/engine/jobs/types';
import { openMongoStore } from '../core/store/mongodb/store';
import { jongodbBinary, startJongodb } from '../test/store/jongodb';
import { stepsWorkflow } from '../test/store/support/steps';
import { createEngineIndexes, percentile, round, until } from './engine-support';
import { slowLink } from './slow-link';

const DELAY_MS = Number(process.env.BENCH_LINK_DELAY_MS ?? 1);
const LINK_JOBS = Number(process.env.BENCH_LINK_JOBS ?? 20);
const TASKS = 10;

export interface LinkFigures {
  delayMs: number;
  pingMs: number;
  /** A 10-task job's start to complete, per task (p50 over the jobs). */
  taskMs: number;
  /** taskMs / pingMs: the round trips a task's run and end wait for. */
  roundTripsPerTask: number;
  jobs: number;
}

export async function jobsOverSlowLink(): Promise<LinkFigures | { unavailable: string }> {
  const found = jongodbBinary();
  if ('unavailable' in found) return found;
  const server = await startJongodb();
  const direct = new URL(server.url);
  const link = await slowLink({ host: direct.hostname, port: Number(direct.port) }, DELAY_MS);
  const store = openMongoStore({ url: `mongodb://127.0.0.1:${link.port}`, db: 'bench_link' });
  const watcher = openMongoStore({ url: server.url, db: 'bench_link' });
  const engine = new Engine({ store, serverId: 'link', serverName: 'link', processTasksOnStart: false, worker: { idleMs: 50 } });
  try {
    await createEngineIndexes(store);
    await store.collection('workflows').insertOne(stepsWorkflow('steps', TASKS));
    const pings: number[] = [];
    for (let i = 0; i < 21; i++) {
      const started = performance.now();
      await store.ping();
      if (i > 0) pings.push(performance.now() - started); // the first opens the connection
    }
    pings.sort((a, b) => a - b);
    const pingMs = percentile(pings, 50);
    await (await engine.open()).startWorker();
    const perTask: number[] = [];
    for (let i = 0; i < LINK_JOBS + 1; i++) {
      const { _id } = await engine.runner.start('steps', { variables: { text: `job ${i}` } });
      let done: JobDoc | null = null;
      // Read on a direct connection: the watching is not on the link the engine waits for.
      await until('the job over the slow link to complete', async () => (done = (await watcher.collection<JobDoc>('jobs').findOne({ _id, status: 'complete' }))) !== null, 60_000, 5);
      const job = done as JobDoc | null;
      if (i > 0) perTask.push((job!.metrics.end_time! - job!.metrics.start_time) / TASKS); // the first job runs cold
    }
    perTask.sort((a, b) => a - b);
    const taskMs = percentile(perTask, 50);
    return { delayMs: DELAY_MS, pingMs: round(pingMs, 2), taskMs: round(taskMs, 1), roundTripsPerTask: round(taskMs / pingMs, 1), jobs: LINK_JOBS };
  } finally {
    await engine.close();
    await store.close();
    await watcher.close();
    await link.close();
    await server.stop();
  }
}
