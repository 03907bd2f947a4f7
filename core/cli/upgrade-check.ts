// `npm run upgrade-check -- DIR [--json] [--rehearse [--from 2021.1|2021.2]]`: what a site must change before it upgrades to 2022.1.
// With --rehearse, the workflows exported under DIR run under `from` and 2022.1 (core/upgrade/rehearsal).
// A readable report by default, `{ findings, summary }` with --json. Exit code 0 when nothing
// blocks the upgrade, 1 when something does, 2 for a usage error (no DIR, DIR not a folder).
import { parseArgs } from 'node:util';
import { promises as fs } from 'node:fs';
import { formatReport, scanFolder } from '../upgrade';
import { errorMessage } from '../errors';
import { formatRehearsal, rehearseFolder } from '../upgrade/rehearsal/folder';

const USAGE = 'usage: npm run upgrade-check -- DIR [--json] [--rehearse [--from 2021.1|2021.2]]';

const HELP = `${USAGE}

Reads a site's custom applications and adapters, service configs, properties files, shell scripts
and exported workflows under DIR (skipping node_modules and .git) and reports what release 2022.1
changes for them, each finding with its file, line, release-notes section and fix.

  DIR          the folder to check
  --json       print { findings, summary } instead of the readable report
  --rehearse   run the workflows exported under DIR twice instead, under --from and under 2022.1, in a
               scratch store removed afterwards, and report each whose run changes with its first
               divergence (exit code 1 when one does); adapter tasks are not called (the workflow is
               listed as one that could not run: rehearse it on the console with simulated instances)
  --from R     the release the site upgrades from: 2021.1 or 2021.2 (2021.2 unless given)
  -h, --help   this help

Exit code: 0 when nothing blocks the upgrade, 1 when something does, 2 for a usage error.
More: docs/upgrade-check.md.`;

function usage(message: string): never {
  console.error(`upgrade-check: ${message}\n${USAGE}`);
  process.exit(2);
}

export async function upgradeCheck(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false }, rehearse: { type: 'boolean', default: false }, from: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    usage(errorMessage(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (positionals.length === 0) usage('missing DIR: the folder of custom applications, adapters, service configs and workflows to check');
  if (positionals.length > 1) usage(`one DIR at a time, got ${positionals.length}: ${positionals.join(' ')}`);
  const [dir] = positionals;
  if (dir === undefined) usage('missing DIR');
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat) usage(`DIR ${dir} does not exist`);
  if (!stat.isDirectory()) usage(`DIR ${dir} is not a folder`);

  if (values.rehearse) {
    const from = values.from ?? '2021.2';
    if (from !== '2021.1' && from !== '2021.2') usage(`--from must be 2021.1 or 2021.2, got ${from}`);
    const rehearsal = await rehearseFolder(dir, from);
    console.log(values.json ? JSON.stringify(rehearsal, null, 2) : formatRehearsal(rehearsal));
    process.exitCode = rehearsal.differ.length ? 1 : 0;
    return;
  }
  if (values.from !== undefined) usage('--from goes with --rehearse');
  const report = await scanFolder(dir);
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  process.exitCode = report.summary.blocked ? 1 : 0;
}

upgradeCheck(process.argv.slice(2)).catch((error: Error) => {
  console.error(`upgrade-check: ${error.message}`);
  process.exit(2);
});
