// What a profile's workflows call that nothing of the profile answers: for each task of an
// adapter or application method the console lacks, the instance the task names (its literal
// `adapter_id`, else its `app`), with the adapter type (the app) and every method called of it.
import { parsePlainPath, QuerySyntaxError } from '../../values/json-query';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface WorkflowTasks {
  name: string;
  tasks?: unknown;
  /** The stored document's id, by which a childJob task may name it too. */
  _id?: unknown;
}

/** The literal child workflows a workflow's childJob tasks name: a name, `@<project id>: name`, or a stored `_id` (a `$var.` is known only at run time). */
export function childReferences(workflow: WorkflowTasks): string[] {
  if (!isObject(workflow.tasks)) return [];
  const out: string[] = [];
  for (const task of Object.values(workflow.tasks)) {
    if (!isObject(task) || task.name !== 'childJob' || (task.app !== undefined && task.app !== ENGINE) || !isObject(task.variables) || !isObject(task.variables.incoming)) continue;
    const child = literalId(task.variables.incoming.workflow);
    if (child) out.push(child);
  }
  return out;
}

/**
 * The chosen workflows and every workflow they start (childJob, recursively), each once, in the order
 * found: a parent whose child calls a missing adapter needs that adapter too. A cycle ends where it
 * meets a workflow already taken; a child the profile lacks is left out (its import is the need).
 */
export function withChildWorkflows(chosen: readonly WorkflowTasks[], all: readonly WorkflowTasks[]): WorkflowTasks[] {
  const byRef = new Map<string, WorkflowTasks>();
  for (const workflow of all) {
    byRef.set(workflow.name, workflow);
    if (workflow._id !== undefined && workflow._id !== null) byRef.set(String(workflow._id), workflow);
  }
  const resolve = (ref: string) => byRef.get(ref) ?? byRef.get(ref.replace(/^@[0-9a-fA-F]{24}: /, ''));
  const taken = new Set<WorkflowTasks>();
  const queue = [...chosen];
  for (let workflow = queue.shift(); workflow; workflow = queue.shift()) {
    if (taken.has(workflow)) continue;
    taken.add(workflow);
    for (const ref of childReferences(workflow)) {
      const child = resolve(ref);
      if (child && !taken.has(child)) queue.push(child);
    }
  }
  return [...taken];
}

/** What the profile answers: an instance or adapter type, or a built-in application's method. */
export interface Answerers {
  /** An instance by name: its type and whether it answers `method`. */
  instance(name: string): { type: string; simulated: boolean; answers: (method: string) => boolean } | undefined;
  /** An adapter type with an instance: whether it answers `method`. */
  adapterType(app: string): ((method: string) => boolean) | undefined;
  /** A built-in application method the console runs itself. */
  applicationRuns(app: string, method: string): boolean;
  /** Whether the console has the application (its manual tasks then wait for an operator); absent: every one. */
  applicationKnown?(app: string): boolean;
}

export interface Need {
  /** The instance name the tasks call. */
  id: string;
  /** The adapter type (the tasks' app). */
  type: string;
  methods: Set<string>;
  workflows: Set<string>;
}

const ENGINE = 'WorkFlowEngine';
const literalId = (value: unknown) => (typeof value === 'string' && value !== '' && !value.startsWith('$var.') ? value : undefined);

