// Checks the structure of a workflow as the service exports it, before it is saved.
// Every finding names the task or the transition at fault and all of them are
// reported at once. Only what the service itself refuses is a problem (the import
// is refused); what the console merely doubts (a task no path reaches, a reference
// to a task that may not have run) is a warning, answered with the import and shown
// on the workflow page. What the workflow *needs* (adapters, applications, methods,
// child workflows, transformations) is not checked here: a missing part is a state
// of a saved workflow (see parts.ts), never a reason to refuse it.
// Every walk is iterative, so a deep chain of tasks or deeply nested values cannot
// overflow the stack.
import {
  RESERVED_TASK_IDS,
  TASK_TYPES,
  TRANSITION_STATES,
  TRANSITION_TYPES,
  WORKFLOW_END,
  WORKFLOW_START,
  type Workflow,
  type WorkflowProblem,
} from '../../contract/workflows';
import { DocumentName } from '../../contract/ids';
import { depthExceeds, MAX_DEPTH, walkVariables } from './references';

export { findReferences, parseReference, parseObjectReference, type VarReference } from './references';

const listed = (values: readonly string[], value: unknown) => typeof value === 'string' && values.includes(value);
const isReserved = (id: string) => listed(RESERVED_TASK_IDS, id);
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const oneOf = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** Nodes reachable from `from` following `edges` (not including `from` unless on a cycle). */
function reachable(from: string, edges: Map<string, Set<string>>): Set<string> {
  const seen = new Set<string>();
  const queue = [...(edges.get(from) ?? [])];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    for (const next of edges.get(node) ?? []) queue.push(next);
  }
  return seen;
}

/** Whether some path of `edges` leads from `from` to `to`; stops as soon as it gets there. */
function leadsTo(from: string, to: string, edges: Map<string, Set<string>>): boolean {
  const seen = new Set<string>();
  const queue = [...(edges.get(from) ?? [])];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    if (node === to) return true;
    if (seen.has(node)) continue;
    seen.add(node);
    for (const next of edges.get(node) ?? []) queue.push(next);
  }
  return false;
}

function checkTask(id: string, task: unknown, problems: WorkflowProblem[]): void {
  const at = `tasks.${id}`;
  if (!isObject(task)) {
    problems.push({ path: at, task: id, message: `task "${id}": must be an object with name, app and type` });
    return;
  }
  if (depthExceeds(task, MAX_DEPTH - 2)) {
    problems.push({ path: at, task: id, message: `task "${id}": its values are nested deeper than ${MAX_DEPTH} levels` });
    return;
  }
  if (typeof task.name !== 'string' || task.name === '') {
    problems.push({ path: `${at}.name`, task: id, message: `task "${id}": needs the name of its method` });
  }
  if (isReserved(id)) return;
  if (typeof task.app !== 'string' || task.app === '') {
    problems.push({ path: `${at}.app`, task: id, message: `task "${id}": needs an app (the application or adapter of its method)` });
  }
  if (!listed(TASK_TYPES, task.type)) {
    problems.push({ path: `${at}.type`, task: id, message: `task "${id}": needs a type (${oneOf(TASK_TYPES)})` });
  }
  if (task.variables !== undefined && !isObject(task.variables)) {
    problems.push({ path: `${at}.variables`, task: id, message: `task "${id}": variables must be an object with incoming and outgoing` });
    return;
  }
  for (const side of ['incoming', 'outgoing'] as const) {
    const values = isObject(task.variables) ? task.variables[side] : undefined;
    if (values !== undefined && !isObject(values)) {
      problems.push({ path: `${at}.variables.${side}`, task: id, message: `task "${id}": variables.${side} must be an object` });
      continue;
    }
    for (const marker of walkVariables(values ?? {}).markers) {
      problems.push({
        path: `${at}.variables.${side}.${marker}`,
        task: id,
        message: `task "${id}": variables.${side}.${marker} is the stored-undefined marker "~4undefined", which a workflow cannot carry`,
      });
    }
  }
}

/** What the check found: problems refuse the import, warnings do not. */
export interface WorkflowCheck {
  problems: WorkflowProblem[];
  warnings: WorkflowProblem[];
}

/**
 * The tasks that run again before the loop task takes its `success` transition: for
 * each `loop` transition, everything its target leads to short of the loop task and
 * workflow_end (the forEach body). Each gets an edge back to its loop task, so a task
 * after the loop may read a body task (its last iteration).
 */
function loopBodyEdges(transitions: Record<string, unknown>): Map<string, Set<string>> {
  const forward = new Map<string, Set<string>>();
  for (const [src, targets] of Object.entries(transitions)) {
    if (isObject(targets)) forward.set(src, new Set(Object.keys(targets)));
  }
  const back = new Map<string, Set<string>>();
  for (const [loop, targets] of Object.entries(transitions)) {
    if (!isObject(targets)) continue;
    for (const [start, transition] of Object.entries(targets)) {
      if (!isObject(transition) || transition.state !== 'loop' || start === loop || start === WORKFLOW_END) continue;
      const body = new Set<string>([start]);
      const queue = [start];
      while (queue.length) {
        for (const next of forward.get(queue.pop() ?? '') ?? []) {
          if (next === loop || next === WORKFLOW_END || body.has(next)) continue;
          body.add(next);
          queue.push(next);
        }
      }
      for (const task of body) {
        if (!back.has(task)) back.set(task, new Set());
        back.get(task)?.add(loop);
      }
    }
  }
  return back;
}

/** Validates an imported document; no problems means it is a workflow that can be saved. */
export function validateWorkflow(doc: unknown): WorkflowProblem[] {
  return checkWorkflow(doc).problems;
}

