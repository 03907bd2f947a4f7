#!/usr/bin/env node
// Writes the equal-work section of docs/performance.md (issue 45) from the benches' own JSON,
// between <!-- engine-equal:start --> and <!-- engine-equal:end --> (added after the page's first
// table when absent); the rest of the page is left as it is. Every figure, date, machine and load
// comes from the JSON; only what was decided about each lever is written here (DECISIONS).
//
//   node --import tsx bench/run.ts engine --json --queues-only --equal-only > docs/performance-engine-equal.json
//   node --import tsx bench/run.ts levers --json > docs/performance-levers.json
//   node --import tsx bench/run.ts profile --json > docs/performance-profile.json
//   node scripts/perf-equal.mjs [equal.json] [levers.json] [profile.json] [page.md]
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const START = '<!-- engine-equal:start -->';
export const END = '<!-- engine-equal:end -->';

/** What was done with each lever after it was measured (the figures beside it are the JSON's). */
export const DECISIONS = {
  'array checks asked at every update (as before)': 'the store before this lever. Kept (array-free.ts): the answers are kept inside write transactions, a statement fewer per update (the statement counts below); its gain in time is within this machine\'s noise (runs published before this one: the store as it is ran one-task jobs faster in every round, 10-task jobs mixed)',
  'inline checkpoints': 'not kept: slower one-task jobs in most rounds (every round of the runs published before this one), and a checkpoint on the committing thread is what stalled one task in a hundred for 5-40 ms (checkpoint.ts)',
  'no secure_delete': 'not kept: a security setting (deleted secrets zeroed in the file), measured only to publish its cost',
  'the workflow copy in every job document (as before)': 'the store before this lever. Kept (shared-values.ts): a job\'s tasks and transitions are stored once per value in `_shared`, the document holding a reference in their place (every read gives the document as inserted, field order included; docs/profiles-and-stores.md); about 340 bytes fewer per one-task job (the bytes columns; dbstat of 5,000 one-task jobs: c:jobs 1,029 → 686 bytes per job), still above 1,000: the task record is the larger part now; time and CPU within this machine\'s noise (the ratios and rounds beside it). In JavaScript an insert stringifies the shared values apart (about 2.5 µs more), and an update of a job that touches neither field parses and writes the document without them',
  'one claim per task (as before)': 'the worker before this lever. Kept (queue.claimMany, the store\'s findManyAndUpdate): the worker claims as many queued tasks as it has room for (at most 8) in one write, one statement and one commit on the embedded store; these rounds are a steady stream, where eager dispatch hands each job\'s task over and claims find nothing, so it shows no change here: its gain is on jobs queued before the worker runs (the queued-at-once rows of the table above; by hand, 1.18× jobs/s and 0.90× CPU per job with 1,000 queued, below)',
  'the _id stored beside the document (as before)': 'the store before this lever. Kept (identity.ts ID_COLUMN, schema 3): a new table reads each document\'s `_id` from its text (a virtual generated column held only in its UNIQUE index), not a second copy beside it; with the bench\'s 5-character server id a task row then fits three to a 2 KiB page where two fit before (dbstat of 5,000 one-task jobs: 1,971 → 1,629 bytes per job), with a 36-character (UUID) server id it fits two either way and buys about 30 bytes a row; it costs an update about 3 µs more (the `_id` index entry rewritten), within the noise of these rounds',
  'indexes built descending (as before)': 'the store before this lever. Kept (index-specs.ts createIndexSql): every index is built ascending whatever its key\'s directions (SQLite reads an index backwards), so an index of rising start times fills its pages instead of splitting its first page half empty at every new entry: the Jobs list\'s three start-time indexes 46/40/27 → 27/23/16 bytes per job (1,629 → 1,581 in all); a sort in a key\'s mixed directions with no equality on its leading field is then sorted by SQLite (no query of the console does that); an index built earlier stays as it was',
  "a start's workflow copy encoded at every write (as before)": 'the engine before this lever. Kept (runner.ts, core/values/frozen.ts, shared-values.ts textOf, codec.ts plainText): the job runner freezes the tasks and transitions of the workflow it keeps for starts, so their JSON text is made once and kept by the value, and the references are written into the document as text: encoding a one-task job\'s document 5.34 → 2.28 µs (micro-benchmark); in the engine within the noise (0.94–0.98× CPU per start over 10–11 pairs at load 4–6)',
  'array checks asked at a claim (as before)': 'the store before this lever. Kept (columns.ts, array-free.ts): the answers to "does any document hold an array on this path" are kept outside a write transaction too, while PRAGMA data_version says no other connection committed (a worker\'s claim asked it once per job: 1.02 → 0.01 probes per 10-task job, about 16 µs each); in time within this machine\'s noise (1.03× tasks/s, 0.98× CPU per task over 11 pairs with the other two changes of its section)',
  'a job read at its task\'s run and again at its end (as before)': 'the engine before this lever. Kept (task-run.ts, held.ts, reads.ts, recent.ts, shared-values.ts): a queued task\'s end uses the job its run read while the job\'s change version is unchanged, the records are read with one statement, a job\'s fixed fields are kept for 100,000 jobs, and a read excluding the workflow copy drops its references in JavaScript; these rounds are a steady stream, where eager dispatch hands each job\'s task over, so it shows no change here: its gain is on jobs queued before the worker runs (by hand, the run phase of 10,000 queued jobs 1.28× jobs/s and 0.91× CPU per job, section above)',
  'the job written at its start (as before)': 'the engine before this lever. Kept (executor.ts started, start.ts): where a start is one transaction (the embedded store), the job is written once, after its first advance, as it is then; with its tasks run in the same write (the lever below) a one-task job is two inserts and a commit, no update of the job, and the job never passes through the indexes of running jobs; on MongoDB the job is written first, as a half-started job\'s recovery needs',
  'tasks run by the worker, the job written at its start (as before)': 'the engine before this lever. Kept (in-write.ts): a WorkFlowEngine task the engine runs from its own library (no I/O, no operator, no wait) is run in the write that queues it, written ended, and its job advanced in the same write, up to 16 a write, as BPM engines run service tasks up to a wait state in one transaction; an adapter\'s task, a manual one, a timer, a child job, a transformation or a retry still goes to the worker; the jobs and records are those the worker writes (test/engine/jobs/in-write.test.ts, the worker as oracle)',
};

