// The vendor's own documented input/output examples for its public JST documents (issue 41). The
// vendor's transformation projects (pre-builts such as "IAP - Data Manipulation") document each
// transformation in `documentation/<name>.json`: its `entryPoint` (the transformation's name) and
// `exampleInputsAndOutputs`, each an example input (the incoming values) and the output the service
// answered. Oracle: those documented outputs. Every folder under the shared corpus holding such
// documentation next to its `bundles/transformations/*.json` is run, through the interpreter and the
// compiled steps; the console's own fixtures (test/fixtures/vendor-examples, written from the
// documented behaviour, in the same shape) always run, so the runner itself is checked on a checkout
// without the corpus. A transformation that calls Math.random can only be checked for its shape.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileTransformation } from '../../core/transformations/compiled';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument } from '../../core/transformations/types';
import { CORPUS_DIR, corpusPresent, noteCorpusSkip } from '../support/corpus';

const ORACLE = "the vendor's documented example outputs";
/** The shared corpus, the console's fixtures, and VENDOR_EXAMPLES (a folder of vendor projects a checker adds). */
const ROOTS = [path.dirname(CORPUS_DIR), path.resolve(import.meta.dirname, '../fixtures/vendor-examples'), ...(process.env.VENDOR_EXAMPLES ? [path.resolve(process.env.VENDOR_EXAMPLES)] : [])];

interface Example {
  project: string;
  name: string;
  doc: JstDocument;
  input: Record<string, unknown>;
  output: unknown;
  n: number;
}

/** The folders under `root` holding a `documentation` folder (a transformation project, a pre-built). */
function projects(root: string, depth = 0, out: string[] = []): string[] {
  if (!existsSync(root) || depth > 6) return out;
  for (const entry of readdirSync(root)) {
    const at = path.join(root, entry);
    if (!statSync(at).isDirectory()) continue;
    if (entry === 'documentation') out.push(root);
    else if (entry !== 'node_modules' && !entry.startsWith('.')) projects(at, depth + 1, out);
  }
  return out;
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The transformations of a project by name (its bundles, wherever they are below it). */
function transformations(project: string): Map<string, JstDocument> {
  const byName = new Map<string, JstDocument>();
  const walk = (dir: string, depth: number) => {
    if (depth > 4) return;
    for (const entry of readdirSync(dir)) {
      const at = path.join(dir, entry);
      if (statSync(at).isDirectory()) walk(at, depth + 1);
      else if (entry.endsWith('.json') && dir.includes(`${path.sep}transformations`)) {
        const doc = readJson(at);
        if (isObject(doc) && typeof doc.name === 'string' && Array.isArray(doc.steps)) byName.set(doc.name, doc as JstDocument);
      }
    }
  };
  const bundles = path.join(project, 'bundles');
  if (existsSync(bundles)) walk(bundles, 0);
  return byName;
}

function examples(): { found: Example[]; missing: string[] } {
  const found: Example[] = [];
  const missing: string[] = [];
  for (const project of ROOTS.flatMap((root) => projects(root))) {
    const docs = transformations(project);
    for (const file of readdirSync(path.join(project, 'documentation')).filter((f) => f.endsWith('.json'))) {
      const page = readJson(path.join(project, 'documentation', file));
      if (!isObject(page) || !Array.isArray(page.exampleInputsAndOutputs)) continue;
      const entry = isObject(page.entryPoint) ? page.entryPoint : {};
      if (entry.type !== 'Transformation' || typeof entry.name !== 'string') continue;
      const doc = docs.get(entry.name);
      if (!doc) {
        missing.push(`${path.basename(project)}: ${entry.name}`);
        continue;
      }
      page.exampleInputsAndOutputs.forEach((example: unknown, n: number) => {
        if (!isObject(example) || typeof example.exampleInput !== 'string' || typeof example.exampleOutput !== 'string') return;
        found.push({ project: path.basename(project), name: entry.name as string, doc, input: JSON.parse(example.exampleInput) as Record<string, unknown>, output: JSON.parse(example.exampleOutput), n: n + 1 });
      });
    }
  }
  return { found, missing };
}

/** Whether a document (or a function of it) calls Math.random: its output is one of many. */
function random(scope: unknown): boolean {
  if (!isObject(scope)) return false;
  const steps = Array.isArray(scope.steps) ? scope.steps : [];
  return steps.some((s: unknown) => isObject(s) && s.library === 'Math' && s.method === 'random') || (Array.isArray(scope.functions) && scope.functions.some(random));
}

/** The run's answer as the documentation writes it: the one outgoing value alone, else every outgoing value by `$id`. */
function answer(outgoing: Record<string, unknown>, documented: unknown): unknown {
  const [only, ...others] = Object.keys(outgoing);
  const documentedWhole = isObject(documented) && only !== undefined && only in documented && Object.keys(documented).length === 1;
  return only !== undefined && others.length === 0 && !documentedWhole ? outgoing[only] : outgoing;
}

const typeOf = (v: unknown) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

const { found, missing } = examples();
const own = found.filter((e) => e.project === 'Console-Examples');
const others = found.filter((e) => e.project !== 'Console-Examples');
noteCorpusSkip("the vendor's documented examples in the shared corpus");
if (corpusPresent && others.length === 0) console.log(`[vendor examples] no documented vendor examples in the shared corpus (${ROOTS[0]}): only the console's own fixtures run`);
if (missing.length) console.log(`[vendor examples] documentation without its transformation in the bundles, not run: ${missing.join('; ')}`);

function checkExample(example: Example) {
  const interpreted = runTransformation(structuredClone(example.doc), structuredClone(example.input), { validateIncoming: false }).outgoing;
  const compiled = compileTransformation(structuredClone(example.doc)).run(structuredClone(example.input), { validateIncoming: false }).outgoing;
  const got = answer(interpreted, example.output);
  if (random(example.doc)) {
    console.log(`[vendor examples] ${example.name} calls Math.random: its answer is checked for the documented type only`);
    expect(typeOf(got)).toBe(typeOf(example.output));
    return;
  }
  expect(JSON.parse(JSON.stringify(got))).toEqual(example.output);
  expect(JSON.parse(JSON.stringify(answer(compiled, example.output)))).toEqual(example.output);
}

const title = (example: Example) => `${example.project} / ${example.name}, example ${example.n}: interpreted and compiled, the documented output`;

describe(`JST documents answer their documented examples (oracle: ${ORACLE})`, () => {
  it("finds the console's own documented fixtures at least", () => {
    expect(own.map((e) => `${e.name} ${e.n}`)).toEqual(['Label From Unset String 1', 'Pieces of a List 1', 'Pieces of a List 2']);
  });
  for (const example of own) it(title(example), () => checkExample(example));

  // The shared corpus and VENDOR_EXAMPLES: on a clone alone (no ../shared) this part skips, saying why above.
  describe.skipIf(!corpusPresent && !process.env.VENDOR_EXAMPLES)('in the shared corpus and VENDOR_EXAMPLES', () => {
    if (others.length === 0) it.skip(`no documented vendor examples under ${ROOTS[0]}: nothing of the corpus to run`, () => undefined);
    for (const example of others) it(title(example), () => checkExample(example));
  });
});
