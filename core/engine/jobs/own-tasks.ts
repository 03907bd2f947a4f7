// The WorkFlowEngine tasks the job runner carries out itself, because they need
// the job: forEach (which element comes next) and transformation (a JST run by an
// injected service). childJob is in children.ts; manual tasks (ViewData) wait for
// an operator (actions.ts).
import type { TaskOutcome } from '../tasks/library';
import type { TaskRecord } from '../queue/queue';
import { isRecord, messageOf } from './guards';
import type { TaskDefinition } from './types';

/** Runs a JST transformation: `tr_id` names the document, `variableMap` its inputs. */
export interface TransformationRunner {
  run(task: { tr_id: string; variableMap: Record<string, unknown>; options: Record<string, unknown> }, incoming: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export const JST_NOT_SUPPORTED = 'transformation: JST not supported yet on this console, so the transformation cannot run';

const ENGINE = 'WorkFlowEngine';
const own = (definition: TaskDefinition, name: string) => definition.name === name && (definition.app ?? ENGINE) === ENGINE && definition.location !== 'Adapter';

export const isForEach = (definition: TaskDefinition) => own(definition, 'forEach');
export const isTransformation = (definition: TaskDefinition) => own(definition, 'transformation');

/**
 * One run of forEach: the element after the one its previous run (the iteration
 * before, when that ended in `loop`) handed out, or success when none is left.
 */
export function forEachRun(record: TaskRecord, previous: TaskRecord | undefined, incoming: Record<string, unknown>): TaskOutcome {
  const items = incoming.data_array;
  if (!Array.isArray(items)) {
    return { state: 'error', outgoing: {}, error: `forEach: data_array must be an array, got ${items === null ? 'null' : typeof items}` };
  }
  const index = previous && previous.iteration === record.iteration - 1 && previous.finishState === 'loop' ? (previous.loopIndex ?? -1) + 1 : 0;
  if (index < items.length) return { state: 'loop', outgoing: { current_item: items[index] }, loopIndex: index };
  return { state: 'success', outgoing: {} };
}

export async function transformationRun(transformations: TransformationRunner | undefined, incoming: Record<string, unknown>): Promise<TaskOutcome> {
  if (!transformations) return { state: 'error', outgoing: {}, error: JST_NOT_SUPPORTED };
  const tr_id = incoming.tr_id;
  if (typeof tr_id !== 'string' || tr_id === '') return { state: 'error', outgoing: {}, error: 'transformation: tr_id must be the id of a JST document' };
  const variableMap = isRecord(incoming.variableMap) ? incoming.variableMap : {};
  const options = isRecord(incoming.options) ? incoming.options : {};
  try {
    return { state: 'success', outgoing: await transformations.run({ tr_id, variableMap, options }, incoming) };
  } catch (error) {
    return { state: 'error', outgoing: {}, error: `transformation ${tr_id}: ${messageOf(error)}` };
  }
}
