// Divergence, exactly (issue 44, item 3): two runs of one workflow compared task by task along
// the path each took. The first task (in the order the first run reached them) whose status, the
// transitions it took, or its outgoing values differ is the divergence. Values are compared as the
// store holds them, where undefined is the marker `~4undefined` (or null before 2021.1.10), so
// undefined and null are told apart, and the report shows them that way.
import { UNDEFINED_MARKER } from '../../values/undefined-codec';
import type { TaskRecord } from '../../engine/queue/queue';
import type { RehearsalTaskState } from '../../contract/rehearsal';

const key = (r: Pick<TaskRecord, 'taskId' | 'iteration'>) => `${r.taskId}#${r.iteration}`;

/** A value with each undefined (at any depth) as the marker, so JSON keeps it and null stays null. */
export function shown(value: unknown): unknown {
  if (value === undefined) return UNDEFINED_MARKER;
  if (Array.isArray(value)) return value.map(shown);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shown(v)]));
  }
  return value;
}

/** Deep equality where undefined, null and a missing key are three different things. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A run's records by task and iteration, with the tasks each one's transitions started. */
function pathOf(records: TaskRecord[]) {
  const byId = new Map(records.map((r) => [r._id, r]));
  const next = new Map<string, string[]>();
  for (const r of records) {
    for (const from of r.from ?? []) {
      const source = byId.get(from);
      if (!source) continue;
      next.set(key(source), [...(next.get(key(source)) ?? []), r.taskId].sort());
    }
  }
  const ordered = [...records].sort((x, y) => x.queuedAt - y.queuedAt || x.taskId.localeCompare(y.taskId) || x.iteration - y.iteration);
  return { ordered, byKey: new Map(records.map((r) => [key(r), r])), next };
}

function stateOf(record: TaskRecord | undefined, next: string[] | undefined): RehearsalTaskState {
  if (!record) return { reached: false };
  return {
    reached: true,
    status: record.status,
    ...(record.finishState ? { finishState: record.finishState } : {}),
    transition: next ?? [],
    outgoing: shown(record.outgoing ?? {}),
    ...(record.error ? { error: record.error } : {}),
  };
}

export interface Divergence {
  task: string;
  /** What differs: status, transition or outgoing. */
  differs: ('status' | 'transition' | 'outgoing')[];
  before: RehearsalTaskState;
  after: RehearsalTaskState;
}

/** The first task along the path where the run `before` and the run `after` differ, or undefined when they do not. */
export function firstDivergence(before: TaskRecord[], after: TaskRecord[]): Divergence | undefined {
  const a = pathOf(before);
  const b = pathOf(after);
  const seen = new Set<string>();
  // The first run's path first, then what only the second run reached.
  for (const record of [...a.ordered, ...b.ordered]) {
    const k = key(record);
    if (seen.has(k)) continue;
    seen.add(k);
    const ra = a.byKey.get(k);
    const rb = b.byKey.get(k);
    const sa = stateOf(ra, a.next.get(k));
    const sb = stateOf(rb, b.next.get(k));
    const differs: Divergence['differs'] = [];
    if (!ra || !rb || ra.status !== rb.status || ra.finishState !== rb.finishState) differs.push('status');
    if (!sameValue(sa.transition ?? [], sb.transition ?? [])) differs.push('transition');
    if (!sameValue(ra?.outgoing ?? {}, rb?.outgoing ?? {})) differs.push('outgoing');
    if (differs.length) return { task: record.taskId, differs, before: sa, after: sb };
  }
  return undefined;
}