export function simulationNeeds(workflows: readonly WorkflowTasks[], profile: Answerers): Need[] {
  const needs = new Map<string, Need>();
  for (const workflow of workflows) {
    if (!isObject(workflow.tasks)) continue;
    for (const task of Object.values(workflow.tasks)) {
      if (!isObject(task)) continue;
      const app = typeof task.app === 'string' ? task.app : '';
      const method = typeof task.name === 'string' ? task.name : '';
      // A manual task of an application the console has waits for an operator: the job runner owns it. One of an
      // application it lacks (an export's AppArtifacts.gatherInternalGET) gets the simulated instance the workflow's
      // start asks for; the runner still hands the task to an operator.
      const ownManual = task.type === 'manual' && (profile.applicationKnown?.(app) ?? true);
      if (!app || !method || ownManual || (app === ENGINE && task.location !== 'Adapter')) continue;
      if (task.location !== 'Adapter' && profile.applicationRuns(app, method)) continue;
      const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
      const named = literalId(incoming.adapter_id);
      const id = named ?? app;
      const instance = profile.instance(id);
      if (instance?.answers(method)) continue;
      if (!named && !instance && profile.adapterType(app)?.(method)) continue;
      // A real instance that lacks the method is not replaced by a simulated one.
      if (instance && !instance.simulated) continue;
      const need = needs.get(id) ?? { id, type: app, methods: new Set<string>(), workflows: new Set<string>() };
      need.methods.add(method);
      need.workflows.add(workflow.name);
      needs.set(id, need);
    }
  }
  return [...needs.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export interface TransformationNeed {
  id: string;
  incoming: Set<string>;
  outgoing: Set<string>;
  workflows: Set<string>;
}

/** The JST ids the transformation tasks name literally (a 24-hex `tr_id`), with the names they pass and take. */
export function simulationNeedsOfTransformations(workflows: readonly WorkflowTasks[]): TransformationNeed[] {
  const needs = new Map<string, TransformationNeed>();
  for (const workflow of workflows) {
    if (!isObject(workflow.tasks)) continue;
    for (const task of Object.values(workflow.tasks)) {
      if (!isObject(task) || task.app !== ENGINE || task.name !== 'transformation' || !isObject(task.variables)) continue;
      const incoming = isObject(task.variables.incoming) ? task.variables.incoming : {};
      const id = incoming.tr_id;
      if (typeof id !== 'string' || !/^[0-9a-f]{24}$/i.test(id)) continue;
      const need = needs.get(id) ?? { id, incoming: new Set<string>(), outgoing: new Set<string>(), workflows: new Set<string>() };
      if (isObject(incoming.variableMap)) for (const name of Object.keys(incoming.variableMap)) need.incoming.add(name);
      if (isObject(task.variables.outgoing)) for (const name of Object.keys(task.variables.outgoing)) need.outgoing.add(name);
      need.workflows.add(workflow.name);
      needs.set(id, need);
    }
  }
  return [...needs.values()];
}

/**
 * What the workflows expect of an answer on their way to success: an evaluation comparing a task's
 * `result` (at a query path) `==` a static value. A simulated method answers that value there by
 * default, so a polling loop (call, evaluate, delay, call again) ends as it does against a live system.
 */
export function expectedAnswers(workflow: WorkflowTasks): { taskId: string; path: Path; value: unknown }[] {
  if (!isObject(workflow.tasks)) return [];
  const out: { taskId: string; path: Path; value: unknown }[] = [];
  for (const task of Object.values(workflow.tasks)) {
    if (!isObject(task) || task.app !== ENGINE || task.name !== 'evaluation' || !isObject(task.variables) || !isObject(task.variables.incoming)) continue;
    const groups = task.variables.incoming.evaluation_groups;
    for (const group of Array.isArray(groups) ? groups : []) {
      const evaluations = isObject(group) && Array.isArray(group.evaluations) ? group.evaluations : [];
      for (const e of evaluations) {
        if (!isObject(e) || e.operator !== '==' || !isObject(e.operand_1) || !isObject(e.operand_2) || e.operand_2.task !== 'static') continue;
        const hint = resultPath(workflow.tasks, e.operand_1, typeof e.query === 'string' ? e.query : '');
        if (hint) out.push({ ...hint, value: e.operand_2.variable });
      }
    }
  }
  return out;
}

type Path = (string | number)[];

/**
 * The path a json-query query reads when it is a plain one (`a.b[0].c`, with the leading `.` the
 * service's exports often write); undefined for a query with a filter (`[country=NZ]`) or a helper.
 */
function pathOf(query: string): Path | undefined {
  try {
    return parsePlainPath(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return undefined;
    throw error;
  }
}

/** Whether `name` is an outgoing variable an adapter or application task declares (where a simulated answer lands). */
function answerVariableOf(task: unknown, name: unknown): boolean {
  if (!isObject(task) || typeof name !== 'string' || (task.app === ENGINE && task.location !== 'Adapter')) return false;
  return isObject(task.variables) && isObject(task.variables.outgoing) && name in task.variables.outgoing;
}

/** Where in which task's `result` an evaluated operand lies: the result itself, or what a query task took of it. */
function resultPath(tasks: Obj, operand: Obj, query: string): { taskId: string; path: Path } | undefined {
  if (typeof operand.task !== 'string') return undefined;
  const source = tasks[operand.task];
  if (operand.variable === 'result' || answerVariableOf(source, operand.variable)) {
    const path = pathOf(query);
    return path?.length ? { taskId: operand.task, path } : undefined;
  }
  if (operand.variable !== 'return_data' || !isObject(source) || source.app !== ENGINE || source.name !== 'query' || !isObject(source.variables)) return undefined;
  const incoming = isObject(source.variables.incoming) ? source.variables.incoming : {};
  const from = typeof incoming.obj === 'string' ? /^\$var\.([^.]+)\.([^.]+)$/.exec(incoming.obj) : null;
  const inner = pathOf(typeof incoming.query === 'string' ? incoming.query : '');
  const outer = pathOf(query);
  if (!inner || !outer || !from?.[1] || !(from[2] === 'result' || answerVariableOf(tasks[from[1]], from[2]))) return undefined;
  const path = [...inner, ...outer];
  return path.length ? { taskId: from[1], path } : undefined;
}

/** The default answer of each method with what the workflows expect set in it (see expectedAnswers). */
export function expectedResponses(workflows: readonly WorkflowTasks[], instanceOf: (task: Obj) => string | undefined): Map<string, Obj> {
  const answers = new Map<string, Obj>();
  for (const workflow of workflows) {
    const tasks = isObject(workflow.tasks) ? workflow.tasks : {};
    for (const hint of expectedAnswers(workflow)) {
      const task = tasks[hint.taskId];
      if (!isObject(task) || typeof task.name !== 'string') continue;
      const id = instanceOf(task);
      if (!id) continue;
      const key = `${id}\u0000${task.name}`;
      const answer = answers.get(key) ?? { status: 'success', code: 200, response: {} };
      setPath(answer, hint.path, hint.value);
      answers.set(key, answer);
    }
  }
  return answers;
}

/** Sets `value` at `path`, making an array where the next step is an index (`results[0]`) and an object elsewhere. */
function setPath(target: Obj, path: Path, value: unknown) {
  let here: Obj | unknown[] = target;
  path.forEach((key, i) => {
    const slot = here as Record<string | number, unknown>;
    if (i === path.length - 1) slot[key] = value;
    else {
      const next = slot[key];
      const wantsArray = typeof path[i + 1] === 'number';
      here = (wantsArray ? Array.isArray(next) : isObject(next)) ? (next as Obj | unknown[]) : (slot[key] = wantsArray ? [] : {});
    }
  });
}

/** The instance a task calls (its literal adapter_id, else its app). */
export function instanceOfTask(task: Obj): string | undefined {
  const app = typeof task.app === 'string' ? task.app : undefined;
  const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
  return literalId(incoming.adapter_id) ?? app;
}
