// The parts catalog of the active profile: its adapter instances (from the
// adapter manager's public listing), the console's applications (WorkFlowEngine's
// built-in tasks and the job runner's childJob; manual tasks run by the runner),
// the transformations in the `transformations` collection and the workflows.
import { builtInApplications } from '../../applications/registry';
import type { Store } from '../../store/port';
import { APPLICATION_MANUAL_TASKS, applicationTasks, builtInTaskMethods, WORKFLOW_ENGINE_APP } from '../tasks/library';
import { TRANSFORMATIONS_COLLECTION } from '../../transformations/repository';
import { namedParts, type PartsCatalog } from './parts';
import { isWorkflowId, WORKFLOWS_COLLECTION } from './repository';


/** Methods the job runner itself carries out (not in the task library). */
export const RUNNER_METHODS = ['childJob'] as const;

/** What the catalog reads of the adapter manager. */
export interface AdapterListing {
  list(): string[];
  methods(id: string): string[] | undefined;
  /** The inputs of a method that its pronghorn.json marks `required`. */
  requiredInputs?(id: string, method: string): string[];
}

export interface CatalogSources {
  adapters?: AdapterListing;
  /** Application names with the task methods each declares (default: the console's registry). */
  applications?: ReadonlyMap<string, readonly string[]>;
  transformationIds: Iterable<string>;
  workflowNames: Iterable<string>;
}

export function defaultApplications(): Map<string, readonly string[]> {
  const apps = new Map<string, readonly string[]>(
    builtInApplications.map((app) => [app.id, [...(applicationTasks.get(app.id)?.keys() ?? []), ...(APPLICATION_MANUAL_TASKS.get(app.id) ?? [])]]),
  );
  apps.set(WORKFLOW_ENGINE_APP, [...builtInTaskMethods, ...RUNNER_METHODS]);
  return apps;
}

export function createPartsCatalog(sources: CatalogSources): PartsCatalog {
  const applications = sources.applications ?? defaultApplications();
  const transformations = new Set(sources.transformationIds);
  const workflows = new Set(sources.workflowNames);
  const adapterIds = new Set(sources.adapters?.list() ?? []);
  return {
    adapterMethods: (name) => (adapterIds.has(name) ? (sources.adapters?.methods(name) ?? []) : undefined),
    adapterRequiredInputs: (name, method) => (adapterIds.has(name) ? (sources.adapters?.requiredInputs?.(name, method) ?? []) : []),
    applicationMethods(name, taskType) {
      const methods = applications.get(name);
      // A manual task (WorkFlowEngine's ViewData, MOP's viewTemplateResults and the like) waits for an operator: the runner owns it.
      if (methods && taskType === 'manual') return 'any';
      // A method the console does not run itself goes to an adapter instance of that name (a simulated MOP, AGManager…).
      const instance = adapterIds.has(name) ? sources.adapters?.methods(name) : undefined;
      return instance ? [...(methods ?? []), ...instance] : methods;
    },
    hasTransformation: (id) => transformations.has(id),
    hasWorkflow: (name) => workflows.has(name),
  };
}

export interface CatalogDeps {
  store: Store;
  adapters?: AdapterListing;
}

/**
 * Reads the catalog for `workflows` (a list, or a workflow and the children it starts), from the store and the
 * adapter manager: of the transformations and workflows, only those their tasks name, by `_id` and by name, so
 * what a start or a list reads does not grow with the transformations stored beside them. `knownWorkflows`
 * (the names a list has read already) are not read again.
 */
export async function loadPartsCatalog(deps: CatalogDeps, workflows: readonly { tasks?: unknown }[], knownWorkflows?: Iterable<string>): Promise<PartsCatalog> {
  const transformationIds = new Set<string>();
  const childNames = new Set<string>();
  for (const workflow of workflows) {
    if (workflow.tasks === null || typeof workflow.tasks !== 'object') continue;
    const named = namedParts(workflow.tasks as Record<string, unknown>);
    named.transformations.forEach((id) => transformationIds.add(id));
    named.workflows.forEach((name) => childNames.add(name));
  }
  const known = knownWorkflows ? new Set(knownWorkflows) : undefined;
  const unknownChildren = [...childNames].filter((name) => !known?.has(name));
  // A childJob may name its workflow by the stored `_id` instead of its name.
  const childIds = unknownChildren.filter(isWorkflowId);
  const [workflowDocs, byIdDocs, transformationDocs] = await Promise.all([
    unknownChildren.length ? deps.store.collection(WORKFLOWS_COLLECTION).find({ name: { $in: unknownChildren } }, { projection: { name: 1 } }) : [],
    childIds.length ? deps.store.collection(WORKFLOWS_COLLECTION).find({ _id: { $in: childIds } }, { projection: { _id: 1 } }) : [],
    transformationIds.size ? deps.store.collection(TRANSFORMATIONS_COLLECTION).find({ _id: { $in: [...transformationIds] } }, { projection: { _id: 1 } }) : [],
  ]);
  return createPartsCatalog({
    adapters: deps.adapters,
    workflowNames: [...(known ?? []), ...workflowDocs.map((doc) => String(doc.name)), ...byIdDocs.map((doc) => String(doc._id))],
    transformationIds: transformationDocs.map((doc) => String(doc._id)),
  });
}
