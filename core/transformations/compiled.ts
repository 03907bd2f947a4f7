// Compiled JST: a document turned into JavaScript closures, once, from its plan
// (plan.ts). No code text is generated or evaluated: each node of the plan gets a
// closure that reads its wires, calls its method and keeps its value, and each
// scope a closure that runs its nodes in the plan's order. The closures do what
// the interpreter (interpreter.ts) does, with the same limits and the same errors;
// the work of reading the plan (which wire goes where, which pointer shape a read
// has) is done when compiling instead of at every step.
import { MethodArgumentError, TransformationError } from './errors';
import { beginRun, contextArg, endRun, place, stepError, type Run, type RunResult } from './interpreter';
import type { CallContext } from './library/index';
import { fillTemplate } from './library/string';
import { IncomingValidators } from './incoming';
import { getAt, setAt } from './pointer';
import { planFor, type Plan, type PlanNode, type Wire } from './plan';
import type { JstDocument, JstScope, RunOptions } from './types';
import { errorMessage } from '../errors';

/** A document compiled: `run` answers as `runTransformation(document, ...)` would. */
export interface CompiledTransformation {
  document: JstDocument;
  run(incoming: Record<string, unknown>, options?: RunOptions): RunResult;
}

/** One scope (the document, or a nested function) compiled: runs it on its incoming values by `$id`. */
interface CompiledScope {
  plan: Plan;
  /** The incoming variables its steps read (the others are not worked out when a function is called). */
  reads: Set<string>;
  /** The one outgoing variable, when there is one: a callback answers its value itself. */
  single: string | undefined;
  run: (incoming: Record<string, unknown>, run: Run, depth: number) => Record<string, unknown>;
  /** Runs it and answers the value of its one outgoing variable (`single`), building no object. */
  runOne: (incoming: Record<string, unknown>, run: Run, depth: number) => unknown;
}

/** What a node's closure is given: the scope's values so far (a variable's value, a step's arguments and return), its incoming values, the run and the nesting depth. */
interface Frame {
  /** By node index: a variable's value, a step's return. */
  slots: unknown[];
  /** A step's arguments by its index, kept only in a scope where a wire reads them. */
  argv: (unknown[] | undefined)[] | undefined;
  incoming: Record<string, unknown>;
  run: Run;
  depth: number;
}

/** Evaluates one node into its slot of the frame. */
type NodeFn = (frame: Frame) => void;
type ReadFn = (frame: Frame) => unknown;

/** Finds (compiling on first use) the scope of a nested function, as the interpreter plans it on first call. */
type ScopeLookup = (fn: JstScope, outer: Plan, name: string, run: Run) => CompiledScope;

/** `validators`: the incoming schemas' validators, shared by the documents of one service. */
export function compileTransformation(doc: JstDocument, validators: IncomingValidators = new IncomingValidators()): CompiledTransformation {
  // Per compiled document: its scopes, compiled when first run (a scope that cannot be
  // planned fails where and when the interpreter's would: at its first call).
  const scopes = new Map<JstScope, CompiledScope>();
  const scopeOf: ScopeLookup = (fn, outer, name, run) => {
    let compiled = scopes.get(fn);
    if (!compiled) {
      compiled = compileScope(planFor(fn, run.document, outer.functions, name), scopeOf);
      scopes.set(fn, compiled);
    }
    return compiled;
  };
  let top: CompiledScope | undefined;
  return {
    document: doc,
    run(incoming, options = {}) {
      const { given, run } = beginRun(doc, incoming, options, validators);
      top ??= compileScope(planFor(doc, run.document, new Map()), scopeOf);
      return endRun(doc, top.run(given, run, 0), options);
    },
  };
}

