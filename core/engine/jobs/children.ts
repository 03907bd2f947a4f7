// The childJob task: starts a job of another workflow and waits for it; with a
// `loopType` of `parallel` or `sequential` it starts one child per element of
// `data_array` (each element is that child's job variables, or the input of the
// `transformation` JST when one is named), all at once or one after another.
// The task ends when its children have. `job_details` is the child's job variables
// (with its `_id` and `status` where it has no variable of that name), which the
// exports query directly (`createdCR.response.id`); for a loop it is
// `{ loop: [ one such object per child, in data_array's order ] }` (the exports
// query `loop[*returnStatus=FAILED]`). A variable passed as undefined arrives as
// null (release 2022.1, 1.1.4), at any depth.
// What a childJob task starts, and what a child's end means for it, are decided here
// and returned as intents (no store): the executor starts the children and ends the task.
import { createHash } from 'node:crypto';
import { childJobVariables, decodeValue, decodeVariables, encodeVariables } from '../../values/undefined-codec';
import type { TaskOutcome } from '../tasks/library';
import type { TaskRecord } from '../queue/queue';
import type { TransformationRunner } from './own-tasks';
import { jobErrorText } from './job-error';
import type { JobDoc } from './types';
import type { ReleaseSemantics } from '../../release/semantics';

/** The service refuses longer loop arrays. */
export const MAX_LOOP_ELEMENTS = 10_000;

export type LoopPlan = NonNullable<TaskRecord['loop']>;

type ChildUndefined = ReleaseSemantics['childUndefined'];

/** A child job to start (unless one of its id exists already), for the parent's childJob record. */
export interface ChildStart {
  id: string;
  workflow: string;
  variables: Record<string, unknown>;
  description: string;
  user: string;
  parent: { job: string; task: string; record: string };
}

/** What a childJob task's run starts: its children (the first of a sequential loop), or the task's error. */
export type ChildPlan =
  | { kind: 'error'; error: string }
  | { kind: 'start'; base: string; plan?: LoopPlan; starts: ChildStart[]; incoming: Record<string, unknown> };

/** What a child job's end does to its parent's childJob record. */
export type ChildStep =
  | { kind: 'none' }
  /** The task ends with this outcome. */
  | { kind: 'end'; outcome: TaskOutcome }
  /** A sequential loop goes on: this element's child starts (its start failing ends the task in error). */
  | { kind: 'start-next'; start: ChildStart; index: number }
  /** A loop's child ended: the task ends once `loopOutcome` says so, given the children started so far. */
  | { kind: 'collect'; plan: LoopPlan };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The variables of each child of a loop, or an error naming what to fix. */
async function loopVariables(transformations: TransformationRunner | undefined, incoming: Record<string, unknown>, undefinedAs: ChildUndefined): Promise<Record<string, unknown>[]> {
  const items = incoming.data_array;
  if (!Array.isArray(items)) throw new Error(`data_array must be an array when loopType is "${String(incoming.loopType)}"`);
  if (items.length > MAX_LOOP_ELEMENTS) throw new Error(`data_array has ${items.length} elements; at most ${MAX_LOOP_ELEMENTS} are allowed`);
  const transformation = typeof incoming.transformation === 'string' ? incoming.transformation : '';
  const out: Record<string, unknown>[] = [];
  for (const [i, item] of items.entries()) {
    let variables: unknown = item;
    if (transformation) {
      if (!transformations) throw new Error('transformation: JST not supported yet, so data_array elements cannot be transformed');
      variables = await transformations.run({ tr_id: transformation, variableMap: { currentValue: item }, options: {} }, { currentValue: item });
    }
    if (!isObject(variables)) throw new Error(`data_array[${i}] must be an object of the child job variables, got ${Array.isArray(variables) ? 'an array' : String(variables)}`);
    // The service gives each child of a loop its place in data_array as the job variable childJobLoopIndex
    // (so the loop's job_details.loop tells each element's child by it).
    const { childJobLoopIndex: _given, ...element } = childJobVariables(variables, undefinedAs);
    out.push({ childJobLoopIndex: i, ...element });
  }
  return out;
}

function details(child: JobDoc): Record<string, unknown> {
  return { _id: child._id, status: child.status, ...decodeVariables(child.variables) };
}

const description = (job: Pick<JobDoc, '_id' | 'name'>, taskId: string) => `child job of ${job.name} (${job._id}), task ${taskId}`;

/**
 * A child job's id, an ObjectId as the service's job ids are (24 hex digits), derived from the run
 * that starts it so a run started again (after a crash) finds the child it started: the time the
 * task's run started (seconds, time first as an ObjectId's), 5 bytes of a hash of the task record
 * and its attempt, and a 3-byte counter (0; a loop's children 1, 2, … in data_array's order).
 */
export function childJobId(record: Pick<TaskRecord, '_id' | 'attempt' | 'queuedAt' | 'metrics'>): string {
  const seconds = Math.floor((record.metrics.start_time ?? record.queuedAt) / 1000) >>> 0;
  const hash = createHash('sha256').update(`${record._id}\u0000${record.attempt}`).digest('hex').slice(0, 10);
  return `${seconds.toString(16).padStart(8, '0')}${hash}000000`;
}

