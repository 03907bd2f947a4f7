// `npm run bench` runs every benchmark below and prints the machine first;
// `npm run bench -- store indexes` runs only those named.
// To add a bench: one line in BENCHES, naming a function of your module that runs
// it and returns its results (rows are printed as a table, strings as lines;
// return nothing if it prints for itself).
import { describeMachine } from './machine';

type Bench = () => Promise<unknown>;

const BENCHES: Record<string, () => Promise<Bench>> = {
  store: async () => (await import('./store')).benchStore,
  profiles: async () => (await import('./profiles')).benchProfiles,
  indexes: async () => (await import('./indexes')).benchIndexes,
  health: async () => (await import('./health')).benchHealth,
  upgrade: async () => (await import('./upgrade')).benchUpgrade,
  engine: async () => (await import('./engine')).benchEngine,
  cockpit: async () => (await import('./cockpit')).benchCockpit,
  workflows: async () => (await import('./workflows')).benchWorkflows,
  transformations: async () => (await import('./transformations')).benchTransformations,
};

function print(result: unknown) {
  if (result === undefined || result === null) return;
  if (typeof result === 'string') console.log(result);
  else if (Array.isArray(result) && result.every((r) => typeof r === 'string')) for (const line of result) console.log(line);
  else if (Array.isArray(result)) console.table(result);
  else console.log(result);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length) {
  console.error(`unknown bench ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

console.log(`machine: ${describeMachine()}`);
let failed = false;
for (const [name, load] of Object.entries(BENCHES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  const started = Date.now();
  try {
    print(await (await load())());
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed = true;
    console.error(`${name} failed: ${(error as Error).stack ?? error}`);
  }
}
process.exit(failed ? 1 : 0);
