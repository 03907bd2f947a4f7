// Runs a JST document: no eval, no generated code. Each node of the plan is
// evaluated in wiring order: its inbound assigns are written into it, then a step
// node calls its library method, fills its template or calls its nested function.
// A run is bounded by steps, nesting depth and time; past any of them it ends with
// an error naming the limit, never hangs.
import { MethodArgumentError, TransformationError, type ErrorPlace } from './errors';
import { IncomingValidators } from './incoming';
import { RunEntry, TIME_CHECK_MASK, type Run, type RunResult } from './run-entry';
import { fillTemplate } from './library/string';
import type { CallContext } from './library/index';
import { getAt, setAt } from './pointer';
import { planFor, type Plan, type PlanNode, type Wire } from './plan';
import type { JstDocument, JstScope, RunOptions } from './types';
import { errorMessage } from '../errors';
import { givenArguments, unsetPositions } from './unset-args';

export { DEFAULT_LIMITS, type Run, type RunResult } from './run-entry';

/** What a step node holds once run: its argument values and its return (read through `/args/N/value` and `/return`). */
export interface StepResult {
  args: unknown[];
  ret: unknown;
}

/** Runs `doc` on `incoming` (values by incoming `$id`), answering its outgoing values by outgoing `$id`. */
export function runTransformation(doc: JstDocument, incoming: Record<string, unknown>, options: RunOptions = {}): RunResult {
  const entry = new RunEntry(doc, new IncomingValidators());
  const { given, run } = entry.begin(incoming, options);
  const plan = planFor(doc, run.document, new Map());
  return entry.end(runScope(plan, given, run, 0), options);
}

/** Checks a document can run (its steps, methods, functions and wiring) without running it; throws what it cannot. */
export function checkDocument(doc: JstDocument): void {
  const document = typeof doc?.name === 'string' ? doc.name : 'unnamed';
  const visit = (scope: JstScope, outer: Map<string, JstScope>, name?: string) => {
    const plan = planFor(scope, document, outer, name);
    for (const fn of scope.functions ?? []) visit(fn, plan.functions, String(fn.name ?? fn.id));
  };
  visit(doc, new Map());
}

function runScope(plan: Plan, incoming: Record<string, unknown>, run: Run, depth: number): Record<string, unknown> {
  if (depth > run.maxDepth) {
    throw new TransformationError('limit', `functions call each other more than ${run.maxDepth} deep`, { document: run.document, function: plan.functionName });
  }
  const values: unknown[] = new Array(plan.order.length);
  const frame: Frame = { plan, run, depth };
  for (const node of plan.order) {
    if (++run.steps > run.maxSteps) {
      throw new TransformationError('limit', `the run went past ${run.maxSteps} steps`, place(run, plan, node));
    }
    if ((run.steps & TIME_CHECK_MASK) === 0 && Date.now() > run.deadline) {
      throw new TransformationError('limit', `the run took longer than ${run.timeoutMs} ms`, place(run, plan, node));
    }
    values[node.index] = evaluate(node, frame, incoming, values);
  }
  const out: Record<string, unknown> = {};
  for (const node of plan.outgoing) out[node.name] = values[node.index];
  return out;
}

export function place(run: Run, plan: Plan, node: PlanNode, pointer?: string): ErrorPlace {
  const step = node.step;
  let method: string | undefined;
  if (step?.type === 'function') method = `function ${String(step.function)}`;
  else if (step?.type === 'template') method = `${step.library ?? 'String'}.${step.method ?? 'templateLiteral'}`;
  else if (step?.library) method = `${step.library}.${String(step.method)}`;
  return { document: run.document, function: plan.functionName, step: step?.id, method, pointer };
}

/** The scope a node runs in: its function's plan, the run, and how deep the functions call each other. */
interface Frame {
  plan: Plan;
  run: Run;
  depth: number;
}

function evaluate(node: PlanNode, frame: Frame, incoming: Record<string, unknown>, values: unknown[]): unknown {
  if (node.kind === 'incoming' || node.kind === 'outgoing') {
    let value = node.kind === 'incoming' ? incoming[node.name] : undefined;
    for (const wire of node.inbound) value = wire.toTokens.length === 0 ? read(wire, values) : write(value, wire, read(wire, values), { ...frame, node });
    return value;
  }
  const step = stepOf(node);
  let args: unknown[] = Array.isArray(step.args) ? step.args.slice() : [];
  // A wire into anything but `/args/N/value` (say `/args/0/value/name`) writes into a copy of the arguments.
  let state: unknown;
  for (const wire of node.inbound) {
    const value = read(wire, values);
    if (wire.argIndex !== undefined && !state) {
      args[wire.argIndex] = value;
      continue;
    }
    state ??= { args: Array.from(args, (v) => ({ value: v })) };
    state = write(state, wire, value, { ...frame, node });
  }
  if (state !== undefined) {
    const written: unknown = state !== null && typeof state === 'object' ? Reflect.get(state, 'args') : undefined;
    args = Array.from(Array.isArray(written) ? written : [], (arg: unknown) => (arg !== null && typeof arg === 'object' ? Reflect.get(arg, 'value') : undefined));
  }
  try {
    return { args, ret: call(node, args, frame) } satisfies StepResult;
  } catch (error) {
    throw stepError(error, { ...frame, node });
  }
}

