// A nested function whose steps cannot fail and change nothing outside themselves (a
// property read by a name known when compiling, or at a wire's pointer; a new object given
// properties by names known when compiling, by setProperty or by assigns writing the outgoing
// value at names; a comparison, JavaScript's operator) compiled into one function over
// its arguments: no frame, no slots, no step writing a value only the next step reads. The
// usual shape of an Array.map callback that picks fields into a new object, and of an
// Array.filter or find callback comparing a field with a value. Its steps may then run in any
// order (none can fail, none sees another's writes), so the function is used only for a call
// whose steps are counted at once (compiled.ts): no limit can stop it part way. A comparison
// that would convert an object (which may call its code, or throw) answers CANNOT_ANSWER
// before it, and the caller makes the call as the closures make it. The steps are read here
// into expressions (Ir); compiled/generate.ts writes them as JavaScript for this document alone.
import type { Plan, PlanNode, Wire } from '../plan';
import { objectMethods, staticKey } from '../library/object';
import { equalityMethods, relationalMethods } from '../library/logic';
import type { MethodEntry } from '../library/types';
import { INDEX, UNWRITABLE } from '../pointer';
import { argumentAt, runsOtherSteps, type ScopeInfo } from './nodes';
import { generatePure, type CompareOp, type Ir, type MapItems } from './generate';

/**
 * A value of the function, from its first three arguments (a callback's item, index and array):
 * a function reading a later argument is not compiled this way, so no arguments' array is made.
 */
export type Expr = (a0: unknown, a1: unknown, a2: unknown) => unknown;

/** A node's value: its expression, and whether it is a new object no step has read yet (`built`: a setProperty may add to it). */
interface Value {
  ir: Ir;
  built: boolean;
}

const GET = objectMethods.getProperty;
const NEW = objectMethods['new Object'];
const SET = objectMethods.setProperty;

/** The Equality and Relational methods that are JavaScript's operator of their two arguments (library/logic.ts), by entry. */
const COMPARISONS: ReadonlyMap<MethodEntry | undefined, CompareOp> = new Map<MethodEntry | undefined, CompareOp>([
  [equalityMethods.equality, '=='],
  [equalityMethods.inequality, '!='],
  [equalityMethods.identity, '==='],
  [equalityMethods.nonidentity, '!=='],
  [equalityMethods['strict equality'], '==='],
  [equalityMethods['strict inequality'], '!=='],
  [relationalMethods.greaterThan, '>'],
  [relationalMethods.lessThan, '<'],
  [relationalMethods.greaterThanOrEqual, '>='],
  [relationalMethods.lessThanOrEqual, '<='],
  [relationalMethods.greaterThanOrEqualTo, '>='],
  [relationalMethods.lessThanOrEqualTo, '<='],
]);

/** A function compiled into one function. */
export interface PureAnswer {
  /** Its one outgoing value, from its arguments. */
  answer: Expr;
  /**
   * When the answer is a new object: `all` is cleared by each answer with a value that is not JSON
   * as it is (an object, NaN, ...), so a caller that set it before its calls knows whether every
   * object they made is JSON as it is.
   */
  json: { all: boolean } | undefined;
  /**
   * Array.map of `answer` over an array of Array's own kind (holes kept as holes); `holes` then
   * says how many items were holes (no call made for them).
   */
  mapItems: MapItems;
  holes: { count: number };
  /** Whether `answer` may answer CANNOT_ANSWER (a loose or relational comparison): such a function is not mapped by `mapItems`. */
  mayDecline: boolean;
}

/**
 * The maker of the one function answering the function's one outgoing value (its code written
 * when called), or undefined when a step of it is not of those shapes.
 */
export function pureAnswer(plan: Plan, info: ScopeInfo): (() => PureAnswer) | undefined {
  const [answer, ...others] = plan.outgoing;
  if (plan.functionName === undefined || !answer || others.length > 0) return undefined;
  const values = new Map<PlanNode, Value>();
  for (const node of plan.order) {
    if (runsOtherSteps(node)) return undefined;
    const value = valueOfNode(node, plan, info, values);
    if (value === 'none') return undefined;
    if (value !== undefined) values.set(node, value);
  }
  const value = values.get(answer);
  if (!value) return undefined;
  // An answer that is a new object is watched for values that are not JSON as they are.
  const json = value.ir.kind === 'new' ? { all: true } : undefined;
  const holes = { count: 0 };
  return () => ({ ...generatePure(value.ir, json, holes), json, holes });
}

