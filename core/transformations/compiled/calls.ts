// The call a compiled step makes once its arguments are in: a template, a nested function,
// a context hand-on or a library method (called with a context only when it takes one).
import { MethodArgumentError } from '../errors';
import type { Run } from '../run-entry';
import { arrayMethods } from '../library/array';
import type { CallContext } from '../library/index';
import { fillTemplate } from '../library/string';
import type { Plan, PlanNode } from '../plan';
import { givenArguments, unsetPositions } from '../unset-args';
import type { JstScope } from '../types';
import type { CompiledScope, Frame, ScopeLookup } from './frame';

/** A step's call: what it reads of the frame is the run and how deep the call is (generated code passes just those). */
export type CallFn = (args: unknown[], frame: Pick<Frame, 'run' | 'depth'>) => unknown;

export function compileCall(node: PlanNode, plan: Plan, scopeOf: ScopeLookup): CallFn {
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
      const enter = new Invoker(fn, name, plan, scopeOf);
      return (args, frame) => enter.scope(frame.run).call(args, frame.run, frame.depth + 1);
    }
    case 'context':
      // A context step hands its first argument on unchanged.
      return (args) => args[0];
    default: {
      // A method step of String.templateLiteral that carries its `template` fills it as a template step would.
      if (typeof template === 'string' && step.method === 'templateLiteral') return (args) => fillTemplate(template, args);
      const entry = node.entry;
      if (!entry) throw new Error(`plan node ${node.key} has no library method`);
      const declared = entry.fn;
      // Unset arguments (unset-args.ts): left out, or undefined before a given one.
      const unset = unsetPositions(node);
      const method: typeof declared = unset.length === 0 ? declared : (args, context) => declared(givenArguments(args, unset), context);
      // A method declared without its context parameter never reads it: no context is made for it.
      if (declared.length < 2) return (args) => method(args, NO_CONTEXT);
      const site = new CallSite(plan, scopeOf, typeof step.polymorphIndex === 'number' ? step.polymorphIndex : undefined);
      const general: CallFn = (args, frame) => method(args, new StepContext(site, frame.run, frame.depth));
      if (entry === arrayMethods.filter) return (args, frame) => filterAll(args, frame, site) ?? general(args, frame);
      return entry === arrayMethods.map ? (args, frame) => mapAll(args, frame, site) ?? general(args, frame) : general;
    }
  }
}

/**
 * Array.map through a function compiled into one closure (its scope's `mapAll`): what the general
 * call answers, made without a callback per item. Undefined when the call is not of that kind (not
 * an array of Array's own kind, empty, with constants, a name the document does not define, a
 * function of other steps): the general call then makes it, and fails where it should.
 */
function mapAll(args: unknown[], frame: Pick<Frame, 'run' | 'depth'>, site: CallSite): unknown[] | undefined {
  if (args.length !== 2) return undefined;
  // Read by index, not destructured: this is made for every map of every document.
  const items = args[0];
  if (!Array.isArray(items) || items.length === 0 || Object.getPrototypeOf(items) !== Array.prototype || Object.hasOwn(items, 'constructor')) return undefined;
  // Planned at the first item's call, where the interpreter plans it.
  const scope = site.scopeCalled(args[1], frame.run);
  return scope?.mapAll?.(items, frame.run, frame.depth + 1);
}

/**
 * Array.filter through a function compiled into one closure (its scope's `filterAll`), as mapAll
 * for Array.map: a function of its own, so the map's call, the hot path of a mapping document,
 * stays as it is.
 */
function filterAll(args: unknown[], frame: Pick<Frame, 'run' | 'depth'>, site: CallSite): unknown[] | undefined {
  if (args.length !== 2) return undefined;
  const items = args[0];
  if (!Array.isArray(items) || items.length === 0 || Object.getPrototypeOf(items) !== Array.prototype || Object.hasOwn(items, 'constructor')) return undefined;
  return site.scopeCalled(args[1], frame.run)?.filterAll?.(items, frame.run, frame.depth + 1);
}

const NO_CONTEXT: CallContext = {
  callback() {
    throw new Error('this method takes no function');
  },
};

/** A nested function called by name: its scope compiled on first call (where the interpreter plans it). */
class Invoker {
  private compiled: CompiledScope | undefined;

  constructor(
    private readonly fn: JstScope,
    private readonly name: string,
    private readonly outer: Plan,
    private readonly scopeOf: ScopeLookup,
  ) {}

  scope(run: Run): CompiledScope {
    return (this.compiled ??= this.scopeOf(this.fn, this.outer, this.name, run));
  }
}

/** What a method step's calls share: the functions it can call back, found once per name. */
class CallSite {
  private readonly invokers = new Map<string, Invoker>();

  constructor(
    private readonly plan: Plan,
    private readonly scopeOf: ScopeLookup,
    readonly polymorphIndex: number | undefined,
  ) {}

  /** The last function called by name here, and its scope: a step calls the same one run after run. */
  private last: { name: string; scope: CompiledScope } | undefined;

  /** The compiled scope of the function `name` (planned at its first call), or undefined when the document has no such function. */
  scopeCalled(name: unknown, run: Run): CompiledScope | undefined {
    const last = this.last;
    if (last !== undefined && last.name === name) return last.scope;
    const scope = this.invoker(name)?.scope(run);
    if (scope && typeof name === 'string') this.last = { name, scope };
    return scope;
  }

  invoker(name: unknown): Invoker | undefined {
    if (typeof name !== 'string') return undefined;
    let found = this.invokers.get(name);
    if (!found) {
      const fn = this.plan.functions.get(name);
      if (!fn) return undefined;
      found = new Invoker(fn, name, this.plan, this.scopeOf);
      this.invokers.set(name, found);
    }
    return found;
  }
}

/** What a library method may ask of the run: the document's functions as callbacks. */
class StepContext implements CallContext {
  readonly polymorphIndex: number | undefined;

  constructor(
    private readonly site: CallSite,
    private readonly run: Run,
    private readonly depth: number,
  ) {
    this.polymorphIndex = site.polymorphIndex;
  }

  callback(name: unknown, constants: unknown[]): (...args: unknown[]) => unknown {
    const enter = this.site.invoker(name);
    if (!enter) throw new MethodArgumentError(`the function "${String(name)}" it calls is not defined in the document`);
    const { run } = this;
    const depth = this.depth + 1;
    // The function is planned at its first call, as the interpreter plans it (a map over nothing plans nothing).
    let scope: CompiledScope | undefined;
    if (constants.length > 0) {
      return (...args: unknown[]) => {
        scope ??= enter.scope(run);
        return scope.single ? scope.callOne([...args, ...constants], run, depth) : scope.call([...args, ...constants], run, depth);
      };
    }
    // As a callback answers: the one outgoing value itself, else all of them by `$id`.
    return (...args: unknown[]) => {
      scope ??= enter.scope(run);
      return scope.single ? scope.callOne(args, run, depth) : scope.call(args, run, depth);
    };
  }
}
