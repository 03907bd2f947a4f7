// Checks a workflow (already in the reference shape) before it is saved. Every
// problem names the task or the transition at fault, so an operator importing a
// file sees where to fix it.
import {
  RESERVED_TASK_IDS,
  WORKFLOW_END,
  WORKFLOW_START,
  type Workflow,
  type WorkflowProblem,
} from '../../contract/workflows';
import { MarkerValueError, rejectMarker } from '../../values/undefined-codec';

export interface KnownMethods {
  /** Whether `app` (an application or adapter) has the method `method`. */
  hasMethod(app: string, method: string): boolean;
  /** Whether the application or adapter exists at all; lets the message say which of the two is wrong. */
  hasApp?(app: string): boolean;
  /** Names of a method's outgoing variables when known, to check `$var.<task>.<outVar>` references. */
  outgoingOf?(app: string, method: string): string[] | undefined;
}

export interface VarReference {
  /** `job` or a task id. */
  source: string;
  variable: string;
  /** Where in the task's incoming variables, e.g. `device.name`. */
  at: string;
}

const REFERENCE = /^\$var\.([^.]+)\.(.+)$/;

/** `$var.job.<name>` / `$var.<taskId>.<outVar>` in a string, or null. */
export function parseReference(value: unknown): { source: string; variable: string } | null {
  if (typeof value !== 'string') return null;
  const match = REFERENCE.exec(value);
  return match ? { source: match[1]!, variable: match[2]! } : null;
}

/** Every reference in a task's incoming variables, at any depth. */
export function findReferences(incoming: Record<string, unknown> | undefined): VarReference[] {
  const found: VarReference[] = [];
  const walk = (value: unknown, at: string) => {
    const ref = parseReference(value);
    if (ref) found.push({ ...ref, at });
    else if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${at}[${i}]`));
    else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, at ? `${at}.${key}` : key);
    }
  };
  for (const [key, value] of Object.entries(incoming ?? {})) walk(value, key);
  return found;
}

const isReserved = (id: string) => (RESERVED_TASK_IDS as readonly string[]).includes(id);

/** Nodes reachable from `from` following `edges` (not including `from` unless on a cycle). */
function reachable(from: string, edges: Map<string, Set<string>>): Set<string> {
  const seen = new Set<string>();
  const queue = [...(edges.get(from) ?? [])];
  while (queue.length) {
    const node = queue.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const next of edges.get(node) ?? []) queue.push(next);
  }
  return seen;
}

export function validateWorkflow(workflow: Workflow, known: KnownMethods): WorkflowProblem[] {
  const problems: WorkflowProblem[] = [];
  const ids = new Set([...Object.keys(workflow.tasks), ...RESERVED_TASK_IDS]);

  for (const [id, task] of Object.entries(workflow.tasks)) {
    try {
      rejectMarker(task.variables?.incoming ?? {}, `tasks.${id}.variables.incoming`);
    } catch (error) {
      if (!(error instanceof MarkerValueError)) throw error;
      problems.push({ path: error.path, task: id, message: `task "${id}": ${error.message}` });
    }
    if (isReserved(id) || task.type === 'manual' || !task.app) continue;
    if (known.hasApp && !known.hasApp(task.app)) {
      problems.push({ path: `tasks.${id}.app`, task: id, message: `task "${id}": no application or adapter "${task.app}"` });
    } else if (!known.hasMethod(task.app, task.name)) {
      problems.push({ path: `tasks.${id}.name`, task: id, message: `task "${id}": ${task.app} has no method "${task.name}"` });
    }
  }

  const forward = new Map<string, Set<string>>();
  const backward = new Map<string, Set<string>>();
  for (const [src, targets] of Object.entries(workflow.transitions ?? {})) {
    for (const dst of Object.keys(targets)) {
      const transition = { src, dst };
      const path = `transitions.${src}.${dst}`;
      if (!ids.has(src)) {
        problems.push({ path, transition, message: `transition ${src} → ${dst}: there is no task "${src}" to leave from` });
        continue;
      }
      if (!ids.has(dst)) {
        problems.push({ path, transition, message: `transition ${src} → ${dst}: there is no task "${dst}" to go to` });
        continue;
      }
      if (src === WORKFLOW_END) {
        problems.push({ path, transition, message: `transition ${src} → ${dst}: nothing runs after workflow_end` });
        continue;
      }
      if (dst === WORKFLOW_START) {
        problems.push({ path, transition, message: `transition ${src} → ${dst}: nothing can lead back to workflow_start` });
        continue;
      }
      if (!forward.has(src)) forward.set(src, new Set());
      forward.get(src)!.add(dst);
      if (!backward.has(dst)) backward.set(dst, new Set());
      backward.get(dst)!.add(src);
    }
  }

  const fromStart = reachable(WORKFLOW_START, forward);
  if (!fromStart.has(WORKFLOW_END)) {
    problems.push({
      path: 'transitions',
      message: forward.has(WORKFLOW_START)
        ? 'no path of transitions leads from workflow_start to workflow_end'
        : 'no path from workflow_start to workflow_end: workflow_start has no transition',
    });
  }

  for (const [id, task] of Object.entries(workflow.tasks)) {
    if (isReserved(id)) continue;
    const before = reachable(id, backward);
    for (const ref of findReferences(task.variables?.incoming)) {
      if (ref.source === 'job') continue;
      const path = `tasks.${id}.variables.incoming.${ref.at}`;
      const text = `$var.${ref.source}.${ref.variable}`;
      const source = workflow.tasks[ref.source];
      if (!source || isReserved(ref.source)) {
        problems.push({ path, task: id, message: `task "${id}": ${ref.at} refers to ${text}, but there is no task "${ref.source}"` });
      } else if (!before.has(ref.source)) {
        problems.push({
          path,
          task: id,
          message: `task "${id}": ${ref.at} refers to ${text}, but task "${ref.source}" cannot have run before "${id}" (no transitions lead from it to "${id}")`,
        });
      } else if (source.app && known.outgoingOf) {
        const outgoing = known.outgoingOf(source.app, source.name);
        if (outgoing && !outgoing.includes(ref.variable.split(/[.[]/)[0]!)) {
          problems.push({
            path,
            task: id,
            message: `task "${id}": ${ref.at} refers to ${text}, but ${source.app}.${source.name} has no outgoing "${ref.variable}" (it has ${outgoing.join(', ') || 'none'})`,
          });
        }
      }
    }
  }
  return problems;
}
