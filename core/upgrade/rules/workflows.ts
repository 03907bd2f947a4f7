// Exported workflows (JSON with `tasks` and `transitions`):
// - a codePointAt task with no error transition (release notes 4.1: an out-of-range position is
//   now an error of the task, not an empty string with status 204);
// - a childJob task passing variables that can be undefined, which the child receives as null (1.1).
// Transitions are `standard` or `revert` (a retry loop back to an earlier task), in the states
// success, error, failure and loop; references are `$var.<scope>.<name>` strings or
// `{ task, variable | value }` objects (`task` is job, static or a task id).
import { parseObjectReference } from '../../engine/workflow/references';
import type { JsonDoc } from '../json-doc';
import { finding, type Finding } from '../types';

const UNDEFINED_MARKER = '~4undefined';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Workflow {
  path: string;
  name: string;
  tasks: Obj;
  transitions: Obj;
  raw: Obj;
}

/** Every workflow-shaped object in a document: the document itself, a list, or objects holding them. */
function findWorkflows(node: unknown, path: string, depth: number, out: Workflow[]) {
  if (depth > 6) return;
  if (Array.isArray(node)) {
    node.forEach((item, index) => findWorkflows(item, `${path}[${index}]`, depth + 1, out));
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.tasks) && isObject(node.transitions)) {
    out.push({ path, name: typeof node.name === 'string' ? node.name : '(unnamed)', tasks: node.tasks, transitions: node.transitions, raw: node });
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    if (typeof value === 'object' && value !== null) findWorkflows(value, `${path}.${key}`, depth + 1, out);
  }
}

/** Outgoing transitions of a task: destination, the state that takes it and its type (standard or revert). */
function edgesFrom(workflow: Workflow, taskId: string): { to: string; state: string; type: string }[] {
  const out = workflow.transitions[taskId];
  if (!isObject(out)) return [];
  return Object.entries(out).map(([to, t]) => ({
    to,
    state: isObject(t) && typeof t.state === 'string' ? t.state : 'success',
    type: isObject(t) && typeof t.type === 'string' ? t.type : 'standard',
  }));
}

/** A stub ends in the state its literal `type` names (success, error or failure): its other transitions never fire. */
function fixedOutcome(workflow: Workflow, taskId: string): string | undefined {
  const task = workflow.tasks[taskId];
  if (!isObject(task) || task.name !== 'stub' || task.app !== 'WorkFlowEngine') return undefined;
  const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
  return typeof incoming.type === 'string' && ['success', 'error', 'failure'].includes(incoming.type) ? incoming.type : undefined;
}

/**
 * Can `target` start while `source` has not finished with success? True when `target` is reachable
 * from workflow_start on a path that avoids `source` or leaves it through an error or failure transition.
 */
