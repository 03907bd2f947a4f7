#!/usr/bin/env node
// Writes the engine-beside-other-queues table of docs/performance.md from the engine bench's
// JSON (docs/performance-engine.json, the output of `npm run bench -- engine --json`), between
// the markers <!-- engine-bench:start --> and <!-- engine-bench:end --> (added at the end of
// the page when absent); the rest of the page is left as it is. The figures, the date and the
// machine all come from the JSON: nothing here is typed by hand.
//
//   npm run -s bench -- engine --json > docs/performance-engine.json
//   npm run -s bench -- transformations --json > docs/performance-transformations.json
//   node scripts/perf-page.mjs [figures.json] [page.md] [transformations.json]
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const START = '<!-- engine-bench:start -->';
export const END = '<!-- engine-bench:end -->';

const number = (n, digits = 0) => (typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');
const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? `${number(a / b, 2)}×` : '—');
const verdict = (target) => (target ? `${target.met ? 'met' : '**not met**'} (${target.value} against ${target.target})` : '—');

/** The section's markdown, from the bench's JSON figures. */
export function engineSection(f) {
  const rounds = Array.isArray(f.rounds) ? f.rounds : [];
  const t = f.targets ?? {};
  const lines = [
    START,
    '<!-- Written by scripts/perf-page.mjs from docs/performance-engine.json: run the bench and the script, do not edit by hand. -->',
    '### This engine beside the queues a user would pick instead',
    '',
    `Measured ${f.measuredAt ?? '(date not recorded)'} on ${f.machine ?? '(machine not recorded)'}, by \`npm run bench -- engine --json\`: ${f.method ?? ''}.`,
    '',
    '| system | rate (enqueue + run) | CPU ms per item | bytes per job on disk |',
    '|---|---|---|---|',
    `| **this engine, one-task jobs** | **${number(f.oneTaskJobsPerSecond)} jobs/s** (${ratio(f.oneTaskJobsPerSecond, f.plainjobJobsPerSecond)} plainjob, ${ratio(f.oneTaskJobsPerSecond, f.liteQueueJobsPerSecond)} liteque) | ${number(f.cpuMsPerOneTaskJob, 3)} | ${number(f.bytesPerJob)} |`,
    `| **this engine, 10-task jobs, concurrency 8** | **${number(f.tasksPerSecond)} tasks/s** (${ratio(f.tasksPerSecond, f.rawClaimCompletePerSecond)} raw) | ${number(f.cpuMsPerTask, 3)} per task | — |`,
    `| this engine, 10-task jobs, concurrency 1 | ${number(f.tasksPerSecondConcurrency1)} tasks/s | — | — |`,
    `| plainjob (SQLite queue, one job at a time) | ${number(f.plainjobJobsPerSecond)} jobs/s | ${number(f.plainjobCpuMsPerJob, 3)} | ${number(f.plainjobBytesPerJob)} |`,
    `| liteque (SQLite queue, 8 at once) | ${number(f.liteQueueJobsPerSecond)} jobs/s | ${number(f.liteQueueCpuMsPerJob, 3)} | deletes a completed job |`,
    `| raw \`node:sqlite\` insert + claim + complete | ${number(f.rawClaimCompletePerSecond)} items/s (claim + complete alone: ${number(f.rawClaimCompleteOnlyPerSecond)}/s) | ${number(f.rawCpuMsPerItem, 3)} | ${number(f.rawBytesPerItem)} |`,
    ...(f.storeClaimCompleteOnlyPerSecond === undefined ? [] : [`| the store layer's own claim + complete (the engine's task queue, embedded) | claim + complete alone: ${number(f.storeClaimCompleteOnlyPerSecond)}/s (${ratio(f.storeClaimCompleteOnlyPerSecond, f.rawClaimCompleteOnlyPerSecond)} raw's) | — | — |`]),
    '',
    'Targets, same run (each with the target the bench holds it to: issue 32\'s, or issue 45\'s where that one raised it):',
    '',
    `- one-task jobs against plainjob: ${verdict(t.oneTaskJobsOverPlainjob)}`,
    `- 10-task jobs against raw SQLite's insert + claim + complete: ${verdict(t.tasksOverRawClaimComplete)}; against its claim + complete alone: ${verdict(t.tasksOverRawClaimCompleteOnly)}`,
    `- CPU per task (10-task jobs): ${verdict(t.cpuMsPerTask)}; per one-task job: ${verdict(t.cpuMsPerOneTaskJob)}`,
    `- bytes per one-task job on disk: ${verdict(t.bytesPerJob)}`,
    `- the store layer's own claim + complete against raw SQLite's claim + complete alone (one caller, in the same rounds): ${verdict(t.storeOverRawClaimComplete)}`,
    '',
    'Notes: the load average is the 1-minute one at the end of each round; on a machine shared with other work every system is slowed alike within a round, so compare figures of one run, not of two. Every system writes a fresh file on the same disk with WAL and synchronous=NORMAL; the engine\'s store also keeps secure_delete on. liteque 0.8 runs against the better-sqlite3 npm installs today with that library\'s earlier transaction behaviour given back (bench/queues-peers.ts says why). The engine bench\'s other figures (1 worker on prestarted jobs, two workers, Agenda, the slow link, wake-up, fair scheduling) are in the JSON under `engineBench`.',
    '',
    `Every round (${rounds.length}), with the machine's 1-minute load average at its end and the CPU time the hypervisor stole during it:`,
    '',
    '| round | system | rate | items | seconds | CPU ms each | bytes each | load | steal % |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rounds.map((r) => `| ${r.round} | ${r.system} | ${number(r.perSecond)}/s | ${number(r.items)} | ${number(r.seconds, 1)} | ${number(r.cpuMsPerItem, 3)} | ${r.bytesPerItem === undefined ? '—' : number(r.bytesPerItem)} | ${number(r.loadAverage, 2)} | ${r.stealPercent === undefined ? '—' : number(r.stealPercent, 2)} |`),
    END,
  ];
  return lines.join('\n');
}

