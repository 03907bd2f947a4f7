// What the closures of a compiled scope share: the frame of one call of the scope (its
// values by node index, its incoming values, the run and how deep the call is), and where a
// node's value comes from when the closures read it.
import type { Run } from '../run-entry';
import type { Plan } from '../plan';
import type { JstScope } from '../types';

const NO_VALUES: Record<string, unknown> = Object.freeze({});
const NO_ARGS: unknown[] = [];

/** One call of a scope. Frames are reused call after call (compiled.ts); a recursive call takes another. */
export class Frame {
  /**
   * By node index: a variable's value, a step's return; past the nodes, the scope's static
   * values (a step's static arguments, a static assign's value), so every value a step takes
   * is read from one array.
   */
  readonly slots: unknown[];
  /** A step's arguments by its index, kept only in a scope where a wire reads them. */
  readonly argv: (unknown[] | undefined)[] | undefined;
  /** The document's incoming values by `$id` (the document's own scope). */
  incoming: Record<string, unknown> = NO_VALUES;
  /** A nested function's arguments, in the order of its incoming schemas. */
  args: unknown[] = NO_ARGS;
  depth = 0;

  constructor(
    private readonly nodes: number,
    constants: unknown[],
    keepsArgs: boolean,
    public run: Run,
  ) {
    this.slots = [...Array.from({ length: nodes }, () => undefined), ...constants];
    this.argv = keepsArgs ? Array.from({ length: nodes }, () => undefined) : undefined;
  }

  /** Lets go of the values of the call that ended (the static values stay), so a kept frame holds on to nothing. */
  clear(): void {
    // A loop, not fill(): for the few slots of a scope it costs less than the call.
    const { slots, argv, nodes } = this;
    for (let i = 0; i < nodes; i++) slots[i] = undefined;
    if (argv) for (let i = 0; i < nodes; i++) argv[i] = undefined;
    this.incoming = NO_VALUES;
    this.args = NO_ARGS;
  }
}

/** Evaluates one node into its slot of the frame. */
export type NodeFn = (frame: Frame) => void;
export type ReadFn = (frame: Frame) => unknown;

/**
 * Where a value a node takes comes from, worked out when compiling: a slot of the frame
 * (`slot` >= 0: a variable, a step's whole `/return`, or a static value), else a closure
 * reading deeper.
 */
export interface Source {
  slot: number;
  read: ReadFn | undefined;
}

export function valueOf(source: Source, frame: Frame): unknown {
  return source.read === undefined ? frame.slots[source.slot] : source.read(frame);
}

/** One scope (the document, or a nested function) compiled. */
export interface CompiledScope {
  plan: Plan;
  /** Whether it has exactly one outgoing variable: a callback then answers its value itself. */
  single: boolean;
  /** Runs the document's own scope on its incoming values by `$id`; answers its outgoing values by `$id`. */
  runTop(incoming: Record<string, unknown>, run: Run): Record<string, unknown>;
  /** Runs a nested function on its arguments; answers its outgoing values by `$id`. */
  call(args: unknown[], run: Run, depth: number): Record<string, unknown>;
  /** Runs a nested function and answers its one outgoing value (`single`), building no object. */
  callOne(args: unknown[], run: Run, depth: number): unknown;
  /**
   * Array.map of the function over `items` (an array of Array's own kind), for a function compiled
   * into one closure; undefined when it is called deeper than the run allows (the caller then calls
   * it as usual, which fails as it should).
   */
  mapAll: ((items: unknown[], run: Run, depth: number) => unknown[] | undefined) | undefined;
  /** Array.filter of the function over `items`, as `mapAll` (the same kind of function, the same undefined). */
  filterAll: ((items: unknown[], run: Run, depth: number) => unknown[] | undefined) | undefined;
}

/** Finds (compiling on first use) the scope of a nested function, as the interpreter plans it on first call. */
export type ScopeLookup = (fn: JstScope, outer: Plan, name: string, run: Run) => CompiledScope;
