// What a workflow's tasks need from the profile: adapter instances and their
// methods (and the inputs pronghorn.json marks required), applications and their
// methods, child workflows (childJob) and transformations (tr_id). A part the profile lacks is a state of the workflow
// ("needs: Servicenow (2 tasks), MOP.RunCommandTemplate"), shown in the list and
// refused only when a job of it is started; installing the part is enough.
import { RESERVED_TASK_IDS, type MissingPart } from '../../contract/workflows';
import { parseObjectReference, parseReference } from './references';

/** The narrow port the computation reads: what the profile has. */
export interface PartsCatalog {
  /** Methods of an adapter instance, or undefined when the profile has no adapter of that name. */
  adapterMethods(name: string): readonly string[] | undefined;
  /** The inputs an adapter method's pronghorn.json marks `required` (none when unknown). */
  adapterRequiredInputs(name: string, method: string): readonly string[];
  /**
   * Task methods of an application: undefined when the console has no such application,
   * `'any'` for one whose every method is carried out by the job runner (manual tasks).
   */
  applicationMethods(name: string, taskType?: string): readonly string[] | 'any' | undefined;
  hasTransformation(id: string): boolean;
  hasWorkflow(name: string): boolean;
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A literal string argument (a reference resolves only when the job runs, so it is not checked). */
function literal(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || parseReference(value)) return undefined;
  if (parseObjectReference(value)) return undefined;
  return value;
}

/** The literal of a `{ task: "static", value }` reference, or the literal itself. */
function literalOrStatic(value: unknown): string | undefined {
  if (isObject(value) && value.task === 'static') return literal('value' in value ? value.value : value.variable);
  return literal(value);
}

/** `@<projectId>: Name` names a workflow of a project; the console stores it under `Name`. */
export function withoutProjectPrefix(name: string): string {
  const match = /^@[0-9a-fA-F]{24}: (.+)$/.exec(name);
  return match ? match[1]! : name;
}

/**
 * The transformations and child workflows a workflow's tasks name literally: what `missingParts` asks the catalog
 * about with `hasTransformation` and `hasWorkflow`, so a catalog can be read for these alone.
 */
export function namedParts(tasks: Record<string, unknown>): { transformations: string[]; workflows: string[] } {
  const transformations = new Set<string>();
  const workflows = new Set<string>();
  for (const [id, task] of Object.entries(tasks)) {
    if ((RESERVED_TASK_IDS as readonly string[]).includes(id) || !isObject(task) || task.app !== 'WorkFlowEngine') continue;
    const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};
    const jst = literalOrStatic(task.name === 'childJob' ? incoming.transformation : task.name === 'transformation' ? incoming.tr_id : undefined);
    if (jst) transformations.add(jst);
    const child = task.name === 'childJob' ? literalOrStatic(incoming.workflow) : undefined;
    if (child) workflows.add(child).add(withoutProjectPrefix(child));
  }
  return { transformations: [...transformations], workflows: [...workflows] };
}

const plural = (n: number) => `${n} task${n === 1 ? '' : 's'}`;

export function missingParts(tasks: Record<string, unknown>, catalog: PartsCatalog): MissingPart[] {
  const parts = new Map<string, MissingPart>();
  const need = (kind: MissingPart['kind'], name: string, taskId: string, title?: string) => {
    const key = `${kind}\u0000${name}`;
    const part: MissingPart = parts.get(key) ?? { kind, name, tasks: [], label: '' };
    if (title && !part.title) part.title = title;
    if (!part.tasks.includes(taskId)) part.tasks.push(taskId);
    parts.set(key, part);
  };

  for (const [id, task] of Object.entries(tasks)) {
    if ((RESERVED_TASK_IDS as readonly string[]).includes(id) || !isObject(task)) continue;
    const app = typeof task.app === 'string' ? task.app : '';
    const method = typeof task.name === 'string' ? task.name : '';
    if (!app || !method) continue;
    const incoming = isObject(task.variables) && isObject(task.variables.incoming) ? task.variables.incoming : {};

    // The owner of the method: an adapter instance or an application. `location` says which
    // the export meant; without it, whichever the profile has.
    const adapter = task.location === 'Application' ? undefined : catalog.adapterMethods(app);
    const application = task.location === 'Adapter' ? undefined : catalog.applicationMethods(app, String(task.type ?? ''));
    if (adapter === undefined && application === undefined) {
      need(task.location === 'Adapter' ? 'adapter' : 'application', app, id);
      continue;
    }
    const methods = adapter ?? application;
    if (methods !== 'any' && !methods!.includes(method)) need('method', `${app}.${method}`, id);
    else if (adapter !== undefined) {
      // A required input the task does not give at all (a reference or "" still gives it).
      for (const input of catalog.adapterRequiredInputs(app, method)) if (!(input in incoming)) need('input', `${app}.${method}: ${input}`, id);
    }
    if (app !== 'WorkFlowEngine') continue;

    // What a childJob or transformation task names is a part too, whether or not the method runs yet.
    if (method === 'childJob') {
      const child = literalOrStatic(incoming.workflow);
      if (child && !catalog.hasWorkflow(child) && !catalog.hasWorkflow(withoutProjectPrefix(child))) need('workflow', child, id);
      const jst = literalOrStatic(incoming.transformation);
      if (jst && !catalog.hasTransformation(jst)) need('transformation', jst, id);
    } else if (method === 'transformation') {
      const jst = literalOrStatic(incoming.tr_id);
      // A missing document's name is not in the store: the task's summary is what its author called it.
      const summary = typeof task.summary === 'string' && task.summary.trim() !== '' ? task.summary.trim() : undefined;
      if (jst && !catalog.hasTransformation(jst)) need('transformation', jst, id, summary);
    }
  }

  const order: MissingPart['kind'][] = ['adapter', 'application', 'method', 'input', 'workflow', 'transformation'];
  return [...parts.values()]
    .map(labelled)
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** The part with its label for people: `adapter Servicenow (2 tasks)`, `required input inventory.updateDevice: body (1 task)`. */
export function labelled(part: MissingPart): MissingPart {
  const kind = part.kind === 'input' ? 'required input' : part.kind;
  return { ...part, label: `${kind} ${part.name} (${plural(part.tasks.length)})` };
}

/** How the operator gets what is missing: install parts, or give a task its required inputs. */
export function howToFix(parts: MissingPart[]): string {
  const install = parts.some((part) => part.kind !== 'input');
  const inputs = parts.some((part) => part.kind === 'input');
  return [
    install ? 'install the missing parts (the workflow runs then without a new import)' : '',
    inputs ? "give each task the inputs its adapter method requires (the method's pronghorn.json) and import the workflow again" : '',
  ].filter(Boolean).join('; ');
}

/** One line for people: `Servicenow (2 tasks), MOP.RunCommandTemplate (1 task)`. */
export function describeNeeds(parts: MissingPart[]): string {
  return parts.map((part) => `${part.name} (${plural(part.tasks.length)})`).join(', ');
}
