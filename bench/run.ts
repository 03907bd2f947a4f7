// `npm run bench` runs every benchmark below and prints the machine first;
// `npm run bench -- store indexes` runs only those named; with `--json`, one JSON
// object is printed ({ machine, <bench>: figures }) and the benches' own lines go to stderr.
// To add a bench: one line in BENCHES, naming a function of your module that runs
// it and returns its results (rows are printed as a table, strings as lines;
// return nothing if it prints for itself).
import { describeMachine } from './machine';

type Bench = (options: { json?: boolean }) => Promise<unknown>;

const BENCHES: Record<string, () => Promise<Bench>> = {
  store: async () => (await import('./store')).benchStore,
  profiles: async () => (await import('./profiles')).benchProfiles,
  indexes: async () => (await import('./indexes')).benchIndexes,
  health: async () => (await import('./health')).benchHealth,
  upgrade: async () => (await import('./upgrade')).benchUpgrade,
  engine: async () => (await import('./queues')).benchEngineWithQueues,
  console: async () => (await import('./console')).benchConsole,
  heavy: async () => (await import('./heavy-requests')).benchHeavyRequests,
  cockpit: async () => (await import('./cockpit')).benchCockpit,
  workflows: async () => (await import('./workflows')).benchWorkflows,
  transformations: async () => (await import('./transformations')).benchTransformations,
  logging: async () => (await import('./logging')).benchLogging,
  drills: async () => (await import('./drills')).benchDrills,
  layouts: async () => (await import('./store-layouts')).benchStoreLayouts,
  levers: async () => (await import('./engine-levers')).benchLevers,
  profile: async () => (await import('./engine-profile')).benchProfile,
  bytes: async () => (await import('./engine-bytes')).benchBytes,
  runtime: async () => (await import('./engine-runtime')).benchRuntime,
  wal: async () => (await import('./engine-wal')).benchWal,
  starts: async () => (await import('./engine-starts')).benchStarts,
  phases: async () => (await import('./engine-queued-phases')).benchQueuedPhases,
};

function print(result: unknown) {
  if (result === undefined || result === null) return;
  if (typeof result === 'string') console.log(result);
  else if (Array.isArray(result) && result.every((r) => typeof r === 'string')) for (const line of result) console.log(line);
  else if (Array.isArray(result)) console.table(result);
  else console.log(result);
}

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(`usage: npm run bench [-- NAME...] [--json] [--rounds N] [--seconds S]

Runs the benchmarks named (every one when none is), each printing its figures, after the machine.

  NAME         one of: ${Object.keys(BENCHES).join(', ')}
  --json       print one JSON object ({ machine, <bench>: figures }) on stdout, the rest on stderr
  --rounds N   the engine bench: alternating rounds (default 5); the phases bench's (default 3)
  --seconds S  the engine bench: seconds per system per round (default 5)
  --quick      the engine bench: no 100,000-job queues; the phases bench: 1,000 jobs, not 10,000
  --equal-only the engine bench: only the systems of its equal-work figures (issue 45)
  --only TEXT  the levers bench: only the levers whose name holds TEXT, beside the store as it is
  RUNTIME_COMPARE_NODE=PATH  the runtime bench: the Node binary to compare this one with (skipped without)
  -h, --help   this help

The engine bench measures this engine against plainjob and liteque (better-sqlite3, a native build).
They are not in the project's install: the first run installs them with npm into
BENCH_PEERS_DIR, else $XDG_CACHE_HOME/automation-console-bench (~/.cache/automation-console-bench),
and skips their rounds, saying why, where that install fails. Figures: docs/performance.md.`);
  process.exit(0);
}
const json = args.includes('--json');
// `--rounds N --seconds S` (the engine bench's) and `--only TEXT` (the levers') take a value.
const wanted = args.filter((a, i) => !a.startsWith('--') && !/^--(rounds|seconds|only)$/.test(args[i - 1] ?? ''));
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`unknown bench ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const out = console.log;
const results: Record<string, unknown> = { machine: describeMachine() };
// In JSON mode stdout carries the one object: everything else goes to stderr.
if (json) console.log = console.error;
console.log(`machine: ${describeMachine()}`);
let failed = false;
for (const [name, load] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  const started = Date.now();
  try {
    const result = await (await load())({ json });
    results[name] = result;
    if (!json) print(result);
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed = true;
    results[name] = { failed: String((error as Error).message ?? error) };
    console.error(`${name} failed: ${(error as Error).stack ?? error}`);
  }
}
if (json) {
  // One bench: its figures at the top level (with the machine); several: one key each.
  const names = Object.keys(results).filter((k) => k !== 'machine');
  const only = names.length === 1 ? results[names[0]!] : undefined;
  out(JSON.stringify(only && typeof only === 'object' && !Array.isArray(only) ? { machine: results.machine, ...only } : results));
}
process.exit(failed ? 1 : 0);
