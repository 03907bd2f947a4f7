// The WorkFlowEngine's `transformation` task: runs the JST document `tr_id` on the
// task's `variableMap` (incoming values by the document's incoming `$id`, job
// references already resolved by the engine) with its `options`, and answers the
// document's outgoing values by `$id`, which the workflow's `outgoing` map then
// writes (a `$var.job.<name>` there sets that job variable).
import { TransformationError } from './errors';
import { runTransformation, type RunResult } from './interpreter';
import type { JstDocument, RunOptions } from './types';

export interface TransformationTaskIncoming {
  tr_id?: unknown;
  variableMap?: unknown;
  options?: unknown;
}

export interface TransformationTaskOptions {
  /** With one outgoing schema: the variable holds the value itself; without it, `{ [$id]: value }`. */
  extractOutput?: boolean;
  validateIncoming?: boolean;
  revertToDefaultValue?: boolean;
}

/** Finds a transformation by `_id` (or by name, as older tasks name it); null when there is none. */
export type ResolveTransformation = (trId: string) => Promise<JstDocument | null> | JstDocument | null;

/** Runs a document found: the interpreter, or the service's compiled form (`runDocument`). */
export type RunDocument = (doc: JstDocument, incoming: Record<string, unknown>, options: RunOptions) => RunResult;

export class TransformationTaskError extends Error {
  constructor(
    message: string,
    /** `missing`: no such document (a missing part of the workflow); `failed`: the run ended with an error. */
    readonly kind: 'missing' | 'invalid' | 'failed',
    readonly cause0?: TransformationError,
  ) {
    super(message);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readOptions(raw: unknown): TransformationTaskOptions {
  if (raw === undefined || raw === null) return {};
  if (!isPlainObject(raw)) throw new TransformationTaskError('`options` must be an object (extractOutput, validateIncoming, revertToDefaultValue)', 'invalid');
  const o = raw;
  const flag = (name: string) => {
    if (o[name] === undefined || o[name] === null) return undefined;
    if (typeof o[name] !== 'boolean') throw new TransformationTaskError(`options.${name} must be true or false`, 'invalid');
    return o[name];
  };
  return { extractOutput: flag('extractOutput'), validateIncoming: flag('validateIncoming'), revertToDefaultValue: flag('revertToDefaultValue') };
}

/** Runs the task; answers its outgoing values. Throws TransformationTaskError naming what is wrong. */
export async function runTransformationTask(incoming: TransformationTaskIncoming, resolveDoc: ResolveTransformation, runDoc: RunDocument = runTransformation): Promise<Record<string, unknown>> {
  const trId = incoming.tr_id;
  if (typeof trId !== 'string' || trId.trim() === '') throw new TransformationTaskError('`tr_id` must name a transformation (its _id)', 'invalid');
  const variableMap = incoming.variableMap ?? {};
  if (!isPlainObject(variableMap)) {
    throw new TransformationTaskError('`variableMap` must be an object of incoming values by name', 'invalid');
  }
  const options = readOptions(incoming.options);
  const doc = await resolveDoc(trId);
  if (!doc) throw new TransformationTaskError(`no transformation with _id "${trId}" in this profile (import it with the workflow's pre-built)`, 'missing');
  let outgoing: Record<string, unknown>;
  try {
    ({ outgoing } = runDoc(doc, variableMap, {
      validateIncoming: options.validateIncoming,
      revertToDefaultValue: options.revertToDefaultValue,
    }));
  } catch (error) {
    if (error instanceof TransformationError) throw new TransformationTaskError(error.message, 'failed', error);
    throw error;
  }
  const names = (doc.outgoing ?? []).map((schema) => String(schema.$id));
  const [only] = names;
  if (only !== undefined && names.length === 1 && options.extractOutput === false) return { [only]: { [only]: outgoing[only] } };
  return outgoing;
}

/** The task as the engine records it: success with the outgoing values, or error naming the cause. */
export async function transformationTaskOutcome(
  incoming: TransformationTaskIncoming,
  resolveDoc: ResolveTransformation,
): Promise<{ state: 'success' | 'error'; outgoing: Record<string, unknown>; error?: string }> {
  try {
    return { state: 'success', outgoing: await runTransformationTask(incoming, resolveDoc) };
  } catch (error) {
    if (error instanceof TransformationTaskError) return { state: 'error', outgoing: {}, error: `transformation ${String(incoming.tr_id ?? '')}: ${error.message}` };
    throw error;
  }
}

/** The `tr_id`s a workflow's transformation tasks name that `has` does not find: missing parts, before a job starts. */
export async function missingTransformations(
  workflow: { tasks?: Record<string, { name?: unknown; variables?: { incoming?: Record<string, unknown> } }> },
  has: (id: string) => Promise<boolean> | boolean,
): Promise<{ task: string; tr_id: string }[]> {
  const missing: { task: string; tr_id: string }[] = [];
  for (const [taskId, task] of Object.entries(workflow.tasks ?? {})) {
    if (task?.name !== 'transformation') continue;
    const trId = task.variables?.incoming?.tr_id;
    if (typeof trId === 'string' && trId !== '' && !trId.startsWith('$var.') && !(await has(trId))) missing.push({ task: taskId, tr_id: trId });
  }
  return missing;
}

/** The task for the engine (its `transformations` dependency): runs a task's document as the store holds it. */
export function transformationRunner(resolveDoc: ResolveTransformation, runDoc: RunDocument = runTransformation) {
  return {
    run: async (task: { tr_id: string; variableMap: Record<string, unknown>; options: Record<string, unknown> }) => {
      // A childJob's transformation hands each data_array element over as one value, under a name
      // of the engine's choosing: a document with one incoming variable takes it under its own name.
      const given = Object.keys(task.variableMap);
      const doc = given.length === 1 ? await resolveDoc(task.tr_id) : null;
      const names = (doc?.incoming ?? []).map((schema) => String(schema.$id));
      const [first] = given;
      const [only] = names;
      if (doc && first !== undefined && only !== undefined && names.length === 1 && only !== first) {
        return runTransformationTask({ ...task, variableMap: { [only]: task.variableMap[first] } }, () => doc, runDoc);
      }
      return runTransformationTask(task, resolveDoc, runDoc);
    },
  };
}