/** The id of a loop's `index`th child: its task run's id with the counter `index + 1`. */
export function loopChildId(base: string, index: number): string {
  // A base of an earlier version (not an ObjectId) keeps its children's names.
  if (!/^[0-9a-f]{24}$/.test(base)) return `${base}:${index}`;
  return `${base.slice(0, 18)}${(index + 1).toString(16).padStart(6, '0')}`;
}

/**
 * The children a childJob task's run starts (no store: JST transformations only). `undefinedAs`: what
 * a variable passed as undefined arrives as (the release's semantics, core/release/semantics.ts; 2022.1: null).
 */
export async function childPlan(
  job: JobDoc,
  record: TaskRecord,
  incoming: Record<string, unknown>,
  { transformations, undefinedAs = 'null' }: { transformations?: TransformationRunner; undefinedAs?: ChildUndefined } = {},
): Promise<ChildPlan> {
  const base = record.childJob ?? childJobId(record);
  const loopType = incoming.loopType;
  const workflow = incoming.workflow;
  const parent = { job: job._id, task: record.taskId, record: record._id };
  const made = { base, parent, user: job.metrics.user, description: description(job, record.taskId) };
  try {
    if (typeof workflow !== 'string' || !workflow) throw new Error('workflow must be the name of the workflow to start');
    if (loopType === 'parallel' || loopType === 'sequential') {
      const variables = await loopVariables(transformations, incoming, undefinedAs);
      const plan: LoopPlan = { type: loopType, ids: variables.map((_, i) => loopChildId(base, i)), variables: variables.map((v) => encodeVariables(v)) };
      const first = loopType === 'parallel' ? plan.ids.length : Math.min(1, plan.ids.length);
      const starts = plan.ids.slice(0, first).map((id, i) => ({ ...made, id, workflow, variables: variables[i] ?? {}, description: `${made.description}, element ${i}` }));
      return { kind: 'start', base, plan, starts, incoming };
    }
    const given = incoming.variables;
    if (given !== undefined && given !== null && given !== '' && !isObject(given)) throw new Error('variables must be an object of the child job variables');
    const variables = childJobVariables(isObject(given) ? given : {}, undefinedAs);
    return { kind: 'start', base, starts: [{ ...made, id: base, workflow, variables }], incoming };
  } catch (error) {
    return { kind: 'error', error: `childJob: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The outcome of a loop's task once its children have ended (an empty loop: at once), or undefined while one runs. */
export function loopOutcome(plan: LoopPlan, children: JobDoc[]): TaskOutcome | undefined {
  // Parallel: wait for every child; sequential: the last one, or the first that did not complete.
  const started: JobDoc[] = [];
  for (const c of children) {
    started.push(c);
    if (plan.type === 'sequential' && c.status !== 'complete') break;
  }
  const ended = started.every((c) => c.status !== 'running' && c.status !== 'paused');
  const complete = plan.type === 'parallel' ? started.length === plan.ids.length : started.length === plan.ids.length || started.some((c) => c.status !== 'complete');
  if (!ended || !complete) return undefined;
  const failed = started.filter((c) => c.status !== 'complete');
  // As the service answers a loop: its status beside `loop`, each child's status and variables.
  const outgoing = { job_details: { status: failed.length === 0 ? 'complete' : 'error', loop: started.map(details) } };
  return failed.length === 0
    ? { state: 'success', outgoing }
    : { state: 'error', outgoing, error: `${failed.length} of ${started.length} child jobs did not complete: ${failed.map((c) => `${c._id} (${c.status})`).join(', ')}` };
}

/** A child job ended (complete, error, canceled): what its parent's childJob record does. */
export function childEnded(child: JobDoc, waiting: TaskRecord, parent: JobDoc): ChildStep {
  if (waiting.status !== 'running' && waiting.status !== 'waiting') return { kind: 'none' };
  const plan = waiting.loop;
  if (!plan) {
    if (waiting.childJob !== child._id) return { kind: 'none' };
    const outgoing = { job_details: details(child) };
    if (child.status === 'complete') return { kind: 'end', outcome: { state: 'success', outgoing } };
    return { kind: 'end', outcome: { state: 'error', outgoing, error: `child job ${child._id} (${child.name}) ended in ${child.status}${jobErrorText(child) ? `: ${jobErrorText(child)}` : ''}` } };
  }
  const index = plan.ids.indexOf(child._id);
  if (index < 0) return { kind: 'none' };
  const next = index + 1;
  const nextId = plan.ids[next];
  if (plan.type === 'sequential' && child.status === 'complete' && nextId !== undefined) {
    if (parent.status === 'canceled') return { kind: 'none' };
    const incoming = decodeVariables(waiting.incoming);
    const variables = decodeValue(plan.variables[next]);
    return {
      kind: 'start-next',
      index: next,
      start: {
        id: nextId,
        workflow: String(incoming.workflow),
        variables: isObject(variables) ? variables : {},
        description: `${description(parent, waiting.taskId)}, element ${next}`,
        user: parent.metrics.user,
        parent: { job: parent._id, task: waiting.taskId, record: waiting._id },
      },
    };
  }
  return { kind: 'collect', plan };
}
