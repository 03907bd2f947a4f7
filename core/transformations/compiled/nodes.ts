// Each node of a plan compiled into a closure over the frame. What the interpreter works out
// at every step is worked out here once: where each value comes from (a slot, a deeper
// pointer, a static value), which arguments a step takes one by one (a library method with a
// `direct` form is called without an arguments' array), and which values no one else can see
// (a fresh answer read by one step alone, which that step may then change in place).
import { TransformationError } from '../errors';
import { contextArg, place, stepError, type Run } from '../interpreter';
import { getAt, setAt } from '../pointer';
import type { Plan, PlanNode, Wire } from '../plan';
import { errorMessage } from '../../errors';
import { compileCall } from './calls';
import { valueOf, type Frame, type NodeFn, type ReadFn, type ScopeLookup, type Source } from './frame';

/** What compiling the nodes of one scope needs to know about the whole scope. */
export interface ScopeInfo {
  plan: Plan;
  scopeOf: ScopeLookup;
  /** The wires reading each node, anywhere in the scope. */
  readers: Map<PlanNode, Wire[]>;
  /** The step nodes whose arguments a wire reads (`/args/...` or the whole step): their arguments are kept. */
  argsRead: Set<PlanNode>;
  /** The static values the nodes take, held in the frame's slots past the nodes'. */
  constants: unknown[];
}

export function scopeInfo(plan: Plan, scopeOf: ScopeLookup): ScopeInfo {
  const readers = new Map<PlanNode, Wire[]>();
  const argsRead = new Set<PlanNode>();
  for (const node of plan.order) {
    for (const wire of node.inbound) {
      if (!wire.from) continue;
      readers.set(wire.from, [...(readers.get(wire.from) ?? []), wire]);
      if (wire.from.step && wire.fromTokens[0] !== 'return') argsRead.add(wire.from);
    }
  }
  return { plan, scopeOf, readers, argsRead, constants: [] };
}

/** A static value's slot: past the nodes' slots, in the order compiling meets them. */
function constant(scope: ScopeInfo, value: unknown): Source {
  return { slot: scope.plan.order.length + scope.constants.push(value) - 1, read: undefined };
}

/** Where a wire's value comes from, its pointer's shape worked out now. */
function sourceOf(wire: Wire, scope: ScopeInfo): Source {
  const from = wire.from;
  if (!from) return constant(scope, wire.staticValue);
  const tokens = wire.fromTokens;
  const whole = from.step ? tokens.length === 1 && tokens[0] === 'return' : tokens.length === 0;
  return whole ? { slot: from.index, read: undefined } : { slot: -1, read: compileRead(from, tokens) };
}