function reachableWithoutSuccessOf(workflow: Workflow, source: string, target: string): boolean {
  const seen = new Set<string>(['workflow_start']);
  const queue = ['workflow_start'];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    if (node === target) return true;
    const only = fixedOutcome(workflow, node);
    for (const edge of edgesFrom(workflow, node)) {
      if (node === source && edge.state === 'success') continue;
      if (only && edge.state !== only) continue;
      // A revert edge leads back to a task that has run already in this job: no new way to reach it.
      if (edge.type === 'revert') continue;
      if (!seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return false;
}

function checkCodePointAt(file: string, doc: JsonDoc, workflow: Workflow): Finding[] {
  const found: Finding[] = [];
  for (const [taskId, task] of Object.entries(workflow.tasks)) {
    if (!isObject(task) || task.name !== 'codePointAt') continue;
    const edges = edgesFrom(workflow, taskId);
    // An error transition handles it, standard or revert (a retry from an earlier task).
    if (edges.some((edge) => edge.state === 'error')) continue;
    // A failure transition is not taken when the task errors.
    const failure = edges.some((edge) => edge.state === 'failure')
      ? ` Its failure transition is not taken: an out-of-range position is an error, not a failure.`
      : '';
    found.push(
      finding({
        rule: 'codepointat-error',
        file,
        line: doc.lineOf(`${workflow.path}.tasks.${taskId}`),
        message: `Workflow "${workflow.name}": codePointAt task ${taskId} has no error transition. From 2022.1 an out-of-range position is an error of the task, no longer an empty string with status 204, so the job stops at this task.${failure}`,
        fix: `Add a transition from ${taskId} with state "error" to the task that handles an out-of-range position, and stop checking its output for an empty string`,
        blocking: true,
      }),
    );
  }
  return found;
}

/** Why a value passed to a child job can be undefined, or undefined when it cannot. */
function undefinedCause(workflow: Workflow, childTaskId: string, given: unknown): string | undefined {
  // An object reference reads like its string form; a static one is a deliberate literal (null included).
  const ref = parseObjectReference(given);
  if (ref?.source === 'static') return undefined;
  const value = ref ? `$var.${ref.source}.${ref.variable}` : given;
  if (value === null) return 'is null';
  if (value === UNDEFINED_MARKER) return `is the undefined marker "${UNDEFINED_MARKER}"`;
  if (typeof value !== 'string' || !value.startsWith('$var.')) return undefined;
  const [, scope, name] = value.split('.');
  if (!scope || !name) return `is the malformed reference "${value}"`;
  if (scope === 'job') {
    const schema = isObject(workflow.raw.inputSchema) ? workflow.raw.inputSchema : {};
    const required = Array.isArray(schema.required) && schema.required.includes(name);
    const property = isObject(schema.properties) ? schema.properties[name] : undefined;
    const hasDefault = isObject(property) && property.default !== undefined && property.default !== null;
    const preset = isObject(workflow.raw.variables) && workflow.raw.variables[name] !== undefined && workflow.raw.variables[name] !== null;
    if (required || hasDefault || preset) return undefined;
    const writers = Object.entries(workflow.tasks)
      .filter(([, task]) => isObject(task) && isObject(task.variables) && isObject(task.variables.outgoing) &&
        Object.values(task.variables.outgoing).includes(`$var.job.${name}`))
      .map(([id]) => id);
    if (writers.some((writer) => !reachableWithoutSuccessOf(workflow, writer, childTaskId))) return undefined;
    return writers.length
      ? `refers to job variable "${name}", which the input schema does not require and which ${childTaskId} can reach without ${writers.join(' or ')} setting it`
      : `refers to job variable "${name}", which the input schema does not require or default and no task sets`;
  }
  const source = workflow.tasks[scope];
  if (!isObject(source)) return `refers to task "${scope}", which is not in the workflow`;
  const outgoing = isObject(source.variables) && isObject(source.variables.outgoing) ? source.variables.outgoing : undefined;
  if (outgoing && !(name in outgoing)) return `refers to output "${name}" of task ${scope}, which that task does not have`;
  if (reachableWithoutSuccessOf(workflow, scope, childTaskId)) {
    return `refers to output "${name}" of task ${scope}, and ${childTaskId} can start without ${scope} having succeeded`;
  }
  return undefined;
}

function checkChildJobs(file: string, doc: JsonDoc, workflow: Workflow): Finding[] {
  const found: Finding[] = [];
  for (const [taskId, task] of Object.entries(workflow.tasks)) {
    if (!isObject(task) || task.name !== 'childJob') continue;
    const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : undefined;
    if (!incoming || !('variables' in incoming)) continue;
    const base = `${workflow.path}.tasks.${taskId}.variables.incoming.variables`;
    const report = (label: string, path: string, cause: string) =>
      found.push(
        finding({
          rule: 'child-job-undefined',
          file,
          line: doc.lineOf(path),
          message: `Workflow "${workflow.name}": childJob task ${taskId} passes ${label}, which ${cause}; a variable passed to a child job as undefined arrives as null, not undefined`,
          fix: `Give ${label} a value on every path to ${taskId} (a required input, a default, or a task that sets it first), or make the child workflow treat null as missing`,
          blocking: false,
        }),
      );
    const visit = (value: unknown, label: string, path: string, depth: number) => {
      const cause = undefinedCause(workflow, taskId, value);
      if (cause) return report(label, path, cause);
      if (depth < 4 && isObject(value) && !parseObjectReference(value)) {
        for (const [key, item] of Object.entries(value)) visit(item, `${label}.${key}`, `${path}.${key}`, depth + 1);
      }
    };
    const vars = incoming.variables;
    if (isObject(vars)) {
      for (const [key, value] of Object.entries(vars)) visit(value, `variable "${key}"`, `${base}.${key}`, 0);
    } else {
      visit(vars, 'its variables', base, 0);
    }
  }
  return found;
}

export function checkWorkflows(file: string, doc: JsonDoc): Finding[] {
  const workflows: Workflow[] = [];
  findWorkflows(doc.value, '$', 0, workflows);
  return workflows.flatMap((workflow) => [...checkCodePointAt(file, doc, workflow), ...checkChildJobs(file, doc, workflow)]);
}
