// Transformations: documents run per second for the project's own JST documents (the 50-item
// map of bench/fixtures, one of test/fixtures/iap) and two mid-size real JST documents of the
// corpus (read at run time from ../shared/corpus/iap, skipped with the reason when it is
// absent), beside a plain JavaScript function doing the same mapping in the same run.
// "compiled" is the form the service runs (compiled.ts, once per revision); "interpreter"
// reuses the document's plan; "interpreter, fresh doc" reads a new copy of the document each
// run, as a task that loads it from the store would. Every run checks its incoming values
// against the schemas, as the service does by default; the plain function checks nothing.
// The documents run in one process in this order, so no figure is taken from a process that
// ran only its own document: the other documents; six documents of the map's shape with other
// names and items (bench/transformations-shapes.ts), in turn, each beside its plain twin; the
// map's document compiled six times, run in turn; then the map itself.
// Rates are runs per second of the process's CPU time (see perSecond). The figures (each the
// median of five rounds, every round printed with its load average):
// `mapRatioToPlainJs`, compiled runs/s over plain runs/s on the map;
// `sameShapeDocumentsRatioToPlainJs`, in each round the geometric mean of the six documents'
// ratios; `sameDocumentCompiledSixTimesRatioToPlainJs`, the same for the six compilations.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compileTransformation } from '../core/transformations/compiled';
import { runTransformation } from '../core/transformations/interpreter';
import type { JstDocument } from '../core/transformations/types';
import { sameShapeCases } from './transformations-shapes';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus/iap/prebuilts');
const FIXTURES = path.resolve(import.meta.dirname, '../test/fixtures/iap/prebuilts');

function load(file: string): JstDocument {
  return JSON.parse(readFileSync(file, 'utf8')) as JstDocument;
}

const BENCH_FIXTURES = path.resolve(import.meta.dirname, 'fixtures');

// Each answer is kept, so the engine cannot drop work whose result nobody reads.
let kept: unknown;

/**
 * Runs per second of the process's CPU time (user and system, process.cpuUsage) over about `minMs`
 * of the clock: on a machine shared with other processes, a span in which the bench was not given
 * the core counts for neither form, so the ratio of two forms is not the luck of the scheduler.
 */
function perSecond(run: () => unknown, minMs = 1_000): number {
  // Warmed up for a fifth of the timed span, so each form is timed once the engine has optimised it.
  const warm = performance.now();
  while (performance.now() - warm < minMs / 5) for (let i = 0; i < 100; i++) kept = run();
  let n = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - started < minMs) {
    for (let i = 0; i < 100; i++) kept = run();
    n += 100;
  }
  const used = process.cpuUsage(cpu);
  return (n / (used.user + used.system)) * 1e6;
}

interface Case {
  name: string;
  /** The document's file, in the corpus or the project's fixtures. */
  file: string;
  incoming: Record<string, unknown>;
  plain: (incoming: Record<string, unknown>) => Record<string, unknown>;
}

const groups = Array.from({ length: 50 }, (_, i) => ({ groupId: `sg-${i}`, groupName: i === 0 ? 'default' : `group-${i}`, description: 'x' }));

const STATES: Record<string, number> = { new: -5, assess: -4, authorize: -3, scheduled: -2, implement: -1, review: 0, closed: -6, canceled: -7 };

const FIXTURE_STATES: Record<string, number> = { draft: 1, review: 2, approved: 3, scheduled: 4, done: 5, withdrawn: 9 };

const items = Array.from({ length: 50 }, (_, i) => ({ id: `item-${i}`, name: `name ${i}`, size: i }));

const MAP_CASE = 'Summarize Items - Bench (Array.map over 50 items through a nested function; the project\'s own)';

