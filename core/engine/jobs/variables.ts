// How a task's variables meet the job: incoming values are resolved against the
// job variables and the outgoing values of earlier tasks (both reference forms,
// core/values/references.ts); outgoing values and the task's error are written to
// the job variables their targets name.
import { jobTarget, referencesIn, resolveValue, type ReferenceScope } from '../../values/references';
import { isRecord } from './guards';

export type Scope = ReferenceScope;

export function resolveIncoming(incoming: Record<string, unknown> | undefined, scope: Scope): Record<string, unknown> {
  const resolved = resolveValue(incoming ?? {}, scope);
  return isRecord(resolved) ? resolved : {};
}

/** Whether a value refers to another task's results (the runner then reads the job's task records). */
export function refersToTasks(value: unknown): boolean {
  return value !== undefined && referencesIn(value).some((r) => r.kind === 'task');
}

/** The job variables a task's outgoing values write: `{ jobVar: value }`. */
export function jobWrites(outgoingDefinition: Record<string, unknown> | undefined, outgoing: Record<string, unknown>): Record<string, unknown> {
  const writes: Record<string, unknown> = {};
  for (const [key, target] of Object.entries(outgoingDefinition ?? {})) {
    const name = jobTarget(target);
    if (name !== undefined && key in outgoing) writes[name] = outgoing[key];
  }
  return writes;
}

/** The job variable `variables.error` names, when the task ended in error: `{ jobVar: error }`. */
export function errorWrites(errorTarget: unknown, error: unknown): Record<string, unknown> {
  const name = jobTarget(errorTarget);
  return name !== undefined ? { [name]: error } : {};
}