/**
 * The summary table's rows the engine bench measures (`engineBench` in its JSON), by their first
 * cell: each replaces the page's row that starts with the same cell.
 */
export function summaryRows(f) {
  const e = f.engineBench ?? {};
  const met = (ok) => (ok ? '' : ': **not met**');
  const percent = (n) => (typeof n === 'number' ? `${number(n * 100)} %` : '—');
  const rounds = (list, format) => (Array.isArray(list) ? ` (rounds ${list.map(format).join(', ')})` : '');
  const run = '`npm run bench -- engine` (`engineBench` in its JSON)';
  return [
    ['engine, embedded, 1 worker', '≥ 1,000 tasks/s', `${number(e.tasksPerSecond)} tasks/s${met(e.tasksPerSecond >= 1000)}`, `${run}, median of 3 rounds`],
    ['engine, 2 workers in one process', '≥ 1.5× one', `${number(e.twoWorkersRatio, 2)}×${met(e.twoWorkersRatio >= 1.5)}${rounds(e.twoWorkersRatioRounds, (r) => `${number(r, 2)}×`)}`, "same run, against that round's 1 worker"],
    ['engine, 2 processes on one embedded file', 'safe, both work', `${ratio(e.tasksPerSecondTwoProcesses, e.tasksPerSecond)} one worker; each task done once`, 'same run; the tests count completions'],
    ["engine share of the store's claim+complete rate", '≥ 60 %', `${percent(e.engineShareOfStore)}${met(e.engineShareOfStore >= 0.6)}${rounds(e.engineShareRounds, (r) => percent(r))}`, "same run, store pairs beside the engine"],
    ['claim → done, 1 worker', 'p99 < 20 ms', `p50 ${number(e.p50Ms)} ms, p99 ${number(e.p99Ms)} ms${met(e.p99Ms < 20)}`, run],
    ['one-task jobs vs Agenda, same jongodb server', '≥ 2×', `${number(e.agendaRatio, 2)}×${met(e.agendaRatio >= 2)}`, `${run} (Agenda beside)`],
    ['a task on MongoDB across a network link', '—', `${number(e.mongoLinkTaskMs, 1)} ms per task, ${number(e.mongoLinkRoundTripsPerTask, 1)} pings`, `10-task jobs behind a ${number(e.mongoLinkDelayMs)} ms-each-way link`],
    ["idle worker → first claim of another process's task", 'prompt', `p50 ${number(e.wakeP50Ms)} ms, max ${number(e.wakeMaxMs)} ms`, 'engine runs above, 20 jobs'],
  ].map((cells) => ({ first: `| ${cells[0]} |`, row: `| ${cells.join(' | ')} |` }));
}

