// One round of `npm run bench -- runtime` (engine-runtime.ts), in the child process of one Node:
// a warm-up of each, then one-task jobs of the engine and of plainjob; one JSON line on stdout.
import { engineRound } from './engine-round';
import { plainjobRound } from './queues-peers';
import { round } from './engine-support';

const seconds = Number(process.argv[2] ?? 4);

async function timed<T extends { items: number; elapsedMs: number }>(run: () => Promise<T>) {
  const before = process.cpuUsage();
  const work = await run();
  const used = process.cpuUsage(before);
  return { perSecond: work.items / (work.elapsedMs / 1000), cpuMs: (used.user + used.system) / 1000 / work.items };
}

await engineRound(1, 1, 8);
await plainjobRound(1);
const engine = await timed(() => engineRound(seconds, 1, 8));
const plainjob = await timed(() => plainjobRound(seconds));
console.log(
  JSON.stringify({
    node: process.version,
    engineJobsPerSecond: round(engine.perSecond),
    engineCpuMsPerJob: round(engine.cpuMs, 3),
    plainjobJobsPerSecond: round(plainjob.perSecond),
    plainjobCpuMsPerJob: round(plainjob.cpuMs, 3),
    ratioToPlainjob: round(engine.perSecond / plainjob.perSecond, 3),
  }),
);
