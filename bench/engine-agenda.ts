// One-task jobs per second: this engine, then Agenda (6, MongoDB backend), on one jongodb
// wire test server, both polling every 100 ms with 8 tasks at once (BENCH_AGENDA_JOBS, 200);
// and the same starts with no worker on a fresh database, a ceiling for this engine there.
import { performance } from 'node:perf_hooks';
import { Engine } from '../core/engine/index';
import { openMongoStore } from '../core/store/mongodb/store';
import { jongodbBinary, startJongodb } from '../test/store/jongodb';
import { stepsWorkflow } from '../test/store/support/steps';
import { createEngineIndexes, round, until } from './engine-support';

export const AGENDA_JOBS = Number(process.env.BENCH_AGENDA_JOBS ?? 200);

/** One-task jobs per second: this engine, then Agenda, on one jongodb server. */
export async function oneTaskJobsBesideAgenda(): Promise<{ engineJobsPerSecond: number; agendaJobsPerSecond: number; startsPerSecond: number } | { unavailable: string }> {
  const found = jongodbBinary();
  if ('unavailable' in found) return found;
  const server = await startJongodb();
  try {
    const store = openMongoStore({ url: server.url, db: 'bench_one_task' });
    let ours: number;
    try {
      await createEngineIndexes(store);
      await store.collection('workflows').insertOne(stepsWorkflow('one', 1));
      const engine = new Engine({ store, serverId: 'bench', serverName: 'bench', processTasksOnStart: false, worker: { idleMs: 100, concurrency: 8 } });
      await engine.open();
      const jobs = store.collection('jobs');
      const started = performance.now();
      await engine.startWorker();
      for (let i = 0; i < AGENDA_JOBS; i++) await engine.runner.start('one', { variables: { text: `job ${i}` } });
      // Polled every 100 ms: the test server scans for each count, and polling it harder would slow the engine it measures.
      await until('the one-task jobs to complete', async () => (await jobs.count({ status: 'complete' })) === AGENDA_JOBS, 600_000, 100);
      ours = AGENDA_JOBS / ((performance.now() - started) / 1000);
      await engine.close();
    } finally {
      await store.close();
    }
    // The same starts with no worker, on a fresh database: what starting a job costs on this server alone
    // (its job document and its first task records, in two collections), a ceiling for the figure above.
    const alone = openMongoStore({ url: server.url, db: 'bench_starts' });
    let startsPerSecond: number;
    try {
      await createEngineIndexes(alone);
      await alone.collection('workflows').insertOne(stepsWorkflow('one', 1));
      const starter = new Engine({ store: alone, serverId: 'starter', serverName: 'starter', processTasksOnStart: false });
      const started = performance.now();
      for (let i = 0; i < AGENDA_JOBS; i++) await starter.runner.start('one', { variables: { text: `job ${i}` } });
      startsPerSecond = AGENDA_JOBS / ((performance.now() - started) / 1000);
      await starter.close();
    } finally {
      await alone.close();
    }

    const { Agenda } = await import('agenda');
    const { MongoBackend } = await import('@agendajs/mongo-backend');
    const agenda = new Agenda({ backend: new MongoBackend({ address: `${server.url}/bench_agenda` }), processEvery: 100, defaultConcurrency: 8, maxConcurrency: 8 });
    let done = 0;
    let finished!: () => void;
    const all = new Promise<void>((resolve) => (finished = resolve));
    agenda.define('one', async (job: { attrs: { data: { text: string } } }) => {
      void String(job.attrs.data.text).toUpperCase();
      if (++done === AGENDA_JOBS) finished();
    });
    await agenda.start();
    const started = performance.now();
    for (let i = 0; i < AGENDA_JOBS; i++) await agenda.now('one', { text: `job ${i}` });
    await all;
    const theirs = AGENDA_JOBS / ((performance.now() - started) / 1000);
    await agenda.stop();
    return { engineJobsPerSecond: round(ours, 1), agendaJobsPerSecond: round(theirs, 1), startsPerSecond: round(startsPerSecond, 1) };
  } finally {
    await server.stop();
  }
}
