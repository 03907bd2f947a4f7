// A document scope (the document, or one of its nested functions) read into a plan:
// one node per value (each incoming and outgoing variable, each method,
// declaration, function, template and context step), the assign steps as the
// edges between them, and the order to evaluate the nodes in (topological, by
// the wiring; ties in document order). Plans are kept per scope object, so a
// document run many times is read once.
import { TransformationError } from './errors';
import { findMethod, type MethodEntry } from './library/index';
import { parsePointer } from './pointer';
import type { Endpoint, JstScope, Step } from './types';
import { errorMessage } from '../errors';

export type NodeKind = 'incoming' | 'outgoing' | 'method' | 'declaration' | 'function' | 'template' | 'context';

export interface Wire {
  step: Step;
  /** The node read, or undefined for a static value. */
  from?: PlanNode;
  fromTokens: string[];
  toTokens: string[];
  staticValue?: unknown;
  /** N when the wire writes a step's `/args/N/value` (the common case, written without copying). */
  argIndex?: number;
}

export interface PlanNode {
  /** Position in the plan's evaluation order. */
  index: number;
  key: string;
  kind: NodeKind;
  /** The `$id` of an incoming/outgoing variable, or the step's id. */
  name: string;
  step?: Step;
  entry?: MethodEntry;
  /** The assign steps writing into this node, shallowest pointer first. */
  inbound: Wire[];
}

export interface Plan {
  scope: JstScope;
  /** The scope's name for errors: undefined for the document itself. */
  functionName?: string;
  order: PlanNode[];
  incoming: PlanNode[];
  outgoing: PlanNode[];
  /** The functions this scope can call by name: its own, then those of the scopes around it. */
  functions: Map<string, JstScope>;
}

const STEP_KINDS: ReadonlySet<string> = new Set(['method', 'declaration', 'function', 'template', 'context']);
const isStepKind = (type: unknown): type is NodeKind => typeof type === 'string' && STEP_KINDS.has(type);

