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
import { childJobVariables, decodeValue, decodeVariables, encodeValue } from '../../values/undefined-codec';
import type { TaskOutcome } from '../tasks/library';
import { fence, type Claim, type TaskRecord } from '../queue/queue';
import { endFields } from './records';
import type { RunnerPort as JobRunner } from './port';
import type { JobDoc } from './types';

/** The service refuses longer loop arrays. */
export const MAX_LOOP_ELEMENTS = 10_000;

interface LoopPlan {
  type: 'parallel' | 'sequential';
  /** Ids of the children, one per element. */
  ids: string[];
  /** Their job variables (encoded), one per element. */
  variables: Record<string, unknown>[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The variables of each child of a loop, or an error naming what to fix. */
async function loopVariables(runner: JobRunner, incoming: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const items = incoming.data_array;
  if (!Array.isArray(items)) throw new Error(`data_array must be an array when loopType is "${String(incoming.loopType)}"`);
  if (items.length > MAX_LOOP_ELEMENTS) throw new Error(`data_array has ${items.length} elements; at most ${MAX_LOOP_ELEMENTS} are allowed`);
  const transformation = typeof incoming.transformation === 'string' ? incoming.transformation : '';
  const out: Record<string, unknown>[] = [];
  for (const [i, item] of items.entries()) {
    let variables: unknown = item;
    if (transformation) {
      if (!runner.transformations) throw new Error('transformation: JST not supported yet, so data_array elements cannot be transformed');
      variables = await runner.transformations.run({ tr_id: transformation, variableMap: { currentValue: item }, options: {} }, { currentValue: item });
    }
    if (!isObject(variables)) throw new Error(`data_array[${i}] must be an object of the child job variables, got ${Array.isArray(variables) ? 'an array' : String(variables)}`);
    out.push(childJobVariables(variables));
  }
  return out;
}

function details(child: JobDoc): Record<string, unknown> {
  return { _id: child._id, status: child.status, ...decodeVariables(child.variables) };
}

export async function startChildJob(runner: JobRunner, record: TaskRecord, claim: Claim, job: JobDoc, incoming: Record<string, unknown>): Promise<boolean> {
  const base = record.childJob ?? `${record._id}:${record.attempt}`;
  const loopType = incoming.loopType;
  const looping = loopType === 'parallel' || loopType === 'sequential';
  let plan: LoopPlan | undefined;
  try {
    if (typeof incoming.workflow !== 'string' || !incoming.workflow) throw new Error('workflow must be the name of the workflow to start');
    if (looping) {
      const variables = await loopVariables(runner, incoming);
      plan = { type: loopType, ids: variables.map((_, i) => `${base}:${i}`), variables: variables.map((v) => encodeValue(v) as Record<string, unknown>) };
    } else {
      const variables = incoming.variables;
      if (variables !== undefined && variables !== null && variables !== '' && !isObject(variables)) {
        throw new Error('variables must be an object of the child job variables');
      }
    }
  } catch (error) {
    return runner.finishClaimed(claim, incoming, { state: 'error', outgoing: {}, error: `childJob: ${(error as Error).message}` }, record);
  }
  // Name the children on the record before starting them, so a retry after a crash finds them.
  const named = await runner.queue.tasks.updateOne(fence(claim), {
    $set: { childJob: base, incoming: encodeValue(incoming, 'incoming'), ...(plan ? { loop: plan } : {}) },
  });
  if (!named.matched) return false;
  const parent = { job: job._id, task: record.taskId, record: record._id };
  const description = `child job of ${job.name} (${job._id}), task ${record.taskId}`;
  try {
    if (!plan) {
      const variables = isObject(incoming.variables) ? incoming.variables : {};
      await startOne(runner, base, incoming.workflow as string, childJobVariables(variables), description, job, parent);
    } else if (plan.ids.length === 0) {
      await finishLoop(runner, record._id, []);
      return true;
    } else {
      const first = plan.type === 'parallel' ? plan.ids.length : 1;
      for (let i = 0; i < first; i++) {
        await startOne(runner, plan.ids[i]!, incoming.workflow as string, decodeVariables(plan.variables[i]), `${description}, element ${i}`, job, parent);
      }
    }
  } catch (error) {
    await endWaiting(runner, record._id, { state: 'error', outgoing: {}, error: `childJob: ${(error as Error).message}` });
    return true;
  }
  // The task now waits for its children; the end of each comes back here (finishParentTask).
  await runner.queue.tasks.updateOne(fence(claim), { $set: { status: 'waiting' }, $unset: { leaseUntil: '' } });
  // A child that already ended (an empty workflow) finishes the task now.
  for (const id of plan ? plan.ids : [base]) {
    const child = await runner.job(id);
    if (child && child.status !== 'running' && child.status !== 'paused') await finishParentTask(runner, id);
  }
  return true;
}

async function startOne(runner: JobRunner, id: string, workflow: string, variables: Record<string, unknown>, description: string, job: JobDoc, parent: { job: string; task: string; record: string }) {
  if (await runner.job(id)) return;
  await runner.start(workflow, { id, variables, description, user: job.metrics.user, parent });
}

/** Ends a childJob record that waits for its children; then advances the job. */
async function endWaiting(runner: JobRunner, recordId: string, outcome: TaskOutcome) {
  const record = (await runner.queue.tasks.findOne({ _id: recordId })) as TaskRecord | null;
  if (!record) return;
  const fields = endFields(decodeVariables(record.incoming), outcome);
  const result = await runner.queue.tasks.updateOne({ _id: recordId, status: { $in: ['running', 'waiting'] } }, { $set: fields, $unset: { leaseUntil: '' } });
  if (result.matched) await runner.afterEnd(recordId);
}

async function finishLoop(runner: JobRunner, recordId: string, children: JobDoc[]) {
  const failed = children.filter((c) => c.status !== 'complete');
  const outgoing = { job_details: { loop: children.map(details) } };
  await endWaiting(
    runner,
    recordId,
    failed.length === 0
      ? { state: 'success', outgoing }
      : { state: 'error', outgoing, error: `${failed.length} of ${children.length} child jobs did not complete: ${failed.map((c) => `${c._id} (${c.status})`).join(', ')}` },
  );
}

/** A child job ended (complete, error, canceled): its parent's childJob task goes on or ends with it. */
export async function finishParentTask(runner: JobRunner, childId: string) {
  const child = await runner.job(childId);
  const parent = child?.parent as { job: string; task: string; record?: string } | undefined;
  if (!child || !parent?.record) return;
  const record = (await runner.queue.tasks.findOne({ _id: parent.record })) as (TaskRecord & { loop?: LoopPlan }) | null;
  if (!record || !['running', 'waiting'].includes(record.status)) return;
  if (!record.loop) {
    const outcome: TaskOutcome =
      child.status === 'complete'
        ? { state: 'success', outgoing: { job_details: details(child) } }
        : { state: 'error', outgoing: { job_details: details(child) }, error: `child job ${child._id} (${child.name}) ended in ${child.status}${child.error ? `: ${child.error}` : ''}` };
    if (record.childJob === childId) await endWaiting(runner, record._id, outcome);
    return;
  }
  const plan = record.loop;
  const index = plan.ids.indexOf(childId);
  if (index < 0) return;
  if (plan.type === 'sequential' && child.status === 'complete' && index + 1 < plan.ids.length) {
    const job = await runner.job(parent.job);
    if (!job || job.status === 'canceled') return;
    const incoming = decodeVariables(record.incoming);
    const description = `child job of ${job.name} (${job._id}), task ${record.taskId}, element ${index + 1}`;
    try {
      await startOne(runner, plan.ids[index + 1]!, String(incoming.workflow), decodeValue(plan.variables[index + 1]) as Record<string, unknown>, description, job, parent as { job: string; task: string; record: string });
    } catch (error) {
      await endWaiting(runner, record._id, { state: 'error', outgoing: {}, error: `childJob: element ${index + 1}: ${(error as Error).message}` });
      return;
    }
    const next = await runner.job(plan.ids[index + 1]!);
    if (next && next.status !== 'running' && next.status !== 'paused') await finishParentTask(runner, next._id);
    return;
  }
  // Parallel: wait for every child; sequential: the last one, or the first that did not complete.
  const children: JobDoc[] = [];
  for (const id of plan.ids) {
    const c = await runner.job(id);
    if (c) children.push(c);
    if (plan.type === 'sequential' && c && c.status !== 'complete') break;
  }
  const ended = children.every((c) => c.status !== 'running' && c.status !== 'paused');
  const complete = plan.type === 'parallel' ? children.length === plan.ids.length : children.length === plan.ids.length || children.some((c) => c.status !== 'complete');
  if (ended && complete) await finishLoop(runner, record._id, children);
}