/** The page with each summary row the engine bench measures written from its JSON. */
export function withSummaryRows(page, f) {
  const lines = page.split('\n');
  for (const { first, row } of summaryRows(f)) {
    const at = lines.findIndex((line) => line.startsWith(first));
    if (at !== -1) lines[at] = row;
  }
  return lines.join('\n');
}

export const TR_START = '<!-- transformations-bench:start -->';
export const TR_END = '<!-- transformations-bench:end -->';

const met = (value, target) => (typeof value === 'number' ? `${value} (${value >= target ? 'met' : '**not met**'})` : '—');

/** Where the compiled JST's time goes, and what was measured on the way (issue 45). */
const JST_PROSE = [
  "How the compiled form runs: the document's own scope and each nested function made of property reads, new objects and comparisons are written as JavaScript for that document at its second run (`core/transformations/compiled/generate-scope.ts`, `generate.ts`), every name and static value an element of a constants array, never text; its first run, and any scope of another shape, runs as closures over the plan. Before, one set of closures served every document: after a few documents of one shape with other names, their lookup caches held every document's names and each run of any of them was 10–20× slower (the map 0.044×, the six documents 0.047× plain JavaScript in the first run of this bench, load 5–8; the tree before this change and after it, alternating, two runs each of this bench at load 15–26: map 0.047 and 0.047 → 0.204 and 0.261, six documents 0.050 and 0.047 → 0.238 and 0.254, six compilations 0.048 and 0.049 → 0.252 and 0.252). Generated text alone did not help while it was the same text for every document of a shape (names only in the constants): V8 keeps one compiled copy and one set of caches per source text, so each text now carries a random tag (a comment of hex digits). Half of a pick was `Object.getPrototypeOf` asked before the item's first read (V8 then does not know the item's shape); asked after the read it costs almost nothing.",
  '',
  "How sure the figures are: rates are per CPU second of the bench, and each round of the map is compiled and plain JavaScript alternating, but the machine is shared, and whole runs of this bench on one tree move by about 5 % either way, more in a noisy hour. The run above, of the eighth pass's tree (load 0.86–0.90), had two rounds with the compiled map at about 785,000 runs per CPU second against 1.28–1.35 million in the other three (0.1725 and 0.1526 among 0.2743–0.4517); its median is 0.2664. Six interleaved pairs of whole runs of this tree and the one before it read 0.279, 0.2529, 0.1923, 0.2562, 0.3054 and 0.2702 (median 0.263) against 0.2529, 0.2318, 0.2505, 0.2504, 0.2485 and 0.245 (median 0.2495). The map is at its target, with little room.",
  '',
  "What moved it last (issue 45, sixth pass): the time is checked at every 1,024th step instead of every 256th (`TIME_CHECK_MASK`, `core/transformations/run-entry.ts`): a clock read costs about 45 ns, a step of compiled code 1–2 ns, and the 503 steps of the map's run crossed a check its steps counted at once had to make first; and the map step keeps the function it called last instead of looking its name up at every run (`CallSite.scopeCalled`, `compiled/calls.ts`). Measured and not kept: the picked object made as an empty object given its names one by one, or as a copy of a template object (the spread was twice as slow); asking `Object.getPrototypeOf` once per item instead of at each read (twice as slow: V8 then does not know the item's shape at the check).",
  '',
  "What moved last (issue 45, seventh pass): nested functions that compare (an Equality or Relational method of values read at a pointer, the usual `Array.filter` or `find` callback) or that write their outgoing value at names of their own (`/name`, `/value`, a builder a function step calls) are written as one function for their document like the picking map callbacks, and `Array.filter` of such a function runs without a callback per item (`filterAll`). Of the corpus's 23 nested functions, 11 are written instead of 2; Build SG Delete Array runs at 0.16–0.18× plain JavaScript instead of 0.07–0.08× (three interleaved pairs of whole runs of this bench). A first version shared the map step's call with the filter step's (one function, `allAtOnce`): V8 then no longer inlined the map's call into the document's generated code (`--trace-turbo-inlining`: `mapAll` inlined into `runTop` 8 times before, not at all after), and the 50-item map read lower in 9 of 10 interleaved pairs (before 0.2553–0.2726, with it 0.2183–0.2634). The kept version leaves the map's path as it was, byte for byte, gives the filter a function of its own, and maps a function that can decline an item through the general call; in three interleaved pairs the map read 0.2555, 0.2662, 0.2541 against the tree before's 0.2546, 0.2383, 0.2758 (load 1.0–1.1, a noisy hour).",
  '',
  "What moved last (issue 45, eighth pass): a written function makes each new object with a constructor of its names whose prototype is Object.prototype (`function M0(p0, p1) { this[c6] = p0; this[c7] = p1; }`, `core/transformations/compiled/generate.ts`), where it made a literal of computed names (`{ [c6]: t0, [c7]: t1 }`: the names stay constants of the text, so V8 adds them to the object one by one). V8 makes a constructor's objects at their final shape, as a class's instances; what it makes is a plain object (its prototype, its own names in order, its JSON). In a micro-benchmark of the 50-item map's loop: about 290 ns with the computed literal, 245 ns with the constructor, 240 ns with a literal of the names themselves (which would put the document's names in the text). In six interleaved pairs of whole runs of this bench the map read higher in five (medians 0.2495 → 0.263); the six same-shape documents did not move (0.2013–0.2428 before, 0.2195–0.2562 after).",
  '',
  "Where the time goes in the map's 50-item run (CPU profile of 4 s of its runs after every other document of the bench, sampled every 50 µs): the generated map 38 % (each item two keyed reads, the plain-object checks, a new object (of computed names then, about 10 % of the map; made by a constructor of its names since the eighth pass), and the answer's JSON check, about 12 %); the incoming schema check (ajv, item by item, which the plain function does not do) 31 %; the run's start 7 % (most of it the clock read that sets its deadline); the calls between the run, its steps and the map 9 %; garbage collection 5 %. A function of another shape (one that calls a String method, reads its thisArg, or does arithmetic) still runs as closures shared among documents.",
];