const number = (n, digits = 0) => (typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');
const times = (n, digits = 2) => (typeof n === 'number' && Number.isFinite(n) ? `${number(n, digits)}×` : '—');
const met = (target) => (target ? (target.met ? 'met' : '**not met**') : '—');

function loads(rounds) {
  const values = rounds.map((r) => r.loadAverage).filter((n) => typeof n === 'number');
  return values.length ? `${number(Math.min(...values), 1)}–${number(Math.max(...values), 1)}` : '—';
}

export function equalSection(f, levers, profile) {
  const t = f.targets ?? {};
  const rounds = Array.isArray(f.rounds) ? f.rounds : [];
  const lines = [
    START,
    '<!-- Written by scripts/perf-equal.mjs from docs/performance-engine-equal.json, performance-levers.json and performance-profile.json: run the benches and the script, do not edit by hand. -->',
    '## Equal work (issue 45)',
    '',
    `Measured ${f.measuredAt} on ${f.machine}, by \`bench/run.ts engine --json --queues-only --equal-only\`: ${f.method}. The machine's 1-minute load average over the rounds: ${loads(rounds)} (2 cores shared with other work: every rate below is lower than on an idle machine, and only figures of one round compare; the ratios are taken within a round).`,
    '',
    '| figure | this engine | equal-work reference | ratio | target | |',
    '|---|---|---|---|---|---|',
    `| one-task jobs, steady stream (enqueue + run) | ${number(f.oneTaskJobsPerSecond)} jobs/s | plainjob ${number(f.plainjobJobsPerSecond)} jobs/s | ${times(f.oneTaskJobsRatioToPlainjob)} | ≥ 0.8× | ${met(t.oneTaskJobsOverPlainjob)} |`,
    ...Object.entries(f.oneTaskJobsQueued ?? {}).map(
      ([n, q]) => `| ${number(Number(n))} one-task jobs queued at once, then run | ${number(q.engineJobsPerSecond)} jobs/s | plainjob ${number(q.plainjobJobsPerSecond)} jobs/s | ${times(q.ratio)} (rounds ${q.ratioRounds.map((r) => number(r, 2)).join(', ')}) | ≥ 0.8× | ${met(t[`oneTaskJobsQueued${n}OverPlainjob`])} |`,
    ),
    ...(f.oneTaskJobsQueued?.['100000'] ? [] : ['| 100,000 one-task jobs queued at once, then run | not in this run (`--quick`, for time on the shared machine; the bench runs them without it) | plainjob, the same | — | ≥ 0.8× | not measured |']),
    `| one-task jobs beside a CPU-bound neighbour process | — | plainjob beside the same | ${times(f.oneTaskJobsRatioUnderLoad)} (rounds ${(f.oneTaskJobsRatioUnderLoadRounds ?? []).map((r) => number(r, 2)).join(', ')}) | ≥ 0.8× | ${met(t.oneTaskJobsRatioUnderLoad)} |`,
    `| 10-task jobs, 8 at once | ${number(f.tasksPerSecond)} tasks/s | raw \`node:sqlite\`, the engine's own write pattern: ${number(f.rawSamePatternTasksPerSecond)} tasks/s | ${times(f.tasksOverRawSamePattern, 3)} | ≥ 0.35× | ${met(t.tasksOverRawSamePattern)} |`,
    `| one-task jobs against raw, same pattern | ${number(f.oneTaskJobsPerSecond)} jobs/s | ${number(f.rawSamePatternOneTaskJobsPerSecond)} jobs/s | ${times(f.oneTaskJobsPerSecond / f.rawSamePatternOneTaskJobsPerSecond)} | — | |`,
    `| CPU per one-task job (\`cpuMsPerOneTaskJob\`) | ${number(f.cpuMsPerOneTaskJob, 3)} ms | plainjob ${number(f.plainjobCpuMsPerJob, 3)} ms | ${times(f.cpuMsPerOneTaskJob / f.plainjobCpuMsPerJob)} | ≤ 0.15 ms | ${met(t.cpuMsPerOneTaskJob)} |`,
    `| CPU per task, 10-task jobs (\`cpuMsPerTask\`) | ${number(f.cpuMsPerTask, 3)} ms | — | — | — | |`,
    `| bytes per one-task job on disk | ${number(f.bytesPerJob)} | plainjob ${number(f.plainjobBytesPerJob)}; raw same pattern ${number(f.rawSamePatternBytesPerOneTaskJob)} | ${times(f.bytesPerJob / f.plainjobBytesPerJob)} | ≤ 1,000 | ${met(t.bytesPerJob)} |`,
    '',
    'The raw reference (bench/engine-raw.ts) takes the engine\'s tables, indexes, row-count triggers, file settings and stored documents from a file the engine wrote, and runs for each job the write statements the engine runs for the bench\'s built-in tasks, which it runs in the write that queues them (core/engine/jobs/in-write.ts): in one transaction, a task insert per task as the record ended and one job insert as the job ended, a commit per job as each of the engine\'s starts makes when its caller waits for the answer, with the engine\'s documents and ObjectId ids (its rows land two task records to a 2 KiB page where the engine\'s land three, hence more bytes; before this run the reference ran the engine\'s earlier pattern: claim, completing updates, job update, 8 tasks a commit, 4-character ids). Bytes on disk are the closed file over the jobs it holds, so a short round carries the schema\'s fixed pages too.',
    '',
    `Every round (${rounds.length}), with the 1-minute load average at its end and the CPU time the hypervisor stole during it:`,
    '',
    '| round | system | rate | items | seconds | CPU ms each | bytes each | load | steal % |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rounds.map((r) => `| ${r.round} | ${r.system} | ${number(r.perSecond)}/s | ${number(r.items)} | ${number(r.seconds, 1)} | ${number(r.cpuMsPerItem, 3)} | ${number(r.bytesPerItem)} | ${number(r.loadAverage, 2)} | ${number(r.stealPercent, 2)} |`),
  ];
  if (levers?.levers) {
    lines.push(
      '',
      '### Levers weighed',
      '',
      `Measured ${levers.machine ? `on ${levers.machine}` : ''} by \`bench/run.ts levers --json\` (bench/engine-levers.ts): ${levers.method}. Load ${loads(levers.rounds ?? [])}.`,
      '',
      '| lever | one-task jobs/s | ratio | 10-task tasks/s | ratio | CPU ms per one-task job | ratio | bytes per one-task job | what was done |',
      '|---|---|---|---|---|---|---|---|---|',
      ...levers.levers.map(
        (l) => `| ${l.lever} | ${number(l.oneTaskJobsPerSecond)} | ${times(l.oneTaskRatioToStore)} | ${number(l.tenTaskTasksPerSecond)} | ${times(l.tenTaskRatioToStore)} | ${number(l.cpuMsPerOneTaskJob, 3)} | ${times(l.cpuRatioToStore)} | ${number(l.bytesPerOneTaskJob)} | ${DECISIONS[l.lever] ?? 'the baseline'} |`,
      ),
      '',
      '| round | lever | one-task jobs/s | CPU ms each | bytes each | 10-task tasks/s | load |',
      '|---|---|---|---|---|---|---|',
      ...(levers.rounds ?? []).map((r) => `| ${r.round} | ${r.lever} | ${number(r.oneTaskJobsPerSecond)} | ${number(r.cpuMsPerOneTaskJob, 3)} | ${number(r.bytesPerOneTaskJob)} | ${number(r.tenTaskTasksPerSecond)} | ${number(r.loadAverage, 2)} |`),
    );
  }
  if (profile?.oneTask) {
    const part = (p, name) => p.parts.find((x) => x.part === name)?.percent;
    const names = [...new Set([...profile.oneTask.parts, ...profile.tenTask.parts].map((p) => p.part))];
    lines.push(
      '',
      '### Where the time goes',
      '',
      `From \`bench/run.ts profile --json\` (bench/engine-profile.ts): ${profile.method}; load ${number(profile.loadAverage, 2)} at its end. Share of the sampled time (self time, by part of the code):`,
      '',
      `| part | one-task jobs (${number(profile.oneTask.perSecond)} tasks/s) | 10-task jobs (${number(profile.tenTask.perSecond)} tasks/s) |`,
      '|---|---|---|',
      ...names.map((n) => `| ${n} | ${number(part(profile.oneTask, n), 1)} % | ${number(part(profile.tenTask, n), 1)} % |`),
      '',
      'The functions with the most self time, one-task jobs:',
      '',
      ...profile.oneTask.topFunctions.map((fn) => `- ${number(fn.percent, 1)} % \`${fn.name}\``),
    );
    if (profile.statements) {
      const kinds = (s) =>
        Object.entries(s.byKind)
          .filter(([, n]) => n >= 0.1)
          .map(([kind, n]) => `${number(n, 2)} \`${kind}\``)
          .join(', ');
      lines.push(
        '',
        `SQLite statements per job (counted over a round of their own on a fresh file: its opening, its index creation and the bench's polls of the running count included; kinds of at least 0.1 per job shown): one-task jobs ${number(profile.statements.oneTask.perJob, 1)} (${kinds(profile.statements.oneTask)}); 10-task jobs ${number(profile.statements.tenTask.perJob, 1)} (${kinds(profile.statements.tenTask)}).`,
      );
    }
  }
  lines.push(END);
  return lines.join('\n');
}

/** `page` with the section replaced, or inserted after the page's first table. */
export function withEqualSection(page, section) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start >= 0 && end > start) return page.slice(0, start) + section + page.slice(end + END.length);
  const firstTable = page.search(/\n\n(?!\|)/m);
  const tableEnd = page.indexOf('\n\n', page.indexOf('\n|'));
  const at = tableEnd > 0 ? tableEnd : firstTable > 0 ? firstTable : page.length;
  return `${page.slice(0, at)}\n\n${section}${page.slice(at)}`;
}

function main() {
  const [equalFile = path.join(ROOT, 'docs/performance-engine-equal.json'), leversFile = path.join(ROOT, 'docs/performance-levers.json'), profileFile = path.join(ROOT, 'docs/performance-profile.json'), pageFile = path.join(ROOT, 'docs/performance.md')] = process.argv.slice(2);
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
  const figures = read(equalFile);
  if (!figures) throw new Error(`perf-equal: ${equalFile} not found: run the engine bench with --json first`);
  const page = withEqualSection(readFileSync(pageFile, 'utf8'), equalSection(figures, read(leversFile), read(profileFile)));
  const temporary = `${pageFile}.tmp`;
  writeFileSync(temporary, page);
  renameSync(temporary, pageFile);
  console.log(`perf-equal: wrote the equal-work section of ${pageFile}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
