// `$var` references of task variables. Incoming: a string `$var.job.<name>` reads a
// job variable, `$var.<taskId>.<outVar>` an outgoing value of that task's last run;
// references are resolved anywhere inside the incoming value (a childJob's
// `variables` object holds them). Outgoing: `$var.job.<name>` writes a job variable.

const REFERENCE = /^\$var\.([^.]+)\.(.+)$/;

export interface Reference {
  scope: string;
  name: string;
}

export function parseReference(value: unknown): Reference | undefined {
  if (typeof value !== 'string') return undefined;
  const match = REFERENCE.exec(value);
  return match ? { scope: match[1]!, name: match[2]! } : undefined;
}

export interface Scope {
  job: Record<string, unknown>;
  /** Outgoing values of a task's last run, or undefined when it did not run. */
  task(taskId: string): Record<string, unknown> | undefined;
}

export function resolveValue(value: unknown, scope: Scope): unknown {
  const reference = parseReference(value);
  if (reference) {
    if (reference.scope === 'job') return scope.job[reference.name];
    return scope.task(reference.scope)?.[reference.name];
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, scope));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveValue(item, scope);
    return out;
  }
  return value;
}

export function resolveIncoming(incoming: Record<string, unknown> | undefined, scope: Scope): Record<string, unknown> {
  return resolveValue(incoming ?? {}, scope) as Record<string, unknown>;
}

/** The job variables a task's outgoing values write: `{ jobVar: value }`. */
export function jobWrites(outgoingDefinition: Record<string, unknown> | undefined, outgoing: Record<string, unknown>): Record<string, unknown> {
  const writes: Record<string, unknown> = {};
  for (const [key, target] of Object.entries(outgoingDefinition ?? {})) {
    const reference = parseReference(target);
    if (reference?.scope === 'job' && key in outgoing) writes[reference.name] = outgoing[key];
  }
  return writes;
}
