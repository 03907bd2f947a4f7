// Small documents built in tests: one method step wired from incoming values, and
// nested functions written as (incoming names) -> one method -> return.
import { TransformationError } from '../../core/transformations/errors';
import { runTransformation } from '../../core/transformations/interpreter';
import type { JstDocument, JstScope, Step } from '../../core/transformations/types';

/** An assign step from `[location, name, ptr]` to `[location, name, ptr]`, as the designer writes it. */
export const assign = (id: number, from: [string, string | number, string], to: [string, string | number, string]): Step => ({
  id,
  type: 'assign',
  from: { location: from[0], name: from[1], ptr: from[2] },
  to: { location: to[0], name: to[1], ptr: to[2] },
});

/**
 * A document answering `out`: Array.map (or `method`) of its incoming array (`incoming`, `items` unless given)
 * through the function named `fn`, with `args` after the name (map's thisArg).
 */
export function mapDocument(name: string, fn: string, functions: JstScope[], options: { incoming?: string; args?: unknown[]; method?: string } = {}): JstDocument {
  const incoming = options.incoming ?? 'items';
  return {
    name,
    incoming: [{ $id: incoming }],
    outgoing: [{ $id: 'out' }],
    steps: [
      { id: 1, type: 'method', library: 'Array', method: options.method ?? 'map', args: [null, fn, ...(options.args ?? [])] },
      assign(2, ['incoming', incoming, ''], ['method', 1, '/args/0/value']),
      assign(3, ['method', 1, '/return'], ['outgoing', 'out', '']),
    ],
    functions,
  };
}

/** What a run answers: its outgoing values, or its error's message and place. */
export function outcome(run: () => { outgoing: Record<string, unknown> }): unknown {
  try {
    return run().outgoing;
  } catch (error) {
    if (error instanceof TransformationError) return { error: error.message, place: error.place };
    throw error;
  }
}

let nextId = 1000;

/** A function that answers `Library.method(element, ...static)` of its first incoming value (a callback). */
export function fnOf(name: string, library: string, method: string, staticArgs: unknown[] = [], incoming = ['element', 'index', 'array', 'thisArg']): JstScope {
  const methodId = nextId++;
  const steps: Step[] = [
    { id: methodId, type: 'method', library, method, args: [null, ...staticArgs] },
    { id: nextId++, type: 'assign', from: { location: 'incoming', name: incoming[0], ptr: '' }, to: { location: 'method', name: methodId, ptr: '/args/0/value' } },
    { id: nextId++, type: 'assign', from: { location: 'method', name: methodId, ptr: '/return' }, to: { location: 'outgoing', name: 'return', ptr: '' } },
  ];
  return { name, incoming: incoming.map(($id) => ({ $id })), outgoing: [{ $id: 'return' }], steps, functions: [] };
}

/**
 * Runs `Library.method` with `args`: static where given as `{ static: v }`, else
 * wired from an incoming value (so undefined and any value can be passed).
 */
export function callMethod(library: string, method: string, args: unknown[], functions: JstScope[] = [], extra: Partial<Step> = {}): unknown {
  const steps: Step[] = [{ id: 1, type: 'method', library, method, args: args.map(() => null), ...extra }];
  const incoming: { $id: string }[] = [];
  const values: Record<string, unknown> = {};
  args.forEach((arg, i) => {
    incoming.push({ $id: `a${i}` });
    values[`a${i}`] = arg;
    steps.push({ id: 100 + i, type: 'assign', from: { location: 'incoming', name: `a${i}`, ptr: '' }, to: { location: 'method', name: 1, ptr: `/args/${i}/value` } });
  });
  steps.push({ id: 99, type: 'assign', from: { location: 'method', name: 1, ptr: '/return' }, to: { location: 'outgoing', name: 'out', ptr: '' } });
  const doc: JstDocument = { name: `${library}.${method} test`, incoming, outgoing: [{ $id: 'out' }], steps, functions };
  return runTransformation(doc, values, { validateIncoming: false }).outgoing.out;
}
