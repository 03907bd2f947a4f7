// A nested function whose steps cannot fail and change nothing outside themselves (a
// property read by a name known when compiling; a new object given properties by names
// known when compiling) compiled into one closure over its arguments: no frame, no slots,
// no step writing a value only the next step reads. The usual shape of an Array.map
// callback that picks fields into a new object. Its steps may then run in any order (none
// can fail, none sees another's writes), so the closure is used only for a call whose steps
// are counted at once (compiled.ts): no limit can stop it part way.
import type { Plan, PlanNode, Wire } from '../plan';
import { objectMethods, propertyReader, staticKey } from '../library/object';
import { argumentAt, runsOtherSteps, type ScopeInfo } from './nodes';

/**
 * A value of the function, from its first three arguments (a callback's item, index and array):
 * a function reading a later argument is not compiled this way, so no arguments' array is made.
 */
export type Expr = (a0: unknown, a1: unknown, a2: unknown) => unknown;

/** A new object not yet made: its properties by name in the order they are set, each value's expression. */
interface Built {
  keys: string[];
  values: Expr[];
}

type Value = { expr: Expr } | { built: Built };

const GET = objectMethods.getProperty;
const NEW = objectMethods['new Object'];
const SET = objectMethods.setProperty;

/** A function compiled into one closure. */
export interface PureAnswer {
  /** Its one outgoing value, from its arguments. */
  answer: Expr;
  /**
   * When the answer is a new object: `all` is cleared by each answer with a value that is not JSON
   * as it is (an object, NaN, ...), so a caller that set it before its calls knows whether every
   * object they made is JSON as it is.
   */
  json: { all: boolean } | undefined;
}

/** The one closure answering the function's one outgoing value, or undefined when a step of it is not of those shapes. */
export function pureAnswer(plan: Plan, info: ScopeInfo): PureAnswer | undefined {
  const [answer, ...others] = plan.outgoing;
  if (plan.functionName === undefined || !answer || others.length > 0) return undefined;
  const values = new Map<PlanNode, Value>();
  for (const node of plan.order) {
    if (runsOtherSteps(node)) return undefined;
    const value = valueOfNode(node, plan, info, values);
    if (value === 'none') return undefined;
    if (value !== undefined) values.set(node, value);
  }
  const wire = answer.inbound[0];
  const value = values.get(answer);
  if (!value || !('expr' in value) || !wire) return undefined;
  // The answer's own new object, built again watching its values.
  const made = sourceOf(wire, values);
  if (!made || !('value' in made) || !('built' in made.value)) return { answer: value.expr, json: undefined };
  const json = { all: true };
  return { answer: build(made.value.built, json), json };
}

/** A node's value; undefined for an incoming variable nobody reads; 'none' for a node of another shape. */
function valueOfNode(node: PlanNode, plan: Plan, info: ScopeInfo, values: Map<PlanNode, Value>): Value | undefined | 'none' {
  const readers = info.readers.get(node) ?? [];
  if (node.kind === 'incoming') {
    if (node.inbound.length === 0 && readers.length === 0) return undefined;
    const at = argumentAt(node, plan);
    return at === undefined || at > 2 ? 'none' : { expr: argument(at) };
  }
  // Past here a value is read once at most (a new object is one object), and never through `/args`.
  if (readers.length > 1 || info.argsRead.has(node)) return 'none';
  if (node.kind === 'outgoing') {
    const [wire, ...more] = node.inbound;
    if (!wire || more.length > 0 || wire.toTokens.length > 0) return 'none';
    const expr = exprOf(sourceOf(wire, values));
    return expr ? { expr } : 'none';
  }
  const step = node.step;
  if ((node.kind !== 'method' && node.kind !== 'declaration') || !step || (typeof step.template === 'string' && step.method === 'templateLiteral')) return 'none';
  const args = argsOf(node, values);
  if (!args) return 'none';
  const [target, name, value] = args;
  if (node.entry === NEW) {
    // new Object of a static value that is not an object: an empty object.
    const given = target && 'static' in target ? target.static : {};
    return given !== null && typeof given === 'object' ? 'none' : { built: { keys: [], values: [] } };
  }
  const key = name && 'static' in name ? staticKey(name.static) : undefined;
  if (key === undefined) return 'none';
  if (node.entry === GET) {
    const object = exprOf(target);
    if (!object) return 'none';
    return { expr: readerOf(object, key) };
  }
  // setProperty on a new object this step alone reads (so it is set in place), a value from an expression or static.
  const into = target && 'value' in target ? target.value : undefined;
  const set = value && 'static' in value ? constant(value.static) : exprOf(value);
  if (node.entry !== SET || !into || !('built' in into) || !set) return 'none';
  return { built: { keys: [...into.built.keys, key], values: [...into.built.values, set] } };
}

type Source = { static: unknown } | { value: Value } | undefined;

/** Where a wire's value comes from: static, or the whole value of a node of the function. */
function sourceOf(wire: Wire, values: Map<PlanNode, Value>): Source {
  const from = wire.from;
  if (!from) return { static: wire.staticValue };
  const whole = from.step ? wire.fromTokens.length === 1 && wire.fromTokens[0] === 'return' : wire.fromTokens.length === 0;
  const value = values.get(from);
  return whole && value ? { value } : undefined;
}