/** A closure reading below a node's value, or a step's arguments, as the interpreter reads them. */
function compileRead(from: PlanNode, tokens: string[]): ReadFn {
  const at = from.index;
  if (!from.step) return (frame) => getAt(frame.slots[at], tokens);
  const [head, ...rest] = tokens;
  // A step is always evaluated before the steps reading it (the plan's order): its arguments are there.
  const argsOf = (frame: Frame): unknown[] => frame.argv?.[at] ?? [];
  if (head === 'return') return (frame) => getAt(frame.slots[at], rest);
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

/**
 * Whether evaluating a node may run other steps (a nested function, or a method taking its
 * context, which can call the document's functions back): the run's step count then moves
 * while it runs.
 */
export function runsOtherSteps(node: PlanNode): boolean {
  if (node.kind === 'function') return true;
  if (node.kind !== 'method' && node.kind !== 'declaration') return false;
  const template = node.step?.template;
  if (typeof template === 'string' && node.step?.method === 'templateLiteral') return false;
  return (node.entry?.fn.length ?? 0) >= 2;
}

/** The argument a function's incoming variable is, when that is all it is (no assign writes it, not a context): the scope then puts it in its slot itself. */
export function argumentAt(node: PlanNode, plan: Plan): number | undefined {
  if (node.kind !== 'incoming' || node.inbound.length > 0 || plan.functionName === undefined || node.name === '__proto__') return undefined;
  const schemas = plan.scope.incoming ?? [];
  const at = schemas.findLastIndex((schema) => String(schema.$id) === node.name);
  return at >= 0 && !schemas[at]?.isContext ? at : undefined;
}

/** The slot an outgoing variable only repeats (written whole by one assign from a slot, read by no wire): the scope then answers that slot. */
export function repeatedSlot(node: PlanNode, scope: ScopeInfo): number | undefined {
  const [wire, ...others] = node.inbound;
  if (node.kind !== 'outgoing' || !wire || others.length > 0 || wire.toTokens.length > 0 || scope.readers.has(node)) return undefined;
  const source = sourceOf(wire, scope);
  return source.read === undefined ? source.slot : undefined;
}

export function compileNode(node: PlanNode, scope: ScopeInfo): NodeFn {
  if (node.kind === 'incoming' || node.kind === 'outgoing') return compileVariable(node, scope);
  return directStep(node, scope) ?? compileStep(node, scope);
}

/** The value a variable's own value starts from: the document's incoming value by `$id`, a function's argument by position. */
function startOf(node: PlanNode, plan: Plan): ReadFn {
  const name = node.name;
  if (node.kind === 'outgoing') return () => undefined;
  if (plan.functionName === undefined) return (frame) => frame.incoming[name];
  // The interpreter gives a function's incoming values by `$id`, each schema in turn: the last of a `$id` listed twice wins.
  const schemas = plan.scope.incoming ?? [];
  const all = (frame: Frame) => {
    const values: Record<string, unknown> = {};
    for (const [i, schema] of schemas.entries()) values[String(schema.$id)] = schema.isContext ? contextArg(schema, frame.args.slice(i)) : frame.args[i];
    return values[name];
  };
  if (name === '__proto__') return all;
  const at = schemas.findLastIndex((schema) => String(schema.$id) === name);
  const schema = schemas[at];
  if (schema?.isContext) return (frame) => contextArg(schema, frame.args.slice(at));
  return (frame) => frame.args[at];
}

function compileVariable(node: PlanNode, scope: ScopeInfo): NodeFn {
  const { plan } = scope;
  const index = node.index;
  const start = startOf(node, plan);
  const wires = node.inbound.map((wire) => ({ whole: wire.toTokens.length === 0, source: sourceOf(wire, scope), write: writer(wire, plan, node) }));
  const only = wires.length === 1 && wires[0]?.whole ? wires[0].source : undefined;
  if (wires.length === 0) {
    return (frame) => {
      frame.slots[index] = start(frame);
    };
  }
  if (only) {
    // A variable written whole by one assign (the common case): its own value is never read.
    return (frame) => {
      frame.slots[index] = valueOf(only, frame);
    };
  }
  return (frame) => {
    let value = start(frame);
    for (const w of wires) value = w.whole ? valueOf(w.source, frame) : w.write(value, valueOf(w.source, frame), frame.run);
    frame.slots[index] = value;
  };
}

/** Each argument's source where every wire into the step writes a whole `/args/N/value` (N < limit), the last wire of an argument winning; else undefined. */
function argSources(node: PlanNode, limit: number, scope: ScopeInfo): Source[] | undefined {
  if (node.inbound.some((wire) => wire.argIndex === undefined || wire.argIndex >= limit)) return undefined;
  const step = node.step;
  const staticArgs: unknown[] = Array.isArray(step?.args) ? step.args : [];
  const last = (i: number) => node.inbound.findLast((wire) => wire.argIndex === i);
  return Array.from({ length: limit }, (_, i) => {
    const wire = last(i);
    // An argument left null and unwired is unset: JavaScript's argument not given, undefined (unset-args.ts).
    return wire ? sourceOf(wire, scope) : constant(scope, staticArgs[i] === null ? undefined : staticArgs[i]);
  });
}

/** A library method with a `direct` form, its arguments read one by one; undefined when the step needs the general form. */
function directStep(node: PlanNode, scope: ScopeInfo): NodeFn | undefined {
  const { plan, readers, argsRead } = scope;
  const step = node.step;
  const entry = node.entry;
  if (!step || !entry?.direct || argsRead.has(node) || (node.kind !== 'method' && node.kind !== 'declaration')) return undefined;
  if (typeof step.template === 'string' && step.method === 'templateLiteral') return undefined;
  const sources = argSources(node, 3, scope);
  if (!sources) return undefined;
  const [a, b, c] = sources as [Source, Source, Source];
  // The first argument is owned when it is the fresh answer of a step no other wire reads: nothing else can see it change.
  const from = a.slot >= 0 ? plan.order[a.slot] : undefined;
  const owned = from?.step !== undefined && from.entry?.fresh === true && !argsRead.has(from) && readers.get(from)?.length === 1;
  const call = owned && entry.inPlace ? entry.inPlace : entry.direct;
  const index = node.index;
  if (a.read === undefined && b.read === undefined && c.read === undefined) {
    // Every argument in a slot (the common case): read straight from the frame.
    const [x, y, z] = [a.slot, b.slot, c.slot];
    return (frame) => {
      const slots = frame.slots;
      try {
        slots[index] = call(slots[x], slots[y], slots[z]);
      } catch (error) {
        throw stepError(error, { run: frame.run, plan, node });
      }
    };
  }
  return (frame) => {
    try {
      frame.slots[index] = call(valueOf(a, frame), valueOf(b, frame), valueOf(c, frame));
    } catch (error) {
      throw stepError(error, { run: frame.run, plan, node });
    }
  };
}

/** A step in the general form: its arguments' array filled (written through pointers when a wire goes below `/args/N/value`), then its call. */
function compileStep(node: PlanNode, scope: ScopeInfo): NodeFn {
  const { plan } = scope;
  const step = node.step;
  if (!step) throw new Error(`plan node ${node.key} has no step`);
  const staticArgs: unknown[] = Array.isArray(step.args) ? step.args : [];
  const wires = node.inbound.map((wire) => ({ at: wire.argIndex, source: sourceOf(wire, scope), write: writer(wire, plan, node) }));
  const call = compileCall(node, plan, scope.scopeOf);
  const argsOnly = wires.every((w) => w.at !== undefined);
  const keep = scope.argsRead.has(node);
  const index = node.index;
  const fill = (frame: Frame): unknown[] => {
    const args = staticArgs.slice();
    if (argsOnly) {
      for (const w of wires) args[w.at ?? 0] = valueOf(w.source, frame);
      return args;
    }
    // A wire into anything but `/args/N/value` (say `/args/0/value/name`) writes into a copy of the arguments.
    let state: unknown;
    let copied = false;
    for (const w of wires) {
      const value = valueOf(w.source, frame);
      if (w.at !== undefined && !copied) {
        args[w.at] = value;
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
      if (keep && frame.argv) frame.argv[index] = args;
    } catch (error) {
      throw stepError(error, { run: frame.run, plan, node });
    }
  };
}