/** A table of in-turn rounds (and of documents), when the bench gave them. */
function inTurnRows(title, documents, rounds) {
  if (!Array.isArray(rounds) || rounds.length === 0) return [];
  return [
    '',
    title,
    '',
    ...(Array.isArray(documents) && documents.length > 0 ? ['| document | compiled / plain |', '|---|---|', ...documents.map((d) => `| ${d.document} | ${number(d['compiled / plain'], 4)} |`), ''] : []),
    '| round | compiled / plain | load average |',
    '|---|---|---|',
    ...rounds.map((r) => `| ${r.round} | ${number(r.ratio, 4)} | ${r.loadAverage} |`),
  ];
}

/** The compiled-JST section, from \`npm run bench -- transformations --json\`. */
export function transformationsSection(f) {
  const rows = Array.isArray(f.documents) ? f.documents : [];
  return [
    TR_START,
    '<!-- Written by scripts/perf-page.mjs from docs/performance-transformations.json: run the bench and the script, do not edit by hand. -->',
    '### Compiled JST beside plain JavaScript',
    '',
    `Measured on ${f.machine ?? '(machine not recorded)'} by \`npm run bench -- transformations --json\`. Targets (issue 45), each the median of five rounds in one process, the map timed after every other document has run: the 50-item map at ≥ 0.25× plain JavaScript doing the same: ${met(f.mapRatioToPlainJs, 0.25)}; six documents of the map's shape with other names and items, run in turn, each beside its plain twin (the geometric mean of their ratios) at ≥ 0.2×: ${met(f.sameShapeDocumentsRatioToPlainJs, 0.2)}. The map's document compiled six times and run in turn: ${typeof f.sameDocumentCompiledSixTimesRatioToPlainJs === 'number' ? f.sameDocumentCompiledSixTimesRatioToPlainJs : '—'}.`,
    '',
    ...JST_PROSE,
    '',
    '| document | compiled runs/s | interpreter runs/s | plain JS runs/s | compiled / plain |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.document} | ${number(r['compiled runs/s'])} | ${number(r['interpreter runs/s'])} | ${number(r['plain JS runs/s'])} | ${number(r['compiled / plain'], 4)} |`),
    ...(Array.isArray(f.mapRounds) && f.mapRounds.length > 0
      ? [
          '',
          `The map's rounds (compiled and plain alternating, each timed over 1 s of the clock after a warm-up, its rate in runs per second of the process's CPU time; the figure above is the median of each form over all ${f.mapRounds.length}):`,
          '',
          '| round | compiled runs/s | plain JS runs/s | compiled / plain | load average |',
          '|---|---|---|---|---|',
          ...f.mapRounds.map((r) => `| ${r.round} | ${number(r.compiledRunsPerSecond)} | ${number(r.plainRunsPerSecond)} | ${number(r.ratio, 4)} | ${r.loadAverage} |`),
        ]
      : []),
    ...inTurnRows('The six same-shape documents, each beside its plain twin (0.3 s each after a warm-up), by document (the median of the rounds) and by round (the geometric mean of the six):', f.sameShapeDocuments, f.sameShapeRounds),
    ...inTurnRows("The map's document compiled six times, run in turn:", undefined, f.sameDocumentCompiledSixTimesRounds),
    TR_END,
  ].join('\n');
}

