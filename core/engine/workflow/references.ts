// References inside a task's variables, in both forms the service exports:
// a string `$var.job.<name>` / `$var.<taskId>.<outVar>`, or an object
// `{ "task": "job" | "static" | "<taskId>", "variable" | "value": ... }`.
// The walk is iterative and depth-bounded, so a document nested thousands of
// levels deep is reported, never a stack overflow.

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

const STRING_REFERENCE = /^\$var\.([^.]+)\.(.+)$/;

/** `$var.job.<name>` / `$var.<taskId>.<outVar>` in a string, or null. */
export function parseReference(value: unknown): { source: string; variable: string } | null {
  if (typeof value !== 'string') return null;
  const match = STRING_REFERENCE.exec(value);
  return match ? { source: match[1]!, variable: match[2]! } : null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * `{ task, variable }` or `{ task, value }` (other keys such as `editable` allowed), or null.
 * For `static` the value is a literal; for `job` and a task id it names the variable.
 */
export function parseObjectReference(value: unknown): { source: string; variable?: string } | null {
  if (!isObject(value) || typeof value.task !== 'string' || value.task === '') return null;
  const hasVariable = 'variable' in value;
  const hasValue = 'value' in value;
  if (!hasVariable && !hasValue) return null;
  if (value.task === 'static') return { source: 'static' };
  const name = hasVariable ? value.variable : value.value;
  return typeof name === 'string' ? { source: value.task, variable: name } : null;
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
  while (stack.length) {
    const { value, at, depth } = stack.pop()!;
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

/** Depth of a JSON value, counted iteratively; stops counting once past `limit`. */
export function depthExceeds(value: unknown, limit = MAX_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.depth > limit) return true;
    if (Array.isArray(item.value)) for (const v of item.value) stack.push({ value: v, depth: item.depth + 1 });
    else if (isObject(item.value)) for (const v of Object.values(item.value)) stack.push({ value: v, depth: item.depth + 1 });
  }
  return false;
}
