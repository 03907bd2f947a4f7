// A console process working tasks from an embedded database file shared with
// others: the child of the shared-file tests and of `npm run bench -- engine`.
// argv: <db dir> <file> <server id> [concurrency] [lease ms]. Prints `working` once it works,
// then `ran <job text>/<step>` as each task of `stepsWorkflow` ends, and on SIGTERM
// `longest stall <ms>`: the longest its event loop was held up (requests and tasks waited).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openEmbeddedStore } from '../../../core/store/embedded/store';
import { Engine } from '../../../core/engine/index';
import type { TaskMethodRunner } from '../../../core/engine/jobs/execute';

const [dir, file, serverId, concurrency, lease] = process.argv.slice(2);
const store = await openEmbeddedStore(dir!, { file });
const lines: string[] = [];
const flush = () => {
  if (lines.length) process.stdout.write(lines.splice(0).join(''));
};
setInterval(flush, 20);
const upper: TaskMethodRunner = async (task, incoming) => {
  const value = String(incoming.str).toUpperCase();
  lines.push(`ran ${String(incoming.str)}/${String(incoming.step)}\n`);
  return { state: 'success', outgoing: Object.fromEntries(Object.keys(task.variables?.outgoing ?? { uppercaseString: 1 }).map((k) => [k, value])) };
};
const engine = new Engine({
  store,
  serverId: serverId!,
  serverName: serverId!,
  processTasksOnStart: true,
  runMethod: upper,
  worker: { concurrency: Number(concurrency ?? 4), leaseMs: Number(lease ?? 1500), idleMs: 20, onError: (error) => console.error(`worker error: ${(error as Error).stack ?? error}`) },
  heartbeatMs: 500,
});
await engine.open();
const stalls = monitorEventLoopDelay({ resolution: 1 });
stalls.enable();
console.log(`working ${engine.worker.workerId}`);
process.on('SIGTERM', () => {
  lines.push(`longest stall ${(stalls.max / 1e6).toFixed(1)}\n`);
  flush();
  void engine.close().then(() => store.close()).then(() => process.exit(0));
});
