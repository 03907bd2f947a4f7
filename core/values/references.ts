// References in task variables, in both forms the service writes:
//   strings   `$var.job.<name>`, `$var.<taskId>.<outVar>`
//   objects   `{ "task": "job", "variable": "<name>" }`, `{ "task": "<taskId>", "variable": "<outVar>" }`,
//             `{ "task": "static", "variable": <literal> }`, and the same with `value` for `variable`
//             (the canvas also adds `"editable": true|false`).
// An object is a reference only when `task` is a non-empty string, it has `variable` or `value`,
// and it has no key beyond task/variable/value/editable: an ordinary data object (a childJob's
// incoming, with its own `task` key among others, or `{ task: 1, value: 2 }`) stays data.

import { getAt, parsePointer } from './json-pointer';

export type Reference =
  | { kind: 'static'; value: unknown }
  | { kind: 'job'; name: string; pointer?: string }
  | { kind: 'task'; taskId: string; name: string; pointer?: string };

const STRING_REFERENCE = /^\$var\.([^.]+)\.(.+)$/;

/**
 * A string reference may end in a JSON pointer into the variable, as the service's newer exports
 * write it: `$var.f001.export#/deviceName`, `$var.a1a1.result#/reports/0/reportId`. The variable's
 * name is what comes before `#/`.
 */
function splitPointer(name: string): { name: string; pointer?: string } {
  const at = name.indexOf('#/');
  return at > 0 ? { name: name.slice(0, at), pointer: name.slice(at + 1) } : { name };
}

const REFERENCE_KEYS: ReadonlySet<string> = new Set(['task', 'variable', 'value', 'editable']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` is an object reference (see the rule above). */
export function isObjectReference(value: unknown): value is { task: string; variable?: unknown; value?: unknown } {
  if (!isPlainObject(value)) return false;
  if (typeof value.task !== 'string' || value.task === '') return false;
  if (!('variable' in value) && !('value' in value)) return false;
  return Object.keys(value).every((key) => REFERENCE_KEYS.has(key));
}

/** The reference `value` is, in either form, or undefined when it is a literal. */
export function parseReference(value: unknown): Reference | undefined {
  if (typeof value === 'string') {
    const match = STRING_REFERENCE.exec(value);
    if (!match) return undefined;
    const [, owner = '', written = ''] = match;
    const { name, pointer } = splitPointer(written);
    const at = pointer === undefined ? {} : { pointer };
    return owner === 'job' ? { kind: 'job', name, ...at } : { kind: 'task', taskId: owner, name, ...at };
  }
  if (!isObjectReference(value)) return undefined;
  // `variable` wins when both are present; `static` carries the literal itself.
  const named = 'variable' in value ? value.variable : value.value;
  if (value.task === 'static') return { kind: 'static', value: named };
  if (typeof named !== 'string') return undefined;
  return value.task === 'job' ? { kind: 'job', name: named } : { kind: 'task', taskId: value.task, name: named };
}

export interface ReferenceScope {
  /** Job variables (including `_id` and `initiator`). */
  job: Record<string, unknown>;
  /** Outgoing values of a task's last finished run, or undefined when it did not run. */
  task(taskId: string): Record<string, unknown> | undefined;
}

export function resolveReference(reference: Reference, scope: ReferenceScope): unknown {
  if (reference.kind === 'static') return reference.value;
  const value = reference.kind === 'job' ? scope.job[reference.name] : scope.task(reference.taskId)?.[reference.name];
  // A pointer that leads nowhere reads as undefined, as a variable that is not set does.
  return reference.pointer === undefined ? value : getAt(value, parsePointer(reference.pointer));
}

/** `value` with every reference in it (at any depth of arrays and objects) replaced by what it names. */
export function resolveValue(value: unknown, scope: ReferenceScope): unknown {
  const reference = parseReference(value);
  if (reference) return resolveReference(reference, scope);
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, scope));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveValue(item, scope);
    return out;
  }
  return value;
}

/** Every reference inside `value`, to know what a task reads before resolving it. */
export function referencesIn(value: unknown, out: Reference[] = []): Reference[] {
  const reference = parseReference(value);
  if (reference) out.push(reference);
  else if (Array.isArray(value)) value.forEach((item) => referencesIn(item, out));
  else if (isPlainObject(value)) Object.values(value).forEach((item) => referencesIn(item, out));
  return out;
}

/** The job variable an outgoing (or error) target writes: `$var.job.x` or `{ task: "job", variable: "x" }`. */
export function jobTarget(target: unknown): string | undefined {
  const reference = parseReference(target);
  return reference?.kind === 'job' ? reference.name : undefined;
}
