// Which tasks of a job can run next, computed from the workflow and the job's task
// records alone (no hidden state), so any server can advance any job and doing it
// twice is harmless. A task with several incoming transitions waits for every one
// that can still fire: a transition is dead when its source ended in another
// state, or when its source has not run and nothing still active can reach it.
// A `revert` transition (a retry or polling loop back to an earlier task) never
// holds a task back: when it fires, its target runs again as a new iteration.
// A forEach run that ended in `loop` runs again (next element) once nothing in
// its body (what its `loop` transitions reach) is active or ready.
import { isFrozenThrough } from '../../values/frozen';

export const START = 'workflow_start';
export const END = 'workflow_end';

export interface Transition {
  type?: string;
  /** The state its source ends in (FinishState; a stored workflow's is any string, which then never fires). */
  state: string;
}
export type Transitions = Record<string, Record<string, Transition>>;

/** What the evaluation needs to know of a task record. */
export interface RecordState {
  _id: string;
  taskId: string;
  iteration: number;
  status: string;
  finishState?: string;
  /** Ids of the records whose transitions started this one. */
  from?: string[];
}

export interface ReadyTask {
  taskId: string;
  iteration: number;
  from: string[];
}

const ACTIVE: ReadonlySet<string> = new Set(['queued', 'running', 'waiting']);

export function isFinished(record: RecordState): boolean {
  return (record.status === 'complete' || record.status === 'error') && record.finishState !== undefined;
}

export function latestRecords<R extends RecordState>(records: R[]): Map<string, R> {
  const latest = new Map<string, R>();
  for (const record of records) {
    const known = latest.get(record.taskId);
    if (!known || record.iteration > known.iteration) latest.set(record.taskId, record);
  }
  return latest;
}

interface Edge {
  src: string;
  state: string;
  revert: boolean;
}

/**
 * Process-wide on purpose: the incoming edges of a transitions object frozen all through (the
 * runner's deepFreeze: the same object for every job of a workflow version), kept by that object
 * (weakly), found once instead of at every decision. Derived and read only; gone with the object.
 */
const incomingCache = new WeakMap<Transitions, Map<string, Edge[]>>();

function incomingOf(transitions: Transitions): Map<string, Edge[]> {
  const cached = transitions ? incomingCache.get(transitions) : undefined;
  if (cached) return cached;
  const incoming = incomingEdges(transitions);
  if (isFrozenThrough(transitions)) incomingCache.set(transitions, incoming);
  return incoming;
}

function incomingEdges(transitions: Transitions): Map<string, Edge[]> {
  const incoming = new Map<string, Edge[]>();
  const own = Object.prototype.hasOwnProperty;
  // Own keys, as Object.entries reads them, without an array of pairs per task.
  for (const src in transitions ?? {}) {
    if (!own.call(transitions, src)) continue;
    const targets = transitions[src] ?? {};
    for (const dst in targets) {
      if (!own.call(targets, dst)) continue;
      const transition = targets[dst];
      const list = incoming.get(dst);
      const edge = { src, state: transition?.state ?? 'success', revert: transition?.type === 'revert' };
      if (list) list.push(edge);
      else incoming.set(dst, [edge]);
    }
  }
  return incoming;
}

/** Tasks reachable along any transition from `roots`, never passing through `avoid`. */
function reachable(transitions: Transitions, roots: Iterable<string>, avoid: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots].filter((id) => id !== avoid);
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    for (const dst of Object.keys(transitions[id] ?? {})) if (dst !== avoid && !seen.has(dst)) stack.push(dst);
  }
  return seen;
}

/** The tasks to create now. Deterministic for the same records. */
export function readyTasks(taskIds: string[], transitions: Transitions, records: RecordState[]): ReadyTask[] {
  const incoming = incomingOf(transitions);
  const latest = latestRecords(records);
  const consumed = new Set<string>();
  for (const record of records) for (const id of record.from ?? []) consumed.add(id);
  const nodes = new Set<string>([...taskIds, END]);
  nodes.delete(START);

  // Fired and not yet consumed transitions into each target: the ids of their source records.
  // They depend on the records alone, so they are found once, not at every pass below.
  const firedInto = new Map<string, string[]>();
  for (const node of nodes) {
    const from: string[] = [];
    for (const edge of incoming.get(node) ?? []) {
      const src = latest.get(edge.src);
      if (src && isFinished(src) && src.finishState === edge.state && !consumed.has(src._id)) from.push(src._id);
    }
    if (from.length) firedInto.set(node, from);
  }
  const arrivals = [...firedInto.keys()];

  const active = new Set<string>();
  for (const record of latest.values()) if (ACTIVE.has(record.status) || (record.status === 'error' && !isFinished(record))) active.add(record.taskId);
  const ready: ReadyTask[] = [];
  let progress = true;
  while (progress) {
    progress = false;
    for (const node of nodes) {
      const fired = firedInto.get(node);
      if (!fired || ready.some((r) => r.taskId === node)) continue;
      const mine = latest.get(node);
      if (mine) {
        // A loop back into a task that ran: it runs again once its last run ended.
        if (!isFinished(mine)) continue;
        ready.push({ taskId: node, iteration: mine.iteration + 1, from: fired });
        progress = true;
        continue;
      }
      const live = reachable(transitions, [...active, ...arrivals, ...ready.map((r) => r.taskId)], node);
      const waiting = (incoming.get(node) ?? []).some((edge) => {
        if (edge.revert) return false;
        const src = latest.get(edge.src);
        if (src) return !isFinished(src);
        return live.has(edge.src);
      });
      if (waiting) continue;
      ready.push({ taskId: node, iteration: 0, from: fired });
      progress = true;
    }
  }
  ready.push(...nextLoopRuns(transitions, latest, { consumed, active, ready }));
  return ready;
}

/** forEach runs that ended in `loop` and whose body is done: each runs again for its next element. */
function nextLoopRuns(
  transitions: Transitions,
  latest: Map<string, RecordState>,
  { consumed, active, ready }: { consumed: Set<string>; active: Set<string>; ready: ReadyTask[] },
): ReadyTask[] {
  const again: ReadyTask[] = [];
  for (const record of latest.values()) {
    if (!isFinished(record) || record.finishState !== 'loop') continue;
    const starts = Object.entries(transitions[record.taskId] ?? {})
      .filter(([, t]) => t?.state === 'loop')
      .map(([dst]) => dst);
    // The body has not started yet from this run: wait for it.
    if (starts.length > 0 && !consumed.has(record._id)) continue;
    const body = reachable(transitions, starts, record.taskId);
    body.delete(END);
    const busy = [...body].some((id) => active.has(id) || ready.some((r) => r.taskId === id));
    if (!busy) again.push({ taskId: record.taskId, iteration: record.iteration + 1, from: [record._id] });
  }
  return again;
}
