// Compiled JST: a document turned into JavaScript, once, from its plan (plan.ts). The
// document's own scope, and each nested function of property reads and new objects, is
// written as code for this document (compiled/generate-scope.ts, compiled/generate.ts; no
// value of the document in the text, only indexes into constants). Any other scope, and a
// scope with a wire generated code does not write, gets closures: each node of the plan a
// closure that reads its wires, calls its method and keeps its value (compiled/nodes.ts),
// and each scope a closure that runs its nodes in the plan's order over a frame it reuses
// call after call. The closures do what the interpreter
// (interpreter.ts) does, with the same limits and the same errors; the work of reading
// the plan (which wire goes where, which pointer shape a read has, which method a step
// calls and how) is done when compiling instead of at every step.
import { TransformationError } from './errors';
import { place } from './interpreter';
import { RunEntry, TIME_CHECK_MASK, type Run, type RunResult } from './run-entry';
import { IncomingValidators } from './incoming';
import { planFor, type Plan, type PlanNode } from './plan';
import type { JstDocument, JstScope, RunOptions } from './types';
import { Frame, type CompiledScope, type NodeFn, type ScopeLookup } from './compiled/frame';
import { argumentAt, compileNode, repeatedSlot, runsOtherSteps, scopeInfo } from './compiled/nodes';
import { pureAnswer, type PureAnswer } from './compiled/pure';
import { CANNOT_ANSWER } from './compiled/generate';
import { generateTop, type TopFn } from './compiled/generate-scope';

/** A document compiled: `run` answers as `runTransformation(document, ...)` would. */
export interface CompiledTransformation {
  document: JstDocument;
  run(incoming: Record<string, unknown>, options?: RunOptions): RunResult;
}

/** `validators`: the incoming schemas' validators, shared by the documents of one service. */
export function compileTransformation(doc: JstDocument, validators: IncomingValidators = new IncomingValidators()): CompiledTransformation {
  // Per compiled document: its scopes, compiled when first run (a scope that cannot be
  // planned fails where and when the interpreter's would: at its first call).
  const scopes = new Map<JstScope, CompiledScope>();
  const scopeOf: ScopeLookup = (fn, outer, name, run) => {
    let compiled = scopes.get(fn);
    if (!compiled) {
      compiled = compileScope(planFor(fn, run.document, outer.functions, name), scopeOf, tier);
      scopes.set(fn, compiled);
    }
    return compiled;
  };
  let top: CompiledScope | undefined;
  const tier: Tier = { hot: false };
  let begun = false;
  const entry = new RunEntry(doc, validators);
  return {
    document: doc,
    run(incoming, options = NO_OPTIONS) {
      // A document run once (one compiled for a single run) is not worth writing code for: from its second run on it is.
      if (begun) tier.hot = true;
      begun = true;
      const { given, run } = entry.begin(incoming, options);
      top ??= compileScope(planFor(doc, run.document, new Map()), scopeOf, tier);
      return entry.end(top.runTop(given, run), options, run.jsonValues);
    },
  };
}

/** A run given no options (one object for all of them: a run reads its options, never writes them). */
const NO_OPTIONS: RunOptions = Object.freeze({});

/** Whether a compiled document's scopes run as code written for them (from its second run on) or as closures. */
interface Tier {
  hot: boolean;
}

