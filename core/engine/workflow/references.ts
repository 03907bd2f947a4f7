// References inside a task's variables, in both forms the service exports:
// a string `$var.job.<name>` / `$var.<taskId>.<outVar>`, or an object
// `{ "task": "job" | "static" | "<taskId>", "variable" | "value": ... }`.
// The walk is iterative and depth-bounded, so a document nested thousands of
// levels deep is reported, never a stack overflow.

import { isObjectReference, parseReference as parseValueReference, type Reference } from '../../values/references';

/** MongoDB refuses documents nested deeper than this; the console keeps to the same bound. */
export const MAX_DEPTH = 100;

export interface VarReference {
  /** `job`, `static` or a task id. */
  source: string;
  /** The variable (job variable or outgoing variable of the task); for `static`, absent. */
  variable?: string;
  /** Where in the task's variables, e.g. `device.name` or `data_to_merge[0].value`. */
  at: string;
  form: 'string' | 'object';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What a job or task reference names, as validation lists it. */
const named = (reference: Extract<Reference, { name: string }>) =>
  reference.kind === 'job' ? { source: 'job', variable: reference.name } : { source: reference.taskId, variable: reference.name };

/**
 * `$var.job.<name>` / `$var.<taskId>.<outVar>` in a string, or null: the job runner's own rule
 * (core/values/references; a JSON pointer after the name, `$var.f001.export#/deviceName`, reads
 * into the variable `export`), so validation and runs read the same references.
 */
export function parseReference(value: unknown): { source: string; variable: string } | null {
  if (typeof value !== 'string') return null;
  const reference = parseValueReference(value);
  return reference && reference.kind !== 'static' ? named(reference) : null;
}

/**
 * `{ task, variable }` or `{ task, value }` (and the canvas's `editable`), or null: the job
 * runner's own rule (core/values/references), so validation and runs read the same references.
 * For `static` the value is a literal; for `job` and a task id it names the variable.
 */
export function parseObjectReference(value: unknown): { source: string; variable?: string } | null {
  if (!isObjectReference(value)) return null;
  const reference = parseValueReference(value);
  if (!reference) return null;
  return reference.kind === 'static' ? { source: 'static' } : named(reference);
}

export interface WalkResult {
  references: VarReference[];
  /** Paths of values nested deeper than MAX_DEPTH (one per branch cut). */
  tooDeep: string[];
  /** Paths holding the stored-undefined marker, which a workflow cannot carry. */
  markers: string[];
}

const UNDEFINED_MARKER = '~4undefined';

/** Every reference under `root` (a task's `incoming`, `outgoing`, ...), at any depth up to MAX_DEPTH. */
export function walkVariables(root: unknown, base = ''): WalkResult {
  const result: WalkResult = { references: [], tooDeep: [], markers: [] };
  const stack: { value: unknown; at: string; depth: number }[] = [];
  // Pushed in reverse, so references come out in document order.
  if (isObject(root)) for (const [key, value] of Object.entries(root).reverse()) stack.push({ value, at: base ? `${base}.${key}` : key, depth: 1 });
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, at, depth } = next;
    if (depth > MAX_DEPTH) {
      result.tooDeep.push(at);
      continue;
    }
    if (value === UNDEFINED_MARKER) {
      result.markers.push(at);
      continue;
    }
    const str = parseReference(value);
    if (str) {
      result.references.push({ ...str, at, form: 'string' });
      continue;
    }
    const obj = parseObjectReference(value);
    if (obj) {
      result.references.push({ ...obj, at, form: 'object' });
      // A static literal may itself hold references only by accident; it is not walked.
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], at: `${at}[${i}]`, depth: depth + 1 });
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value).reverse()) stack.push({ value: item, at: `${at}.${key}`, depth: depth + 1 });
    }
  }
  return result;
}

/** Every reference in a task's incoming variables (both forms), at any depth. */
export function findReferences(incoming: Record<string, unknown> | undefined): VarReference[] {
  return walkVariables(incoming ?? {}).references;
}

/** Whether a JSON value nests deeper than `limit`, counted iteratively (two parallel stacks, no per-node objects). */
export function depthExceeds(value: unknown, limit = MAX_DEPTH): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  const push = (item: unknown, depth: number) => {
    if (item === null || typeof item !== 'object') return;
    values.push(item);
    depths.push(depth);
  };
  while (values.length) {
    const item = values.pop();
    const depth = depths.pop() ?? 0;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) push(child, depth + 1);
  }
  return false;
}