/** The plan of one scope (the document or a nested function). Callers keep the plans they reuse: a run its functions' plans, a compiled document its scopes. */
export function planFor(scope: JstScope, document: string, outer: Map<string, JstScope>, functionName?: string): Plan {
  const place = (step?: Step, method?: string, pointer?: string) => ({ document, function: functionName, step: step?.id, method, pointer });
  for (const field of ['steps', 'functions', 'incoming', 'outgoing'] as const) {
    const list = scope[field];
    if (list !== undefined && list !== null && (!Array.isArray(list) || list.some((item: unknown) => item === null || typeof item !== 'object'))) {
      throw new TransformationError('invalid-document', `\`${field}\` must be an array of objects`, place());
    }
  }
  const functions = new Map(outer);
  for (const fn of scope.functions ?? []) {
    for (const key of [fn.name, fn.id]) if (key !== undefined && key !== null) functions.set(String(key), fn);
  }

  const nodes = new Map<string, PlanNode>();
  const docOrder: PlanNode[] = [];
  const add = (node: PlanNode) => {
    if (nodes.has(node.key)) throw new TransformationError('invalid-document', `two ${node.kind === 'incoming' || node.kind === 'outgoing' ? `${node.kind} schemas` : 'steps'} share the ${node.kind === 'incoming' || node.kind === 'outgoing' ? '$id' : 'id'} "${node.name}"`, place(node.step));
    nodes.set(node.key, node);
    docOrder.push(node);
  };
  const incoming: PlanNode[] = (scope.incoming ?? []).map((schema) => ({ index: -1, key: `incoming:${String(schema.$id)}`, kind: 'incoming' as const, name: String(schema.$id), inbound: [] }));
  const outgoing: PlanNode[] = (scope.outgoing ?? []).map((schema) => ({ index: -1, key: `outgoing:${String(schema.$id)}`, kind: 'outgoing' as const, name: String(schema.$id), inbound: [] }));
  // A variable listed twice is one variable (the designer keeps the first); the duplicates are not nodes.
  const firstOf = (list: PlanNode[]) => list.filter((node, i) => list.findIndex((other) => other.key === node.key) === i);
  incoming.splice(0, incoming.length, ...firstOf(incoming));
  outgoing.splice(0, outgoing.length, ...firstOf(outgoing));
  incoming.forEach(add);
  outgoing.forEach(add);

  const steps = scope.steps ?? [];
  for (const step of steps) {
    if (step === null || typeof step !== 'object') throw new TransformationError('invalid-document', 'a step is not an object', place());
    if (step.type === 'assign') continue;
    if (!isStepKind(step.type)) throw new TransformationError('unsupported', `unsupported step type "${String(step.type)}"`, place(step));
    const node: PlanNode = { index: -1, key: `step:${String(step.id)}`, kind: step.type, name: String(step.id), step, inbound: [] };
    if (step.type === 'method' || step.type === 'declaration') {
      node.entry = findMethod(step.library, step.method);
      if (!node.entry) throw new TransformationError('unsupported', `unsupported method ${String(step.library)}.${String(step.method)}`, place(step, `${String(step.library)}.${String(step.method)}`));
    } else if (step.type === 'function') {
      if (!functions.has(String(step.function))) throw new TransformationError('invalid-document', `calls the function "${String(step.function)}", which the document does not define`, place(step, `function ${String(step.function)}`));
    } else if (step.type === 'template' && typeof step.template !== 'string') {
      throw new TransformationError('invalid-document', 'a template step needs its `template` text', place(step, 'String.templateLiteral'));
    }
    add(node);
  }

  const resolve = (end: Endpoint | undefined, side: 'from' | 'to', step: Step): PlanNode | undefined => {
    if (!end || typeof end !== 'object') throw new TransformationError('invalid-document', `an assign step needs its \`${side}\``, place(step));
    if (end.location === 'static' && side === 'from') return undefined;
    const key = end.location === 'incoming' || end.location === 'outgoing' ? `${end.location}:${String(end.name)}` : `step:${String(end.name)}`;
    const node = nodes.get(key);
    if (!node) {
      const what = end.location === 'incoming' || end.location === 'outgoing' ? `the ${end.location} variable "${String(end.name)}"` : `step ${String(end.name)} (${String(end.location)})`;
      throw new TransformationError('invalid-document', `the assign's \`${side}\` names ${what}, which the ${functionName ? 'function' : 'document'} does not have`, place(step, undefined, end.ptr));
    }
    return node;
  };
  const tokens = (end: Endpoint | undefined, step: Step) => {
    try {
      return parsePointer(end?.ptr ?? '');
    } catch (error) {
      throw new TransformationError('invalid-document', errorMessage(error), place(step, undefined, end?.ptr));
    }
  };

  const dependents = new Map<PlanNode, PlanNode[]>();
  const waiting = new Map<PlanNode, number>();
  for (const node of docOrder) waiting.set(node, 0);
  for (const step of steps) {
    if (step.type !== 'assign') continue;
    const from = resolve(step.from, 'from', step);
    const to = resolve(step.to, 'to', step);
    // Only a `from` may be static: resolve answers a node for every `to`.
    if (!to) throw new TransformationError('invalid-document', 'an assign step needs its `to`', place(step));
    const toTokens = tokens(step.to, step);
    const [part, slot = '', field] = toTokens;
    const argIndex = to.step && toTokens.length === 3 && part === 'args' && /^\d{1,4}$/.test(slot) && field === 'value' ? Number(slot) : undefined;
    const wire: Wire = { step, from, fromTokens: tokens(step.from, step), toTokens, staticValue: step.from?.value, argIndex };
    to.inbound.push(wire);
    if (from) {
      if (from === to) throw new TransformationError('invalid-document', 'an assign step reads and writes the same step', place(step, undefined, step.to?.ptr));
      dependents.set(from, [...(dependents.get(from) ?? []), to]);
      waiting.set(to, (waiting.get(to) ?? 0) + 1);
    }
  }
  for (const node of docOrder) node.inbound.sort((a, b) => a.toTokens.length - b.toTokens.length);

  // Kahn's algorithm, taking ready nodes in document order.
  const order: PlanNode[] = [];
  const ready = docOrder.filter((node) => waiting.get(node) === 0);
  const position = new Map(docOrder.map((node, i) => [node, i]));
  for (let node = ready.shift(); node !== undefined; node = ready.shift()) {
    order.push(node);
    for (const next of dependents.get(node) ?? []) {
      const left = (waiting.get(next) ?? 0) - 1;
      waiting.set(next, left);
      if (left === 0) {
        const at = ready.findIndex((r) => (position.get(r) ?? 0) > (position.get(next) ?? 0));
        ready.splice(at === -1 ? ready.length : at, 0, next);
      }
    }
  }
  if (order.length < docOrder.length) {
    const stuck = docOrder.filter((node) => !order.includes(node)).map((node) => (node.step ? `step ${node.name}` : `${node.kind} "${node.name}"`));
    throw new TransformationError('invalid-document', `the wiring goes round in a circle through ${stuck.join(', ')}`, place());
  }
  order.forEach((node, i) => {
    node.index = i;
  });
  return { scope, functionName, order, incoming, outgoing, functions };
}