function compileScope(plan: Plan, scopeOf: ScopeLookup, tier: Tier): CompiledScope {
  const info = scopeInfo(plan, scopeOf);
  // An incoming variable nobody reads and nothing writes is only counted as a step.
  const idle = (node: PlanNode) => node.kind === 'incoming' && node.inbound.length === 0 && !info.readers.has(node);
  // A function's incoming variables that are only its arguments are put in their slots when it is
  // called, and an outgoing variable that only repeats a slot is answered from that slot: neither
  // needs a closure (each is still counted as a step).
  const fromArgs: { slots: number[]; at: number[] } = { slots: [], at: [] };
  const answerSlot = new Map<PlanNode, number>();
  const nodes: (NodeFn | undefined)[] = plan.order.map((node) => {
    if (idle(node)) return undefined;
    const at = argumentAt(node, plan);
    if (at !== undefined) {
      fromArgs.slots.push(node.index);
      fromArgs.at.push(at);
      return undefined;
    }
    const repeated = repeatedSlot(node, info);
    if (repeated !== undefined) {
      answerSlot.set(node, repeated);
      return undefined;
    }
    return compileNode(node, info);
  });
  const constants = info.constants;
  const count = nodes.length;
  const keepsArgs = info.argsRead.size > 0;
  const outgoing = plan.outgoing.map((node) => ({ name: node.name, index: answerSlot.get(node) ?? node.index }));
  const singleIndex = outgoing.length === 1 ? (outgoing[0]?.index ?? -1) : -1;
  const singleName = outgoing.length === 1 ? outgoing[0]?.name : undefined;
  const takeArgs = (frame: Frame, args: unknown[]) => {
    frame.args = args;
    const { slots, at } = fromArgs;
    for (let i = 0; i < slots.length; i++) frame.slots[slots[i] as number] = args[at[i] as number];
  };
  // Frames of calls that ended, taken again by the next call (a call inside a call takes its own).
  const free: Frame[] = [];
  const enter = (run: Run, depth: number): Frame => {
    if (depth > run.maxDepth) {
      throw new TransformationError('limit', `functions call each other more than ${run.maxDepth} deep`, { document: run.document, function: plan.functionName });
    }
    const frame = free.pop() ?? new Frame(count, constants, keepsArgs, run);
    frame.run = run;
    frame.depth = depth;
    return frame;
  };
  // The nodes that do something, in order, and whether none of them runs other steps.
  const work = nodes.filter((evaluate) => evaluate !== undefined);
  const alone = plan.order.every((node) => !runsOtherSteps(node));
  // A function of reads and new objects: its code written once the document is hot (until then, its closures).
  const makePure = outgoing.length === 1 ? pureAnswer(plan, info) : undefined;
  let pure: PureAnswer | undefined;
  let mapper: CompiledScope['mapAll'];
  let filterer: CompiledScope['filterAll'];
  const hot = (): PureAnswer | undefined => (makePure && tier.hot ? (pure ??= makePure()) : undefined);
  // A call by the written function, its steps counted at once; CANNOT_ANSWER (its steps given back)
  // when there is none yet, a limit may stop it, or it declines: the closures then make the call.
  const written = (args: unknown[], run: Run, depth: number): unknown => {
    const made = hot();
    if (made === undefined || depth > run.maxDepth || !countAtOnce(run, count)) return CANNOT_ANSWER;
    const value = made.answer(args[0], args[1], args[2]);
    if (value === CANNOT_ANSWER) run.steps -= count;
    return value;
  };
  const callOne: CompiledScope['callOne'] = (args, run, depth) => {
    const frame = enter(run, depth);
    takeArgs(frame, args);
    exec(frame);
    const value = frame.slots[singleIndex];
    leave(frame);
    return value;
  };
  const exec = (frame: Frame): void => {
    const run = frame.run;
    // When no node runs other steps and this call can reach neither the step limit nor a
    // failing time check, the steps are counted at once. Otherwise each node is counted and checked in turn.
    if (alone && countAtOnce(run, count)) {
      for (const evaluate of work) evaluate(frame);
      return;
    }
    for (let i = 0; i < count; i++) {
      if (++run.steps > run.maxSteps) throw new TransformationError('limit', `the run went past ${run.maxSteps} steps`, place(run, plan, plan.order[i] as PlanNode));
      if ((run.steps & TIME_CHECK_MASK) === 0 && Date.now() > run.deadline) {
        throw new TransformationError('limit', `the run took longer than ${run.timeoutMs} ms`, place(run, plan, plan.order[i] as PlanNode));
      }
      const evaluate = nodes[i];
      if (evaluate !== undefined) evaluate(frame);
    }
  };
  const leave = (frame: Frame): void => {
    frame.clear();
    free.push(frame);
  };
  const answer = (frame: Frame): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const { name, index } of outgoing) out[name] = frame.slots[index];
    leave(frame);
    return out;
  };
  // The document's own scope as code written for it, when every wire of it is of a kind generated code writes.
  let generated: TopFn | null | undefined;
  return {
    plan,
    single: singleIndex >= 0,
    runTop(incoming, run) {
      if (tier.hot) {
        if (generated === undefined) generated = generateTop(plan, info) ?? null;
        if (generated) return generated(incoming, run);
      }
      const frame = enter(run, 0);
      frame.incoming = incoming;
      exec(frame);
      return answer(frame);
    },
    call(args, run, depth) {
      // A function step's call of a function written as one: its outgoing value by name, as `answer` sets it.
      if (singleName !== undefined) {
        const value = written(args, run, depth);
        if (value !== CANNOT_ANSWER) {
          const out: Record<string, unknown> = {};
          out[singleName] = value;
          return out;
        }
      }
      const frame = enter(run, depth);
      takeArgs(frame, args);
      exec(frame);
      return answer(frame);
    },
    callOne(args, run, depth) {
      const value = written(args, run, depth);
      return value !== CANNOT_ANSWER ? value : callOne(args, run, depth);
    },
    mapAll:
      makePure &&
      ((items, run, depth) => {
        const made = hot();
        return made && (mapper ??= mapAll(made, count, callOne))?.(items, run, depth);
      }),
    filterAll:
      makePure &&
      ((items, run, depth) => {
        const made = hot();
        return made && (filterer ??= filterAll(made.answer, count, callOne))?.(items, run, depth);
      }),
  };
}

