// What a method step gives as its `/return`, as the service gives it: real documents
// read sub-pointers of it (`/return/value`, `/return/array`, `/return/spliced`), so a
// method whose result lacks the field breaks them. The first part walks every JST
// document of the corpus (when present) and checks each such wiring against the
// method's output on a small input; the second runs documents of our own, in the
// service's format, through the interpreter and checks their whole output.
import { describe, expect, it } from 'vitest';
import { runTransformation } from '../../core/transformations/interpreter';
import { parsePointer } from '../../core/transformations/pointer';
import type { JstDocument, JstScope, Step } from '../../core/transformations/types';
import { callMethod } from './helpers';
import { CORPUS_TAG, corpusAvailable, corpusTransformations, noteCorpusSkip } from './corpus';

/** A small input for each method whose `/return` documents read a field of. */
const SAMPLE_ARGS: Record<string, unknown[]> = {
  'Array.pop': [['a', 'b', 'c']],
  'Array.shift': [['a', 'b', 'c']],
  'Array.splice': [['a', 'b', 'c'], 1, 1],
};

interface ReturnRead {
  document: string;
  method: string;
  /** The pointer after `/return`, e.g. `/value`. */
  field: string;
  args: unknown[];
}

type ScopeLike = Pick<JstScope, 'steps' | 'functions'>;

/** Every assign step of a scope (and its functions) that reads a field of a method step's return. */
function returnReads(document: string, scope: ScopeLike): ReturnRead[] {
  const steps: Step[] = scope.steps ?? [];
  const methods = new Map(steps.filter((step) => step.type === 'method').map((step) => [String(step.id), step]));
  const reads: ReturnRead[] = [];
  for (const step of steps) {
    const from = step.type === 'assign' ? step.from : undefined;
    if (!from || from.location !== 'method' || typeof from.ptr !== 'string') continue;
    const tokens = parsePointer(from.ptr);
    if (tokens[0] !== 'return' || tokens.length < 2) continue;
    const method = methods.get(String(from.name));
    if (!method) continue;
    reads.push({ document, method: `${method.library}.${method.method}`, field: `/${tokens.slice(1).join('/')}`, args: Array.isArray(method.args) ? method.args : [] });
  }
  for (const fn of scope.functions ?? []) reads.push(...returnReads(document, fn));
  return reads;
}

const available = corpusAvailable();
noteCorpusSkip('the /return reads of the real JST documents');

describe.skipIf(!available)(`the corpus: every wiring that reads a field of a method's /return ${CORPUS_TAG}`, () => {
  const reads = corpusTransformations().flatMap(({ doc }) => returnReads(doc.name, doc as unknown as ScopeLike));

  it('finds the field in that method\'s output', () => {
    console.info(`${reads.length} wiring(s) read a field of a method's /return in the corpus`);
    for (const read of reads) {
      const [library, method] = [read.method.slice(0, read.method.indexOf('.')), read.method.slice(read.method.indexOf('.') + 1)];
      const output = callMethod(library, method, SAMPLE_ARGS[read.method] ?? read.args);
      const first = parsePointer(read.field)[0]!;
      expect(output !== null && typeof output === 'object' && first in output, `"${read.document}" reads /return${read.field} of ${read.method}, whose output is ${JSON.stringify(output)}`).toBe(true);
    }
  });
});

/** A document in the service's format: `arr` → Library.method(arr, ...rest) → each field read to an outgoing value. */
function readerDocument(method: string, rest: unknown[], fields: string[]): JstDocument {
  const steps: Step[] = [
    { id: 1, type: 'method', library: 'Array', method, args: [null, ...rest], view: { row: 1, col: 1 }, context: '#' },
    { id: 2, type: 'assign', from: { location: 'incoming', name: 'arr', ptr: '' }, to: { location: 'method', name: 1, ptr: '/args/0/value' }, context: '#' },
    ...fields.map((field, i): Step => ({ id: 10 + i, type: 'assign', from: { location: 'method', name: 1, ptr: `/return/${field}` }, to: { location: 'outgoing', name: field, ptr: '' }, context: '#' })),
  ];
  return {
    name: `read ${method}`,
    incoming: [{ $id: 'arr', type: 'array' }],
    outgoing: fields.map(($id) => ({ $id })),
    steps,
    functions: [],
  };
}

describe('methods that change their array give what the service gives', () => {
  it('Array.pop: /return/value is the last item, /return/array the rest', () => {
    const { outgoing } = runTransformation(readerDocument('pop', [], ['value', 'array']), { arr: ['r1', 'r2', 'r3'] });
    expect(outgoing).toEqual({ value: 'r3', array: ['r1', 'r2'] });
  });

  it('Array.shift: /return/value is the first item, /return/array the rest', () => {
    const { outgoing } = runTransformation(readerDocument('shift', [], ['value', 'array']), { arr: ['r1', 'r2', 'r3'] });
    expect(outgoing).toEqual({ value: 'r1', array: ['r2', 'r3'] });
  });

  it('Array.splice: /return/spliced is what was removed, /return/array what is left with the insertions', () => {
    const { outgoing } = runTransformation(readerDocument('splice', [1, 2, 'x'], ['spliced', 'array']), { arr: [1, 2, 3, 4] });
    expect(outgoing).toEqual({ spliced: [2, 3], array: [1, 'x', 4] });
  });

  it('the array given is not changed: the same input wired twice reads the same', () => {
    const doc = readerDocument('pop', [], ['value', 'array']);
    const input = ['a', 'b'];
    runTransformation(doc, { arr: input });
    expect(input).toEqual(['a', 'b']);
  });

  it('each sampled method gives every field real documents read', () => {
    const expected: Record<string, unknown> = {
      'Array.pop': { value: 'c', array: ['a', 'b'] },
      'Array.shift': { value: 'a', array: ['b', 'c'] },
      'Array.splice': { spliced: ['b'], array: ['a', 'c'] },
    };
    for (const [name, args] of Object.entries(SAMPLE_ARGS)) {
      const [library, method] = name.split('.') as [string, string];
      expect(callMethod(library, method, args), name).toEqual(expected[name]);
    }
  });
});