/** Problems (the import is refused) and warnings (it is saved, and they are shown) of a document. */
export function checkWorkflow(doc: unknown): WorkflowCheck {
  const problems: WorkflowProblem[] = [];
  const warnings: WorkflowProblem[] = [];
  const refused = () => ({ problems, warnings });
  if (!isObject(doc)) return { problems: [{ path: '', message: 'a workflow must be a JSON object with name, tasks and transitions' }], warnings };
  if (typeof doc.name !== 'string' || doc.name.trim() === '') problems.push({ path: 'name', message: 'a workflow needs a name' });
  else {
    const named = DocumentName.safeParse(doc.name);
    if (!named.success) problems.push({ path: 'name', message: `name ${named.error.issues[0]?.message ?? 'is not a valid name'}` });
  }
  for (const [key, value] of Object.entries(doc)) {
    if (key !== 'tasks' && depthExceeds(value, MAX_DEPTH - 1)) {
      problems.push({ path: key, message: `${key} is nested deeper than ${MAX_DEPTH} levels` });
    }
  }
  if (!isObject(doc.tasks)) {
    problems.push({ path: 'tasks', message: 'tasks must be an object of tasks keyed by task id' });
    return refused();
  }
  if (doc.transitions !== undefined && !isObject(doc.transitions)) {
    problems.push({ path: 'transitions', message: 'transitions must be an object { src: { dst: { type, state } } }' });
    return refused();
  }
  const tasks = doc.tasks;
  for (const [id, task] of Object.entries(tasks)) checkTask(id, task, problems);

  const ids = new Set([...Object.keys(tasks), ...RESERVED_TASK_IDS]);
  const forward = new Map<string, Set<string>>();
  for (const [src, targets] of Object.entries(doc.transitions ?? {})) {
    if (!isObject(targets)) {
      problems.push({ path: `transitions.${src}`, transition: { src, dst: '' }, message: `transitions of ${src} must be an object { dst: { type, state } }` });
      continue;
    }
    for (const [dst, transition] of Object.entries(targets)) {
      const edge = { src, dst };
      const path = `transitions.${src}.${dst}`;
      const say = (text: string) => problems.push({ path, transition: edge, message: `transition ${src} → ${dst}: ${text}` });
      const shape = isObject(transition) ? transition : {};
      if (!listed(TRANSITION_TYPES, shape.type)) say(`type must be ${oneOf(TRANSITION_TYPES)}`);
      if (!listed(TRANSITION_STATES, shape.state)) say(`state must be ${oneOf(TRANSITION_STATES)}`);
      // A transition of a task that is not there never fires: the service saves it, so the console warns.
      const doubt = (text: string) => warnings.push({ path, transition: edge, message: `transition ${src} → ${dst}: ${text}` });
      if (!ids.has(src)) {
        doubt(`there is no task "${src}" to leave from`);
        continue;
      }
      if (!ids.has(dst)) {
        doubt(`there is no task "${dst}" to go to`);
        continue;
      }
      if (src === WORKFLOW_END) {
        say('nothing runs after workflow_end');
        continue;
      }
      if (dst === WORKFLOW_START) {
        say('nothing can lead back to workflow_start');
        continue;
      }
      if (!forward.has(src)) forward.set(src, new Set());
      forward.get(src)?.add(dst);
    }
  }

  const fromStart = reachable(WORKFLOW_START, forward);
  if (!fromStart.has(WORKFLOW_END)) {
    warnings.push({
      path: 'transitions',
      message: forward.has(WORKFLOW_START)
        ? 'no path of transitions leads from workflow_start to workflow_end'
        : 'no path from workflow_start to workflow_end: workflow_start has no transition',
    });
  }
  for (const id of Object.keys(tasks)) {
    if (isReserved(id) || fromStart.has(id)) continue;
    warnings.push({ path: `tasks.${id}`, task: id, message: `task "${id}": no path of transitions leads to it from workflow_start` });
  }

  // A task can read the result of another only if that one can have run before it:
  // some path of transitions (standard or revert) leads from it to the reader, a loop
  // body counting as running before its loop task goes on. Otherwise the reference
  // reads nothing when the job runs: a warning, since the service saves such a workflow.
  for (const [task, loops] of loopBodyEdges(isObject(doc.transitions) ? doc.transitions : {})) {
    for (const loop of loops) {
      if (!forward.has(task)) forward.set(task, new Set());
      forward.get(task)?.add(loop);
    }
  }
  for (const [id, task] of Object.entries(tasks)) {
    if (isReserved(id) || !isObject(task) || !isObject(task.variables)) continue;
    const incoming = task.variables.incoming;
    if (!isObject(incoming)) continue;
    // Depth was judged per task above; the walk is bounded whatever it meets.
    for (const ref of walkVariables(incoming).references) {
      if (ref.source === 'job' || ref.source === 'static') continue;
      const path = `tasks.${id}.variables.incoming.${ref.at}`;
      const text = ref.form === 'string' ? `$var.${ref.source}.${ref.variable}` : `{ task: "${ref.source}", variable: "${ref.variable}" }`;
      if (!(ref.source in tasks) || isReserved(ref.source)) {
        warnings.push({ path, task: id, message: `task "${id}": ${ref.at} refers to ${text}, but there is no task "${ref.source}"` });
      } else if (!leadsTo(ref.source, id, forward)) {
        warnings.push({
          path,
          task: id,
          message: `task "${id}": ${ref.at} refers to ${text}, but task "${ref.source}" cannot have run before "${id}" (no transitions lead from it to "${id}")`,
        });
      }
    }
  }
  return { problems, warnings };
}

/** The document as a workflow, once `validateWorkflow` found no problem. */
export const asWorkflow = (doc: unknown) => doc as Workflow;