/**
 * Array.map of a function compiled into one closure (compiled/pure.ts), each item's call made
 * as `callOne` would make it: its steps counted at once, or (near a limit) each counted and
 * checked in turn through `slow`. No arguments' array per call, no callback between. An array
 * of new objects of JSON values is noted in the run, so its JSON form is not made again.
 * A map of up to AT_ONCE steps is counted in one go: its closures take microseconds, so a
 * time check it passes over is made at most that much later; a longer map counts item by item.
 */
const AT_ONCE = 65_536;

function mapAll(pure: PureAnswer, count: number, slow: CompiledScope['callOne']): CompiledScope['mapAll'] {
  // A function that can decline an item (a loose comparison, pure.ts) is mapped by the general call, each
  // item through callOne: this path stays as it is, the hot path of a mapping document (kept small, V8
  // inlines it into the document's own code).
  if (pure.mayDecline) return undefined;
  const { answer, json, mapItems, holes } = pure;
  return (items, run, depth) => {
    if (depth > run.maxDepth) return undefined;
    if (json) json.all = true;
    let out: unknown[];
    let fast = true;
    // Every item's steps counted at once when no limit can stop any of them (the steps of a
    // hole's call, which Array.map does not make, are given back after); else item by item.
    // `mapItems` is Array.map written for this function alone (compiled/generate.ts).
    if (count * items.length <= AT_ONCE && countAtOnce(run, count * items.length)) {
      out = mapItems(items);
      run.steps -= count * holes.count;
    } else {
      out = items.map((item, index) => {
        if (countAtOnce(run, count)) return answer(item, index, items);
        fast = false;
        return slow([item, index, items], run, depth);
      });
    }
    if (fast && json?.all) (run.jsonValues ??= []).push(out);
    return out;
  };
}

/**
 * Array.filter of a function compiled into one closure: each item's call made as `callOne` would
 * make it (its steps counted at once, or through `slow` near a limit or for an item the function
 * cannot answer), with no callback between. As Array.filter: no call for a hole, the items whose
 * answer is truthy kept in order.
 */
function filterAll(answer: PureAnswer['answer'], count: number, slow: CompiledScope['callOne']): CompiledScope['filterAll'] {
  return (items, run, depth) => {
    if (depth > run.maxDepth) return undefined;
    const out: unknown[] = [];
    const n = items.length;
    for (let i = 0; i < n; i++) {
      const item = items[i];
      // A hole reads undefined: only then is it asked whether the index is there.
      if (item === undefined && !(i in items)) continue;
      let keep: unknown = CANNOT_ANSWER;
      if (countAtOnce(run, count)) {
        keep = answer(item, i, items);
        if (keep === CANNOT_ANSWER) run.steps -= count;
      }
      if (keep === CANNOT_ANSWER) keep = slow([item, i, items], run, depth);
      if (keep) out.push(item);
    }
    return out;
  };
}

/**
 * Counts `count` steps at once when no step of them can stop the run: the step limit is not
 * reached, and no time check (every 1,024th step, run-entry.ts) falls among them, or the time is not up now
 * (the check would have been made a moment later: the same as on a faster machine). Answers
 * whether it counted them; when not, the caller counts and checks each step in turn.
 */
function countAtOnce(run: Run, count: number): boolean {
  const before = run.steps;
  if (before + count > run.maxSteps) return false;
  if ((before & TIME_CHECK_MASK) + count > TIME_CHECK_MASK && Date.now() > run.deadline) return false;
  run.steps = before + count;
  return true;
}
