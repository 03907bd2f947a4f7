// The engine and plainjob on two Node runtimes (`npm run bench -- runtime`): the Node that runs
// this bench (the project's own, Node 24: the major the desktop app's Electron runs the engine on)
// and the one RUNTIME_COMPARE_NODE names (a Node 22 binary, say). Each round runs, in a child
// process of each runtime in turn (the order turned each round), a warm-up then one-task jobs of
// the engine (8 at once, enqueue + run, as engine-round.ts) and of plainjob, alternating; the ratio
// engine/plainjob is taken within a child, and each runtime's median over the rounds reported.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round } from './engine-support';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROUND_SCRIPT = path.join(HERE, 'engine-runtime-round.ts');

interface RuntimeRound {
  node: string;
  round: number;
  engineJobsPerSecond: number;
  engineCpuMsPerJob: number;
  plainjobJobsPerSecond: number;
  plainjobCpuMsPerJob: number;
  ratioToPlainjob: number;
  loadAverage: number;
}

function runRound(node: string, seconds: number): Omit<RuntimeRound, 'round' | 'loadAverage'> {
  const run = spawnSync(node, ['--import', 'tsx', ROUND_SCRIPT, String(seconds)], { encoding: 'utf8', cwd: path.resolve(HERE, '..') });
  if (run.status !== 0) throw new Error(`bench: the round on ${node} failed (exit ${String(run.status ?? run.signal)}): ${run.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as Omit<RuntimeRound, 'round' | 'loadAverage'>;
}

export async function benchRuntime(): Promise<object> {
  const other = process.env.RUNTIME_COMPARE_NODE;
  if (!other) return { skipped: 'set RUNTIME_COMPARE_NODE to a Node binary (Node 22, say) to compare the engine on it with the Node running this bench' };
  const argv = process.argv.slice(2);
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 4;
  const seconds = argv.includes('--seconds') ? Number(argv[argv.indexOf('--seconds') + 1]) : 4;
  const nodes = [process.execPath, other];
  const rows: RuntimeRound[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[(r + k) % nodes.length]!;
      const row = { ...runRound(node, seconds), round: r + 1, loadAverage: round(os.loadavg()[0] ?? 0, 2) };
      rows.push(row);
      console.log(`round ${row.round} ${row.node}: engine ${row.engineJobsPerSecond} jobs/s (${row.engineCpuMsPerJob} CPU ms), plainjob ${row.plainjobJobsPerSecond} jobs/s (${row.plainjobCpuMsPerJob}), ratio ${row.ratioToPlainjob}; load ${row.loadAverage}`);
    }
  }
  const versions = [...new Set(rows.map((r) => r.node))];
  return {
    runtimes: versions.map((node) => {
      const mine = rows.filter((r) => r.node === node);
      return {
        node,
        engineJobsPerSecond: median(mine.map((r) => r.engineJobsPerSecond)),
        engineCpuMsPerJob: median(mine.map((r) => r.engineCpuMsPerJob)),
        plainjobJobsPerSecond: median(mine.map((r) => r.plainjobJobsPerSecond)),
        ratioToPlainjob: median(mine.map((r) => r.ratioToPlainjob)),
      };
    }),
    rounds: rows,
    method: `${rounds} rounds, each runtime once per round in a child process (order turned): a warm-up, then ${seconds} s of one-task jobs of the engine (8 at once, enqueue + run) and ${seconds} s of plainjob; medians of the rounds`,
  };
}