/** The page with its section replaced, or added at the end when it has no markers. */
export function withSection(page, section, start = START, end = END) {
  const at = page.indexOf(start);
  const until = page.indexOf(end);
  if (at !== -1 && until > at) return page.slice(0, at) + section + page.slice(until + end.length);
  return `${page.replace(/\n*$/, '\n')}\n${section}\n`;
}

function main() {
  const [figuresFile = path.join(ROOT, 'docs/performance-engine.json'), pageFile = path.join(ROOT, 'docs/performance.md'), transformationsFile = path.join(ROOT, 'docs/performance-transformations.json')] = process.argv.slice(2);
  const figures = JSON.parse(readFileSync(figuresFile, 'utf8'));
  if (typeof figures.oneTaskJobsPerSecond !== 'number') throw new Error(`${figuresFile} holds no oneTaskJobsPerSecond: is it the output of \`npm run bench -- engine --json\`?`);
  let page = withSummaryRows(withSection(readFileSync(pageFile, 'utf8'), engineSection(figures)), figures);
  // The compiled-JST figures, when their JSON is there (\`npm run -s bench -- transformations --json > docs/performance-transformations.json\`).
  if (existsSync(transformationsFile)) {
    const transformations = JSON.parse(readFileSync(transformationsFile, 'utf8'));
    if (typeof transformations.mapRatioToPlainJs !== 'number') throw new Error(`${transformationsFile} holds no mapRatioToPlainJs: is it the output of \`npm run bench -- transformations --json\`?`);
    page = withSection(page, transformationsSection(transformations), TR_START, TR_END);
  }
  // Written beside, then renamed over: the page is never left half written.
  const temporary = `${pageFile}.${process.pid}.tmp`;
  writeFileSync(temporary, page);
  renameSync(temporary, pageFile);
  console.log(`${path.relative(ROOT, pageFile)}: engine bench section written from ${path.relative(ROOT, figuresFile)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
