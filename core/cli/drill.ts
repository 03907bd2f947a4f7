// `npm run drill -- --lab --jobs 200 [--failure kill|stop] [--failback] [--json] [--mongo-url URL]`
// runs a disaster-recovery drill in a lab (two headless consoles on this machine on one database);
// `npm run drill -- --site URL=TOKEN --site URL=TOKEN [--failure stop|gone]` runs one between two
// sites (the first active, the second standby); `--load workflows` runs the --workflow names, read
// from the active site, on simulated instances instead of the ledger workflow. Prints the report
// and exits non-zero when a target is missed or a step failed.
import { parseArgs } from 'node:util';
import { runLabDrill } from '../drills/run';
import { runSitesDrill } from '../drills/sites';
import { reportText } from '../drills/report';
import { siteSource, unknownWorkflows } from '../drills/own-workflows';
import { Site } from '../drills/site';
import type { DrillReport, SiteAddress } from '../drills/types';
import { errorMessage } from '../errors';

const USAGE = `usage: npm run drill -- --lab [--jobs N] [--failure kill|stop] [--failback] [--persist] [--rto-ms N] [--drain-ms N] [--mongo-url URL] [--json]
       npm run drill -- --site ACTIVE_URL=TOKEN --site STANDBY_URL=TOKEN [--jobs N] [--failure stop|gone] [--workflow NAME]... [--load ledger|workflows] [--failback] [--persist] [--ledger-host HOST] [--json]`;

const HELP = `${USAGE}

Rehearses a disaster-recovery failover and prints its report (docs/dr-drills.md).

In a lab (--lab): two headless consoles on this machine, on one database (the embedded store,
or MongoDB with --mongo-url), the active one failed while jobs run.
Between two sites (--site twice): the first is the active site, the second the standby, each
given as its console's URL and API token (URL=TOKEN).

  --lab                  run the drill in a lab on this machine
  --site URL=TOKEN       a site: give it twice, the active site first, then the standby
  --jobs N               jobs started before the failure, 1 to 5000 (default 200)
  --failure MODE         lab: kill (kill -9 of the active site, default) or stop (its worker and
                         applications stopped); sites: stop (default) or gone (you cut it off)
  --failback             afterwards, return both sites to their starting state
  --persist              failover also writes processTasksOnStart: true into the standby's
                         active profile, so a restarted standby keeps working tasks
  --load ledger|workflows
                         the drill's own ledger workflow (default), or the --workflow names on
                         simulated adapter instances (sites only)
  --workflow NAME        a workflow of the active site the load runs (repeat)
  --ledger-host HOST     sites: the address the sites reach this drill's ledger at
                         (127.0.0.1 unless given: both sites on this machine)
  --rto-ms N, --drain-ms N
                         the RTO and drain-time targets the report checks, in milliseconds
                         (RTO: below the task lease, 30 s, unless given)
  --mongo-url URL        lab: run both consoles on this MongoDB instead of the embedded store
  --json                 print the report as JSON
  -h, --help             this help

Exit code: 0 when every step passed and every target was met, 1 otherwise, 2 for a usage error.`;

