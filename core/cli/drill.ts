// `npm run drill -- --lab --jobs 200 [--failure kill|stop] [--failback] [--json] [--mongo-url URL]`:
// runs a disaster-recovery drill in a lab (two headless consoles on this machine on one database),
// prints the report and exits non-zero when a target is missed or a step failed.
import { parseArgs } from 'node:util';
import { runLabDrill } from '../drills/run';
import { reportText } from '../drills/report';

function usage(message: string): never {
  console.error(`drill: ${message}\nusage: npm run drill -- --lab [--jobs N] [--failure kill|stop] [--failback] [--rto-ms N] [--drain-ms N] [--mongo-url URL] [--json]`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      lab: { type: 'boolean' },
      jobs: { type: 'string', default: '200' },
      failure: { type: 'string', default: 'kill' },
      failback: { type: 'boolean' },
      json: { type: 'boolean' },
      'mongo-url': { type: 'string' },
      'rto-ms': { type: 'string' },
      'drain-ms': { type: 'string' },
    },
  }));
} catch (error) {
  usage((error as Error).message);
}
if (!values.lab) usage('only lab drills run from the command line: pass --lab');
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 5000) usage(`--jobs must be a whole number from 1 to 5000, got "${values.jobs}"`);
if (!['kill', 'stop'].includes(values.failure!)) usage(`--failure must be kill (kill -9 of the active site) or stop (its worker and applications stopped), got "${values.failure}"`);
const target = (flag: 'rto-ms' | 'drain-ms') => {
  if (values[flag] === undefined) return undefined;
  const n = Number(values[flag]);
  if (!Number.isFinite(n) || n <= 0) usage(`--${flag} must be a positive number of milliseconds, got "${values[flag]}"`);
  return n;
};

const report = await runLabDrill(
  {
    jobs,
    failure: values.failure as 'kill' | 'stop',
    failback: values.failback === true,
    mongoUrl: values['mongo-url'],
    targets: { rtoMs: target('rto-ms'), drainMs: target('drain-ms') },
  },
  (r) => {
    if (values.json) return;
    const step = r.steps.at(-1);
    if (step) console.error(`${new Date(step.endedAt ?? step.startedAt).toISOString()} ${step.endedAt === null ? '…' : step.ok ? 'ok' : 'FAILED'} ${step.name}${step.detail ? ` — ${step.detail}` : ''}`);
  },
);
console.log(values.json ? JSON.stringify(report, null, 2) : reportText(report));
process.exit(report.passed ? 0 : 1);