/** The step's first three arguments (the last wire of each winning, else its static value), when every wire writes a whole `/args/N/value` below 3. */
function argsOf(node: PlanNode, values: Map<PlanNode, Value>): Source[] | undefined {
  if (node.inbound.some((wire) => wire.argIndex === undefined || wire.argIndex >= 3)) return undefined;
  const staticArgs: unknown[] = Array.isArray(node.step?.args) ? node.step.args : [];
  const sources: Source[] = [0, 1, 2].map((i) => {
    const wire = node.inbound.findLast((w) => w.argIndex === i);
    // An argument left null and unwired is unset: undefined, as JavaScript's argument not given (unset-args.ts).
    return wire ? sourceOf(wire, values) : { static: staticArgs[i] === null ? undefined : staticArgs[i] };
  });
  // Every wire reads a whole value (a wire another one overrides is still read, as the interpreter reads it).
  return node.inbound.every((wire) => sourceOf(wire, values) !== undefined) ? sources : undefined;
}

const constant =
  (value: unknown): Expr =>
  () =>
    value;

const ARGUMENTS: Expr[] = [(a0) => a0, (_a0, a1) => a1, (_a0, _a1, a2) => a2];
const argument = (at: number) => ARGUMENTS[at] as Expr;

const hasOwn = Object.prototype.hasOwnProperty;
const OBJECT = Object.prototype;
const prototypeOf = Object.getPrototypeOf;

// A plain read of a name answers what getProperty does (the object's own property, else
// undefined) when the object is a plain one (the usual item, from JSON) and Object.prototype
// has no such name: then no hasOwnProperty call is made, which would otherwise cost most of a
// pick. The read comes first (it measured faster so); on any other object its value is kept only
// when own (an inherited getter may run, its value left unused). Checked at every read, so a
// name added to Object.prototype later is still not read. Written out in each closure: a
// check in a shared helper would share its inline caches among every pick.

/** getProperty of a static name on a value: one closure when the value is an argument (the usual `item.name`), as propertyReader answers. */
function readerOf(object: Expr, key: string): Expr {
  const read = propertyReader(key);
  // `length` and an index read a string too (its length, its character).
  if (key === 'length' || /^\d+$/.test(key)) return (a0, a1, a2) => read(object(a0, a1, a2));
  const at = ARGUMENTS.indexOf(object);
  if (at !== 0) return (a0, a1, a2) => read(object(a0, a1, a2));
  const expr: Expr = (t) => {
    if (t === null || typeof t !== 'object') return undefined;
    const value = (t as Record<string, unknown>)[key];
    return (prototypeOf(t) === OBJECT && !(key in OBJECT)) || hasOwn.call(t, key) ? value : undefined;
  };
  itemReads.set(expr, key);
  return expr;
}

/** The reads of a static name on the first argument (the item), by their closure: a new object of such reads alone is made in one closure (`pick`). */
const itemReads = new WeakMap<Expr, string>();


function exprOf(source: Source): Expr | undefined {
  if (!source) return undefined;
  if ('static' in source) return constant(source.static);
  const value = source.value;
  return 'expr' in value ? value.expr : build(value.built);
}

/** Whether a value that is not an object is JSON as it is (as interpreter.ts's isJson): anything but NaN and the infinities. */
const jsonScalar = (value: unknown) => (typeof value === 'object' ? value === null : typeof value !== 'number' || Number.isFinite(value));

/** The new object made: its properties set in order, as new Object then setProperty in place would. `json`: see PureAnswer. */
function build({ keys, values }: Built, json?: { all: boolean }): Expr {
  const n = keys.length;
  const picked = values.map((value) => itemReads.get(value));
  if ((n === 1 || n === 2) && picked.every((name) => name !== undefined)) return pick(keys, picked, json);
  if (n === 2) {
    const [k0, k1] = keys as [string, string];
    const [v0, v1] = values as [Expr, Expr];
    return (a0, a1, a2) => {
      const a = v0(a0, a1, a2);
      const b = v1(a0, a1, a2);
      if (json && !(jsonScalar(a) && jsonScalar(b))) json.all = false;
      const out: Record<string, unknown> = {};
      out[k0] = a;
      out[k1] = b;
      return out;
    };
  }
  return (a0, a1, a2) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const value = (values[i] as Expr)(a0, a1, a2);
      if (json && !jsonScalar(value)) json.all = false;
      out[keys[i] as string] = value;
    }
    return out;
  };
}

/**
 * A new object of one or two properties, each read by a static name from the item: the reads
 * and the sets in one closure (the shape of most Array.map callbacks), as `build` makes it.
 */
function pick(keys: string[], names: string[], json: { all: boolean } | undefined): Expr {
  const [k0, k1] = keys as [string, string | undefined];
  const [n0, n1] = names as [string, string | undefined];
  if (k1 === undefined || n1 === undefined) {
    return (t) => {
      let a: unknown;
      if (t !== null && typeof t === 'object') {
        a = (t as Record<string, unknown>)[n0];
        if ((prototypeOf(t) !== OBJECT || n0 in OBJECT) && !hasOwn.call(t, n0)) a = undefined;
      }
      if (json && !jsonScalar(a)) json.all = false;
      const out: Record<string, unknown> = {};
      out[k0] = a;
      return out;
    };
  }
  return (t) => {
    let a: unknown;
    let b: unknown;
    if (t !== null && typeof t === 'object') {
      const o = t as Record<string, unknown>;
      a = o[n0];
      b = o[n1];
      if (prototypeOf(o) !== OBJECT || n0 in OBJECT || n1 in OBJECT) {
        a = hasOwn.call(o, n0) ? a : undefined;
        b = hasOwn.call(o, n1) ? b : undefined;
      }
    }
    if (json && !(jsonScalar(a) && jsonScalar(b))) json.all = false;
    const out: Record<string, unknown> = {};
    out[k0] = a;
    out[k1] = b;
    return out;
  };
}
