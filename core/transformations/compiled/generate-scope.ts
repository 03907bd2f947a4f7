// The document's own scope written as JavaScript for its document (as generate.ts writes a
// nested function of reads and new objects): each node of the plan in the plan's order, each
// value in a local of the text, each step counted and checked against the limits as the
// interpreter counts them. A library method with a direct form is called with its arguments
// one by one; any other step makes its call (compiled/calls.ts) with its arguments' array. As
// in generate.ts, no value of the document enters the text: names, static values and the
// closures called are elements of the constants array. A scope with a wire this does not
// write (a pointer below a variable or below `/args/N/value`, a read of a step's arguments)
// is left to the closures (compiled.ts), which answer the same.
import { randomUUID } from 'node:crypto';
import { TransformationError } from '../errors';
import { place, stepError } from '../interpreter';
import { getAt } from '../pointer';
import type { Plan, PlanNode, Wire } from '../plan';
import { TIME_CHECK_MASK, type Run } from '../run-entry';
import { compileCall } from './calls';
import type { ScopeInfo } from './nodes';

/** The document's own scope run on its incoming values by `$id`: its outgoing values by `$id`. */
export type TopFn = (incoming: Record<string, unknown>, run: Run) => Record<string, unknown>;

class Writer {
  readonly constants: unknown[] = [];
  readonly lines: string[] = [];

  constant(value: unknown): string {
    return `c${this.constants.push(value) - 1}`;
  }
}

/** The text of a wire's value, or undefined for a read this does not write. */
function source(wire: Wire, w: Writer): string | undefined {
  const from = wire.from;
  if (!from) return w.constant(wire.staticValue);
  const tokens = wire.fromTokens;
  if (from.step) {
    if (tokens[0] !== 'return') return undefined;
    const below = tokens.slice(1);
    return below.length === 0 ? `v${from.index}` : `${w.constant((value: unknown) => getAt(value, below))}(v${from.index})`;
  }
  return tokens.length === 0 ? `v${from.index}` : `${w.constant((value: unknown) => getAt(value, tokens))}(v${from.index})`;
}

/** The lines evaluating one node into its local, or undefined when the node has a wire this does not write. */
function nodeLines(node: PlanNode, info: ScopeInfo, w: Writer): string[] | undefined {
  const v = `v${node.index}`;
  if (node.kind === 'incoming' || node.kind === 'outgoing') {
    if (node.inbound.some((wire) => wire.toTokens.length > 0)) return undefined;
    const lines = [node.kind === 'incoming' ? `${v} = incoming[${w.constant(node.name)}];` : `${v} = undefined;`];
    for (const wire of node.inbound) {
      const value = source(wire, w);
      if (value === undefined) return undefined;
      lines.push(`${v} = ${value};`);
    }
    return lines;
  }
  const step = node.step;
  if (!step || info.argsRead.has(node) || node.inbound.some((wire) => wire.argIndex === undefined)) return undefined;
  const values: [number, string][] = [];
  for (const wire of node.inbound) {
    const value = source(wire, w);
    if (value === undefined) return undefined;
    values.push([wire.argIndex ?? 0, value]);
  }
  const staticArgs: unknown[] = Array.isArray(step.args) ? step.args : [];
  const failed = `${w.constant(stepFailure(info.plan, node))}(error, run)`;
  const direct = directCall(node, info);
  if (direct && values.every(([at]) => at < 3)) {
    // Each argument: the last wire into it, else its static value.
    const args = [0, 1, 2].map((i) => values.findLast(([at]) => at === i)?.[1] ?? w.constant(staticArgs[i]));
    // The wires' reads made before the call, as the interpreter makes them (a wire another overrides included).
    return [`try {`, `  ${v} = ${w.constant(direct)}(${args.join(', ')});`, `} catch (error) {`, `  throw ${failed};`, `}`];
  }
  // The arguments' array as the interpreter fills it: the static arguments, then each wire in turn.
  const lines = [`const a${node.index} = ${w.constant(staticArgs)}.slice();`, ...values.map(([at, value]) => `a${node.index}[${Math.trunc(at)}] = ${value};`)];
  const call = compileCall(node, info.plan, info.scopeOf);
  return [...lines, `try {`, `  ${v} = ${w.constant(call)}(a${node.index}, frame);`, `} catch (error) {`, `  throw ${failed};`, `}`];
}

/** A method's direct form (or its in-place form, on a first argument no one else can see), as compiled/nodes.ts's directStep chooses it. */
function directCall(node: PlanNode, info: ScopeInfo): ((a: unknown, b: unknown, c: unknown) => unknown) | undefined {
  const { entry, step } = node;
  if (!step || !entry?.direct || (node.kind !== 'method' && node.kind !== 'declaration')) return undefined;
  if (typeof step.template === 'string' && step.method === 'templateLiteral') return undefined;
  const first = node.inbound.findLast((wire) => wire.argIndex === 0);
  const from = first?.from;
  const whole = first !== undefined && from?.step !== undefined && first.fromTokens.length === 1 && first.fromTokens[0] === 'return';
  const owned = whole && from?.entry?.fresh === true && !info.argsRead.has(from) && info.readers.get(from)?.length === 1;
  return owned && entry.inPlace ? entry.inPlace : entry.direct;
}

function stepFailure(plan: Plan, node: PlanNode) {
  return (error: unknown, run: Run) => stepError(error, { run, plan, node });
}

/** The document's own scope as generated code, or undefined when a node of it has a wire this does not write. */
export function generateTop(plan: Plan, info: ScopeInfo): TopFn | undefined {
  if (plan.functionName !== undefined) return undefined;
  const w = new Writer();
  const limit = w.constant((run: Run, at: number) => new TransformationError('limit', `the run went past ${run.maxSteps} steps`, place(run, plan, plan.order[at] as PlanNode)));
  const late = w.constant((run: Run, at: number) => new TransformationError('limit', `the run took longer than ${run.timeoutMs} ms`, place(run, plan, plan.order[at] as PlanNode)));
  const deep = w.constant((run: Run) => new TransformationError('limit', `functions call each other more than ${run.maxDepth} deep`, { document: run.document, function: plan.functionName }));
  const body: string[] = [];
  for (const node of plan.order) {
    const lines = nodeLines(node, info, w);
    if (!lines) return undefined;
    const at = node.index;
    body.push(`if (++run.steps > run.maxSteps) throw ${limit}(run, ${at});`, `if ((run.steps & ${TIME_CHECK_MASK}) === 0 && Date.now() > run.deadline) throw ${late}(run, ${at});`, ...lines);
  }
  const answer = plan.outgoing.map((node) => `out[${w.constant(node.name)}] = v${node.index};`);
  const text = [
    `// ${randomUUID()}`,
    `'use strict';`,
    `const [${w.constants.map((_, i) => `c${i}`).join(', ')}] = constants;`,
    `return function runTop(incoming, run) {`,
    `  if (run.maxDepth < 0) throw ${deep}(run);`,
    `  const frame = { run, depth: 0 };`,
    ...(plan.order.length > 0 ? [`  let ${plan.order.map((node) => `v${node.index}`).join(', ')};`] : []),
    ...body.map((line) => `  ${line}`),
    `  const out = {};`,
    ...answer.map((line) => `  ${line}`),
    `  return out;`,
    `};`,
  ].join('\n');
  const made: unknown = new Function('constants', text)(w.constants);
  return made as TopFn;
}