function compileScope(plan: Plan, scopeOf: ScopeLookup): CompiledScope {
  const readers = new Set<PlanNode>();
  for (const node of plan.order) for (const wire of node.inbound) if (wire.from) readers.add(wire.from);
  // An incoming variable nobody reads and nothing writes is only counted as a step.
  const idle = (node: PlanNode) => node.kind === 'incoming' && node.inbound.length === 0 && !readers.has(node);
  const keepsArgs = plan.order.some((node) => node.inbound.some((wire) => wire.from?.step !== undefined && wire.fromTokens[0] !== 'return'));
  const nodes = plan.order.map((node) => ({ node, evaluate: idle(node) ? undefined : compileNode(node, plan, scopeOf) }));
  const outgoing = plan.outgoing.map((node) => ({ name: node.name, index: node.index }));
  const singleIndex = outgoing.length === 1 ? outgoing[0]?.index : undefined;
  const exec = (incoming: Record<string, unknown>, run: Run, depth: number): Frame => {
    if (depth > run.maxDepth) {
      throw new TransformationError('limit', `functions call each other more than ${run.maxDepth} deep`, { document: run.document, function: plan.functionName });
    }
    const frame: Frame = { slots: new Array(nodes.length), argv: keepsArgs ? new Array(nodes.length) : undefined, incoming, run, depth };
    for (const { node, evaluate } of nodes) {
      if (++run.steps > run.maxSteps) throw new TransformationError('limit', `the run went past ${run.maxSteps} steps`, place(run, plan, node));
      if ((run.steps & 255) === 0 && Date.now() > run.deadline) {
        throw new TransformationError('limit', `the run took longer than ${run.timeoutMs} ms`, place(run, plan, node));
      }
      if (evaluate) evaluate(frame);
    }
    return frame;
  };
  return {
    plan,
    reads: new Set(plan.incoming.filter((node) => !idle(node)).map((node) => node.name)),
    single: plan.outgoing.length === 1 ? plan.outgoing[0]?.name : undefined,
    run(incoming, run, depth) {
      const frame = exec(incoming, run, depth);
      const out: Record<string, unknown> = {};
      for (const { name, index } of outgoing) out[name] = frame.slots[index];
      return out;
    },
    runOne(incoming, run, depth) {
      const frame = exec(incoming, run, depth);
      return singleIndex === undefined ? undefined : frame.slots[singleIndex];
    },
  };
}

/** A closure reading what a wire carries, its pointer's shape worked out now. */
function compileRead(wire: Wire): ReadFn {
  const from = wire.from;
  if (!from) {
    const value = wire.staticValue;
    return () => value;
  }
  const at = from.index;
  const tokens = wire.fromTokens;
  if (!from.step) return tokens.length === 0 ? (frame) => frame.slots[at] : (frame) => getAt(frame.slots[at], tokens);
  const [head, ...rest] = tokens;
  // A step is always evaluated before the steps reading it (the plan's order): its arguments are there.
  const argsOf = (frame: Frame): unknown[] => frame.argv?.[at] ?? [];
  if (head === 'return') return rest.length === 0 ? (frame) => frame.slots[at] : (frame) => getAt(frame.slots[at], rest);
  if (head === 'args') {
    // `/args/N/value...` reads argument N itself: what the interpreter finds through `{ value }` wrappers.
    if (rest.length >= 2 && rest[1] === 'value' && rest[0] !== '-') {
      const index = Number(rest[0]);
      const below = rest.slice(2);
      return below.length === 0 ? (frame) => argsOf(frame)[index] : (frame) => getAt(argsOf(frame)[index], below);
    }
    return (frame) => getAt(argsOf(frame).map((value) => ({ value })), rest);
  }
  if (tokens.length === 0) return (frame) => ({ args: argsOf(frame).map((value) => ({ value })), return: frame.slots[at] });
  return () => undefined;
}

/** Writes a wire's value into `target` (a copy), failing as the interpreter does. */
function writer(wire: Wire, plan: Plan, node: PlanNode) {
  return (target: unknown, value: unknown, run: Run): unknown => {
    try {
      return setAt(target, wire.toTokens, value);
    } catch (error) {
      throw new TransformationError('step-failed', `assign step ${String(wire.step.id)} cannot write: ${errorMessage(error)}`, place(run, plan, node, wire.step.to?.ptr));
    }
  };
}

function compileNode(node: PlanNode, plan: Plan, scopeOf: ScopeLookup): NodeFn {
  const wires = node.inbound.map((wire) => ({ wire, read: compileRead(wire), write: writer(wire, plan, node) }));
  if (node.kind === 'incoming' || node.kind === 'outgoing') {
    const { name, index } = node;
    const isIncoming = node.kind === 'incoming';
    if (wires.length === 0) {
      return (frame) => {
        frame.slots[index] = isIncoming ? frame.incoming[name] : undefined;
      };
    }
    return (frame) => {
      let value = isIncoming ? frame.incoming[name] : undefined;
      for (const w of wires) value = w.wire.toTokens.length === 0 ? w.read(frame) : w.write(value, w.read(frame), frame.run);
      frame.slots[index] = value;
    };
  }
  const step = node.step;
  if (!step) throw new Error(`plan node ${node.key} has no step`);
  const staticArgs: unknown[] = Array.isArray(step.args) ? step.args : [];
  const call = compileCall(node, plan, scopeOf);
  const argsOnly = wires.every((w) => w.wire.argIndex !== undefined);
  const index = node.index;
  const fill = (frame: Frame): unknown[] => {
    const args = staticArgs.slice();
    if (argsOnly) {
      for (const w of wires) args[w.wire.argIndex ?? 0] = w.read(frame);
      return args;
    }
    // A wire into anything but `/args/N/value` (say `/args/0/value/name`) writes into a copy of the arguments.
    let state: unknown;
    let copied = false;
    for (const w of wires) {
      const value = w.read(frame);
      if (w.wire.argIndex !== undefined && !copied) {
        args[w.wire.argIndex] = value;
        continue;
      }
      if (!copied) state = { args: Array.from(args, (v) => ({ value: v })) };
      copied = true;
      state = w.write(state, value, frame.run);
    }
    if (!copied) return args;
    const held = state !== null && typeof state === 'object' && 'args' in state ? state.args : undefined;
    return Array.from(Array.isArray(held) ? held : [], (arg: unknown) => (arg !== null && typeof arg === 'object' && 'value' in arg ? arg.value : undefined));
  };
  return (frame) => {
    const args = fill(frame);
    try {
      frame.slots[index] = call(args, frame);
      if (frame.argv) frame.argv[index] = args;
    } catch (error) {
      throw stepError(error, { run: frame.run, plan, node });
    }
  };
}