const CASES: Case[] = [
  {
    name: MAP_CASE,
    file: path.join(BENCH_FIXTURES, 'Summarize Items - Bench.json'),
    incoming: { items },
    plain: (incoming) => ({ summaries: (incoming.items as typeof items).map((item) => ({ id: item.id, label: item.name })) }),
  },
  {
    name: 'Build Change Update Payload - Example (8 methods, JSON.parse; the project\'s fixture)',
    file: path.join(FIXTURES, 'Instance-Check-Example/bundles/transformations/Build Change Update Payload - Example.json'),
    incoming: { changeRequest: { response: [{ id: 'chg-1', current_state: '1' }] }, comments: 'done', state: 'Review' },
    plain: (incoming) => {
      const first = (incoming.changeRequest as { response: { id: string; current_state: string }[] }).response[0]!;
      const table = JSON.parse(JSON.stringify(FIXTURE_STATES)) as Record<string, number>;
      return { changeId: first.id, updatePayload: { comments: incoming.comments, state: table[String(incoming.state).toLowerCase()] ?? Number.parseInt(first.current_state) } };
    },
  },
  {
    name: 'Build SG Delete Array (filter + map over 50 groups, 2 nested functions)',
    file: path.join(CORPUS, 'AWS-EC2-REST/bundles/transformations/Build SG Delete Array.json'),
    incoming: { sgResponse: { response: { DescribeSecurityGroupsResponse: { securityGroupInfo: { item: groups } } } } },
    plain: (incoming) => {
      const items = (incoming.sgResponse as { response: { DescribeSecurityGroupsResponse: { securityGroupInfo: { item: typeof groups } } } }).response.DescribeSecurityGroupsResponse.securityGroupInfo.item;
      return { sgDeleteArray: items.filter((g) => g.groupName !== 'default').map((g) => ({ groupId: g.groupId })) };
    },
  },
  {
    name: 'Build CR Update Payload - ServiceNow (8 methods, JSON.parse)',
    file: path.join(CORPUS, 'Kentik-REST-Example/bundles/transformations/Build CR Update Payload - ServiceNow.json'),
    incoming: { changeRequestResponse: { response: [{ id: 'cr1', current_state: '-5' }] }, comments: 'done', state: 'Review' },
    plain: (incoming) => {
      const first = (incoming.changeRequestResponse as { response: { id: string; current_state: string }[] }).response[0]!;
      const table = JSON.parse(JSON.stringify(STATES)) as Record<string, number>;
      return { crSysId: first.id, crUpdatePayload: { comments: incoming.comments, state: table[String(incoming.state).toLowerCase()] ?? Number.parseInt(first.current_state) } };
    },
  },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const geometricMean = (values: number[]) => Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);
const loadAverage = () => Number((os.loadavg()[0] ?? 0).toFixed(2));
const ROUNDS = 5;

interface Twin {
  name: string;
  run: () => unknown;
  plain: () => unknown;
}

/**
 * Documents run in turn in one process, each beside its plain twin, for ROUNDS rounds: in each
 * round every document's compiled rate over its twin's, and their geometric mean. The figure is
 * the median of the rounds' means; each document's own median ratio is listed too.
 */
function inTurn(twins: Twin[], msEach: number) {
  const rounds: { round: number; ratio: number; ratios: number[]; loadAverage: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const ratios = twins.map((t) => {
      const plain = perSecond(t.plain, msEach);
      return perSecond(t.run, msEach) / plain;
    });
    rounds.push({ round: round + 1, ratio: Number(geometricMean(ratios).toFixed(4)), ratios: ratios.map((r) => Number(r.toFixed(4))), loadAverage: loadAverage() });
  }
  const documents = twins.map((t, i) => ({ document: t.name, 'compiled / plain': Number(median(rounds.map((r) => r.ratios[i] ?? NaN)).toFixed(4)) }));
  return { ratio: Number(median(rounds.map((r) => r.ratio)).toFixed(4)), rounds, documents };
}

/** A compiled document's answer, checked against its plain twin's before any timing. */
function checked(name: string, compiled: { run: (incoming: Record<string, unknown>) => { outgoing: unknown } }, incoming: Record<string, unknown>, plain: (incoming: Record<string, unknown>) => unknown): Twin {
  const [a, b] = [JSON.stringify(compiled.run(incoming).outgoing), JSON.stringify(plain(incoming))];
  if (a !== b) throw new Error(`${name}: the compiled form answers ${a}, the plain function ${b}`);
  return { name, run: () => compiled.run(incoming), plain: () => plain(incoming) };
}