function usage(message: string): never {
  console.error(`drill: ${message}\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      lab: { type: 'boolean' },
      site: { type: 'string', multiple: true },
      workflow: { type: 'string', multiple: true },
      load: { type: 'string' },
      jobs: { type: 'string', default: '200' },
      failure: { type: 'string' },
      failback: { type: 'boolean' },
      persist: { type: 'boolean' },
      json: { type: 'boolean' },
      'mongo-url': { type: 'string' },
      'ledger-host': { type: 'string' },
      'rto-ms': { type: 'string' },
      'drain-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  usage(errorMessage(error));
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const sites = values.site ?? [];
const [activeSite = '', standbySite = ''] = sites;
if (values.lab && sites.length) usage('a drill runs in a lab (--lab) or between two sites (--site twice), not both');
if (!values.lab && sites.length !== 2) usage(sites.length ? `give two sites (--site ACTIVE_URL=TOKEN --site STANDBY_URL=TOKEN), got ${sites.length}` : 'pass --lab, or two --site URL=TOKEN');
const jobs = Number(values.jobs);
if (!Number.isInteger(jobs) || jobs < 1 || jobs > 5000) usage(`--jobs must be a whole number from 1 to 5000, got "${values.jobs}"`);
const failures = values.lab ? ['kill', 'stop'] : ['stop', 'gone'];
const failure = values.failure ?? (values.lab ? 'kill' : 'stop');
if (!failures.includes(failure)) usage(`--failure must be ${values.lab ? 'kill (kill -9 of the active site) or stop (its worker and applications stopped)' : 'stop (its worker and applications stopped over its API) or gone (you cut it off; no call to it afterwards)'}, got "${failure}"`);
const target = (flag: 'rto-ms' | 'drain-ms') => {
  if (values[flag] === undefined) return undefined;
  const n = Number(values[flag]);
  if (!Number.isFinite(n) || n <= 0) usage(`--${flag} must be a positive number of milliseconds, got "${values[flag]}"`);
  return n;
};
function site(arg: string, which: string): SiteAddress {
  const at = arg.indexOf('=');
  const url = (at < 0 ? arg : arg.slice(0, at)).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/]+/.test(url)) usage(`--site (${which}): "${url}" is not an http:// or https:// URL`);
  if (at < 0 || at === arg.length - 1) usage(`--site (${which}): give the API token after the URL: URL=TOKEN`);
  return { url, token: arg.slice(at + 1) };
}

const load = values.load ?? 'ledger';
if (load !== 'ledger' && load !== 'workflows') usage(`--load must be ledger (the drill's own workflow) or workflows (the --workflow names, on simulated adapter instances), got "${load}"`);
if (load === 'workflows' && values.lab) usage('--load workflows: a lab drill from the command line has no console to read workflows from; use the DR Drill page or POST /drills/lab');
if (load === 'workflows' && !values.workflow?.length) usage('--load workflows: name the workflows the load runs (--workflow NAME)');
const active = values.lab ? undefined : site(activeSite, 'active');
// The command line has no console of its own: the workflows are read from the active site.
const source = load === 'workflows' && active ? siteSource(new Site({ name: 'active', ...active })) : undefined;
const unknown = source ? await unknownWorkflows(source, values.workflow ?? []).catch((error: unknown) => usage(`--load workflows: ${errorMessage(error)}`)) : [];
if (unknown.length) usage(`--workflow: the active site has no workflow named ${unknown.map((n) => `"${n}"`).join(', ')}`);

const common = {
  jobs,
  failback: values.failback === true,
  persistProcessTasksOnStart: values.persist === true,
  workflows: values.workflow ?? [],
  targets: { rtoMs: target('rto-ms'), drainMs: target('drain-ms') },
};
const progress = (r: DrillReport) => {
  if (values.json) return;
  const step = r.steps.at(-1);
  if (step) console.error(`${new Date(step.endedAt ?? step.startedAt).toISOString()} ${step.endedAt === null ? '…' : step.ok ? 'ok' : 'FAILED'} ${step.name}${step.detail ? ` — ${step.detail}` : ''}`);
};
const report = values.lab
  ? await runLabDrill({ ...common, failure: failure === 'kill' ? 'kill' : 'stop', mongoUrl: values['mongo-url'] }, progress)
  : await runSitesDrill({ ...common, failure: failure === 'gone' ? 'gone' : 'stop', active: active ?? site(activeSite, 'active'), standby: site(standbySite, 'standby'), ledgerHost: values['ledger-host'], source }, progress);
console.log(values.json ? JSON.stringify(report, null, 2) : reportText(report));
process.exit(report.passed ? 0 : 1);