/** A node's value; undefined for an incoming variable nobody reads; 'none' for a node of another shape. */
function valueOfNode(node: PlanNode, plan: Plan, info: ScopeInfo, values: Map<PlanNode, Value>): Value | undefined | 'none' {
  const readers = info.readers.get(node) ?? [];
  if (node.kind === 'incoming') {
    if (node.inbound.length === 0 && readers.length === 0) return undefined;
    const at = argumentAt(node, plan);
    return at === undefined || at > 2 ? 'none' : { ir: { kind: 'arg', at }, built: false };
  }
  // Past here a value is read once at most (a new object is one object), and never through `/args`.
  if (readers.length > 1 || info.argsRead.has(node)) return 'none';
  if (node.kind === 'outgoing') {
    const [wire, ...more] = node.inbound;
    if (wire && more.length === 0 && wire.toTokens.length === 0) {
      const ir = irOf(sourceOf(wire, values));
      return ir ? { ir, built: false } : 'none';
    }
    return namedWrites(node, values);
  }
  const step = node.step;
  if ((node.kind !== 'method' && node.kind !== 'declaration') || !step || (typeof step.template === 'string' && step.method === 'templateLiteral')) return 'none';
  const args = argsOf(node, values);
  if (!args) return 'none';
  const [target, name, value] = args;
  const op = COMPARISONS.get(node.entry);
  if (op !== undefined) {
    const left = irOf(target);
    const right = irOf(name);
    return left && right ? { ir: { kind: 'compare', op, left, right }, built: false } : 'none';
  }
  if (node.entry === NEW) {
    // new Object of a static value that is not an object: an empty object.
    const given = target && 'static' in target ? target.static : {};
    return given !== null && typeof given === 'object' ? 'none' : { ir: { kind: 'new', keys: [], values: [] }, built: true };
  }
  const key = name && 'static' in name ? staticKey(name.static) : undefined;
  if (key === undefined) return 'none';
  if (node.entry === GET) {
    const object = irOf(target);
    return object ? { ir: { kind: 'get', object, key }, built: false } : 'none';
  }
  // setProperty on a new object this step alone reads (so it is set in place), a value from an expression or static.
  const into = target && 'value' in target && target.value.built ? target.value.ir : undefined;
  const set = irOf(value);
  if (node.entry !== SET || into?.kind !== 'new' || !set) return 'none';
  return { ir: { kind: 'new', keys: [...into.keys, key], values: [...into.values, set] }, built: true };
}

/**
 * An outgoing value written by assigns each at a name of its own (`/name`, `/value`): it starts
 * undefined, so the first write makes an object and each one after sets a name of a copy (pointer.ts
 * setAt), which is a new object given those names in order. A write at an index or `-` (which makes
 * an array), below a name, or at a name setAt refuses is of another shape.
 */
function namedWrites(node: PlanNode, values: Map<PlanNode, Value>): Value | 'none' {
  const keys: string[] = [];
  const written: Ir[] = [];
  for (const wire of node.inbound) {
    const [key, ...below] = wire.toTokens;
    if (key === undefined || below.length > 0 || key === '-' || INDEX.test(key) || UNWRITABLE.has(key)) return 'none';
    const ir = irOf(sourceOf(wire, values));
    if (!ir) return 'none';
    keys.push(key);
    written.push(ir);
  }
  return keys.length > 0 ? { ir: { kind: 'new', keys, values: written }, built: false } : 'none';
}

type Source = { static: unknown } | { value: Value } | undefined;

/** Where a wire's value comes from: static, or a node's value of the function (whole, or at a pointer below it). */
function sourceOf(wire: Wire, values: Map<PlanNode, Value>): Source {
  const from = wire.from;
  if (!from) return { static: wire.staticValue };
  const tokens = wire.fromTokens;
  // A step's value is read below its `/return`; an incoming value below itself.
  const below = from.step ? (tokens[0] === 'return' ? tokens.slice(1) : undefined) : tokens;
  const value = values.get(from);
  if (below === undefined || !value) return undefined;
  return below.length === 0 ? { value } : { value: { ir: { kind: 'at', object: value.ir, tokens: below }, built: false } };
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

/** A source's expression: a static value, or a node's (a new object from then on only a value). */
function irOf(source: Source): Ir | undefined {
  if (!source) return undefined;
  if ('static' in source) return { kind: 'const', value: source.static };
  return source.value.ir;
}