export async function benchTransformations(options: { json?: boolean } = {}) {
  const rows: Record<string, unknown>[] = [];
  let mapRatioToPlainJs: number | undefined;
  // The map's rounds, each printed with the load average at its end; the figure is the median of all.
  const mapRounds: { round: number; compiledRunsPerSecond: number; plainRunsPerSecond: number; ratio: number; loadAverage: number }[] = [];
  const skipped: string[] = [];
  // The map last, once the other documents, the six of its shape and its six compilations have run.
  const others = CASES.filter((c) => c.name !== MAP_CASE);
  const mapCase = CASES.find((c) => c.name === MAP_CASE);
  let sameShape: ReturnType<typeof inTurn> | undefined;
  let compiledSixTimes: ReturnType<typeof inTurn> | undefined;
  for (const c of [...others, ...(mapCase ? [mapCase] : [])]) {
    if (!existsSync(c.file)) {
      const why = `skipped: no corpus at ${CORPUS} (the shared corpus of real exports sits beside the project, as ../shared/corpus/iap)`;
      console.warn(`${c.name}: ${why}`);
      skipped.push(`${c.name}: ${why}`);
      rows.push({ document: c.name, 'compiled runs/s': why });
      continue;
    }
    const doc = load(c.file);
    if (c === mapCase) {
      sameShape = inTurn(sameShapeCases().map((s) => checked(s.name, compileTransformation(s.doc), s.incoming, s.plain)), 300);
      compiledSixTimes = inTurn(Array.from({ length: 6 }, (_, i) => checked(`${c.name}, compilation ${i + 1}`, compileTransformation(load(c.file)), c.incoming, c.plain)), 300);
    }
    const text = JSON.stringify(doc);
    const compiled = compileTransformation(doc);
    // Same answer from all three before timing them.
    const a = JSON.stringify(runTransformation(doc, c.incoming).outgoing);
    const b = JSON.stringify(c.plain(c.incoming));
    const d = JSON.stringify(compiled.run(c.incoming).outgoing);
    if (a !== b || a !== d) throw new Error(`${c.name}: the interpreter answers ${a}, the compiled form ${d}, the plain function ${b}`);
    // Alternating rounds, so a busy moment of the machine falls on every form alike; the median of each.
    const rounds = c === mapCase ? ROUNDS : 1;
    const took = { compiled: [] as number[], interpreter: [] as number[], fresh: [] as number[], plain: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      took.plain.push(perSecond(() => c.plain(c.incoming)));
      took.compiled.push(perSecond(() => compiled.run(c.incoming)));
      took.interpreter.push(perSecond(() => runTransformation(doc, c.incoming)));
      took.fresh.push(perSecond(() => runTransformation(JSON.parse(text) as JstDocument, c.incoming)));
      if (c === mapCase) {
        const [compiledRuns, plainRuns] = [took.compiled.at(-1) ?? NaN, took.plain.at(-1) ?? NaN];
        mapRounds.push({ round: round + 1, compiledRunsPerSecond: Math.round(compiledRuns), plainRunsPerSecond: Math.round(plainRuns), ratio: Number((compiledRuns / plainRuns).toFixed(4)), loadAverage: loadAverage() });
      }
    }
    const [comp, interp, fresh, plain] = [median(took.compiled), median(took.interpreter), median(took.fresh), median(took.plain)];
    if (c === mapCase) mapRatioToPlainJs = Number((comp / plain).toFixed(4));
    rows.push({
      document: c.name,
      'compiled runs/s': Math.round(comp),
      'interpreter runs/s': Math.round(interp),
      'interpreter, fresh doc runs/s': Math.round(fresh),
      'plain JS runs/s': Math.round(plain),
      'compiled / plain': Number((comp / plain).toFixed(4)),
      'interpreter / plain': Number((interp / plain).toFixed(4)),
    });
  }
  if (kept === Symbol.for('never')) console.log('(kept)');
  const sameShapeDocumentsRatioToPlainJs = sameShape?.ratio;
  const sameDocumentCompiledSixTimesRatioToPlainJs = compiledSixTimes?.ratio;
  if (!options.json) {
    console.table(rows);
    console.table(mapRounds);
    if (sameShape) {
      console.table(sameShape.documents);
      console.table(sameShape.rounds.map(({ ratios: _ratios, ...r }) => r));
    }
    if (compiledSixTimes) console.table(compiledSixTimes.rounds.map(({ ratios: _ratios, ...r }) => r));
    console.log(`mapRatioToPlainJs: ${mapRatioToPlainJs} (compiled runs/s over plain JavaScript on the 50-item map, timed after the other documents, each form the median of ${mapRounds.length} rounds; the target is >= 0.25)`);
    console.log(`sameShapeDocumentsRatioToPlainJs: ${sameShapeDocumentsRatioToPlainJs} (six documents of the map's shape with other names and items, in turn, each beside its plain twin: the median of ${ROUNDS} rounds' geometric means; the target is >= 0.2)`);
    console.log(`sameDocumentCompiledSixTimesRatioToPlainJs: ${sameDocumentCompiledSixTimesRatioToPlainJs} (the map's document compiled six times, run in turn)`);
    return undefined;
  }
  return {
    mapRatioToPlainJs,
    sameShapeDocumentsRatioToPlainJs,
    sameDocumentCompiledSixTimesRatioToPlainJs,
    mapRounds,
    sameShapeDocuments: sameShape?.documents,
    sameShapeRounds: sameShape?.rounds,
    sameDocumentCompiledSixTimesRounds: compiledSixTimes?.rounds,
    documents: rows,
    skipped,
  };
}