/** What a step's call threw, as the run's error: the method's argument errors name their `/args/N/value`, a blown stack is a limit. */
export function stepError(error: unknown, at: { run: Run; plan: Plan; node: PlanNode }): TransformationError {
  const { run, plan, node } = at;
  if (error instanceof TransformationError) return error;
  if (error instanceof MethodArgumentError) {
    return new TransformationError('step-failed', error.message, place(run, plan, node, error.argIndex !== undefined ? `/args/${error.argIndex}/value` : undefined));
  }
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return new TransformationError('limit', 'the functions call each other too deeply', place(run, plan, node));
  }
  return new TransformationError('step-failed', errorMessage(error) ?? String(error), place(run, plan, node));
}

/** The value a wire carries: a static value, an incoming/outgoing value, or a step's `/return` or `/args/N/value` (and below). */
function read(wire: Wire, values: unknown[]): unknown {
  const from = wire.from;
  if (!from) return wire.staticValue;
  const held = values[from.index];
  if (!from.step) return wire.fromTokens.length === 0 ? held : getAt(held, wire.fromTokens);
  const result = held as StepResult;
  const [head, ...rest] = wire.fromTokens;
  if (head === 'return') return rest.length === 0 ? result.ret : getAt(result.ret, rest);
  if (head === 'args') return getAt(result.args.map((value) => ({ value })), rest);
  return wire.fromTokens.length === 0 ? { args: result.args.map((value) => ({ value })), return: result.ret } : undefined;
}

function write(target: unknown, wire: Wire, value: unknown, at: { run: Run; plan: Plan; node: PlanNode }): unknown {
  const { run, plan, node } = at;
  try {
    return setAt(target, wire.toTokens, value);
  } catch (error) {
    throw new TransformationError('step-failed', `assign step ${String(wire.step.id)} cannot write: ${errorMessage(error)}`, place(run, plan, node, wire.step.to?.ptr));
  }
}

/** The step of a node the plan made from one (every node but incoming and outgoing values). */
function stepOf(node: PlanNode): NonNullable<PlanNode['step']> {
  if (!node.step) throw new Error(`the plan node ${node.key} has no step`);
  return node.step;
}

function call(node: PlanNode, args: unknown[], frame: Frame): unknown {
  const { plan, run, depth } = frame;
  const step = stepOf(node);
  switch (node.kind) {
    case 'template':
      return fillTemplate(step.template as string, args);
    case 'function': {
      const fn = plan.functions.get(String(step.function));
      if (!fn) throw new TransformationError('invalid-document', `the function "${String(step.function)}" is not defined in the document`, place(run, plan, node));
      return invoke(fn, String(step.function), args, frame);
    }
    case 'context':
      // A context step hands its first argument on unchanged.
      return args[0];
    default:
      // A method step of String.templateLiteral that carries its `template` fills it as a template step would.
      if (typeof step.template === 'string' && step.method === 'templateLiteral') return fillTemplate(step.template, args);
      if (!node.entry) throw new TransformationError('unsupported', `no method ${String(step.library)}.${String(step.method)}`, place(run, plan, node));
      return node.entry.fn(givenArguments(args, unsetPositions(node)), new StepCall(plan, run, depth, typeof step.polymorphIndex === 'number' ? step.polymorphIndex : undefined));
  }
}

/** What a library method may ask of the run: the document's functions as callbacks. */
class StepCall implements CallContext {
  constructor(
    private readonly plan: Plan,
    private readonly run: Run,
    private readonly depth: number,
    readonly polymorphIndex: number | undefined,
  ) {}

  callback(name: unknown, constants: unknown[]): (...args: unknown[]) => unknown {
    const fn = typeof name === 'string' ? this.plan.functions.get(name) : undefined;
    if (!fn) throw new MethodArgumentError(`the function "${String(name)}" it calls is not defined in the document`);
    const frame: Frame = { plan: this.plan, run: this.run, depth: this.depth };
    const fnName = String(name);
    return (...callArgs: unknown[]) => {
      const outgoing = invoke(fn, fnName, constants.length === 0 ? callArgs : [...callArgs, ...constants], frame);
      const names = Object.keys(outgoing);
      const [only] = names;
      return names.length === 1 && only !== undefined ? outgoing[only] : outgoing;
    };
  }
}

/** Calls a nested function: its incoming variables take the arguments in order; it answers its outgoing values by `$id`. */
function invoke(fn: JstScope, name: string, args: unknown[], caller: Frame): Record<string, unknown> {
  const { run, depth } = caller;
  const plans = (run.plans ??= new Map());
  let plan = plans.get(fn);
  if (!plan) {
    plan = planFor(fn, run.document, caller.plan.functions, name);
    plans.set(fn, plan);
  }
  const incoming: Record<string, unknown> = {};
  const schemas = fn.incoming ?? [];
  for (const [i, schema] of schemas.entries()) incoming[String(schema.$id)] = schema.isContext ? contextArg(schema, args.slice(i)) : args[i];
  return runScope(plan, incoming, run, depth + 1);
}

/**
 * The context parameter (`isContext`) of a callback takes the step's extra arguments: with
 * properties, as one object whose keys (`0_groupId`, `1_adapterId` when `isIndexed`) say which
 * argument each holds; without, the first extra argument itself.
 */
export function contextArg(schema: Record<string, unknown>, rest: unknown[]): unknown {
  const properties = schema.properties && typeof schema.properties === 'object' ? Object.keys(schema.properties) : [];
  if (properties.length === 0) return rest[0];
  const context: Record<string, unknown> = {};
  properties.forEach((key, order) => {
    const indexed = /^(\d+)_/.exec(key);
    context[key] = rest[indexed ? Number(indexed[1]) : order];
  });
  return context;
}

