// The parts catalog of the active profile: its adapter instances (from the
// adapter manager's public listing), the console's applications (WorkFlowEngine's
// built-in tasks and the job runner's childJob; manual tasks run by the runner),
// the transformations in the `transformations` collection and the workflows.
import { builtInApplications } from '../../applications/registry';
import type { Store } from '../../store/port';
import { builtInTaskMethods, WORKFLOW_ENGINE_APP } from '../tasks/library';
import type { PartsCatalog } from './parts';
import { WORKFLOWS_COLLECTION } from './repository';

export const TRANSFORMATIONS_COLLECTION = 'transformations';

/** Methods the job runner itself carries out (not in the task library). */
export const RUNNER_METHODS = ['childJob'] as const;

/** What the catalog reads of the adapter manager. */
export interface AdapterListing {
  list(): string[];
  methods(id: string): string[] | undefined;
}

/** The transformations service when present (`has` by id); otherwise the collection is read. */
export interface TransformationLookup {
  has(id: string): boolean | Promise<boolean>;
}

export interface CatalogSources {
  adapters?: AdapterListing;
  /** Application names with the task methods each declares (default: the console's registry). */
  applications?: ReadonlyMap<string, readonly string[]>;
  transformationIds: Iterable<string>;
  workflowNames: Iterable<string>;
}

export function defaultApplications(): Map<string, readonly string[]> {
  const apps = new Map<string, readonly string[]>(builtInApplications.map((app) => [app.id, []]));
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
    applicationMethods(name, taskType) {
      const methods = applications.get(name);
      // A manual task of the WorkFlowEngine (ViewData and the like) waits for an operator: the runner owns it.
      if (methods && name === WORKFLOW_ENGINE_APP && taskType === 'manual') return 'any';
      return methods;
    },
    hasTransformation: (id) => transformations.has(id),
    hasWorkflow: (name) => workflows.has(name),
  };
}

export interface CatalogDeps {
  store: Store;
  adapters?: AdapterListing;
  transformations?: TransformationLookup;
}

/** Reads the catalog once (for a list or a start), from the store and the adapter manager. */
export async function loadPartsCatalog(deps: CatalogDeps, wanted: { transformationIds?: string[] } = {}): Promise<PartsCatalog> {
  const [workflowDocs, transformationIds] = await Promise.all([
    deps.store.collection(WORKFLOWS_COLLECTION).find({}, { projection: { name: 1 } }),
    readTransformationIds(deps, wanted.transformationIds),
  ]);
  return createPartsCatalog({
    adapters: deps.adapters,
    workflowNames: workflowDocs.map((doc) => String(doc.name)),
    transformationIds,
  });
}

async function readTransformationIds(deps: CatalogDeps, wanted: string[] | undefined): Promise<string[]> {
  if (deps.transformations && wanted) {
    const found = await Promise.all(wanted.map(async (id) => ((await deps.transformations!.has(id)) ? id : undefined)));
    return found.filter((id): id is string => id !== undefined);
  }
  const docs = await deps.store.collection(TRANSFORMATIONS_COLLECTION).find({}, { projection: { _id: 1 } });
  return docs.map((doc) => String(doc._id));
}