/** The call a step makes once its arguments are in: a template, a nested function, a context hand-on or a library method. */
function compileCall(node: PlanNode, plan: Plan, scopeOf: ScopeLookup): (args: unknown[], frame: Frame) => unknown {
  const step = node.step;
  if (!step) throw new Error(`plan node ${node.key} has no step`);
  const template = step.template;
  switch (node.kind) {
    case 'template':
      return (args) => fillTemplate(String(template), args);
    case 'function': {
      const name = String(step.function);
      const fn = plan.functions.get(name);
      if (!fn) throw new Error(`plan node ${node.key} calls a function the plan does not hold`);
      const enter = invoker(fn, name, plan, scopeOf);
      return (args, frame) => enter.outgoing(args, frame);
    }
    case 'context':
      // A context step hands its first argument on unchanged.
      return (args) => args[0];
    default: {
      // A method step of String.templateLiteral that carries its `template` fills it as a template step would.
      if (typeof template === 'string' && step.method === 'templateLiteral') return (args) => fillTemplate(template, args);
      const entry = node.entry;
      if (!entry) throw new Error(`plan node ${node.key} has no library method`);
      const context = new StepContext(plan, scopeOf, typeof step.polymorphIndex === 'number' ? step.polymorphIndex : undefined);
      return (args, frame) => {
        // One context per step, pointed at the frame of the call under way (and back, for a step re-entered through recursion).
        const before = context.frame;
        context.frame = frame;
        try {
          return entry.fn(args, context);
        } finally {
          context.frame = before;
        }
      };
    }
  }
}

/** Calls a nested function: its incoming variables take the arguments in order; it answers its outgoing values by `$id`. */
function invoker(fn: JstScope, name: string, outer: Plan, scopeOf: ScopeLookup) {
  const schemas = (fn.incoming ?? []).map((schema, at) => ({ schema, at, id: String(schema.$id), isContext: Boolean(schema.isContext) }));
  let bound: { scope: CompiledScope; used: typeof schemas } | undefined;
  const bind = (args: unknown[], frame: Frame) => {
    if (!bound) {
      const scope = scopeOf(fn, outer, name, frame.run);
      bound = { scope, used: schemas.filter((s) => scope.reads.has(s.id)) };
    }
    const incoming: Record<string, unknown> = {};
    for (const s of bound.used) incoming[s.id] = s.isContext ? contextArg(s.schema, args.slice(s.at)) : args[s.at];
    return { scope: bound.scope, incoming };
  };
  return {
    outgoing(args: unknown[], frame: Frame): Record<string, unknown> {
      const { scope, incoming } = bind(args, frame);
      return scope.run(incoming, frame.run, frame.depth + 1);
    },
    /** As a callback answers: the one outgoing value itself, else all of them by `$id`. */
    answer(args: unknown[], frame: Frame): unknown {
      const { scope, incoming } = bind(args, frame);
      return scope.single !== undefined ? scope.runOne(incoming, frame.run, frame.depth + 1) : scope.run(incoming, frame.run, frame.depth + 1);
    },
  };
}

/** What a library method may ask of the run: the document's functions as callbacks. */
class StepContext implements CallContext {
  frame: Frame | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly scopeOf: ScopeLookup,
    readonly polymorphIndex: number | undefined,
  ) {}

  callback(name: unknown, constants: unknown[]): (...args: unknown[]) => unknown {
    const fn = typeof name === 'string' ? this.plan.functions.get(name) : undefined;
    const frame = this.frame;
    if (typeof name !== 'string' || !fn || !frame) throw new MethodArgumentError(`the function "${String(name)}" it calls is not defined in the document`);
    const enter = invoker(fn, name, this.plan, this.scopeOf);
    return (...callArgs: unknown[]) => {
      return enter.answer(constants.length === 0 ? callArgs : [...callArgs, ...constants], frame);
    };
  }
}
