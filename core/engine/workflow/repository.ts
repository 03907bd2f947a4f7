// Workflows in the `workflows` collection of the active profile's store, one
// document per workflow in the reference shape plus `created` / `lastUpdated`.
// Keys the embedded store cannot hold (a leading `$`, as in JSON Schema's
// `$schema`, or a `.`) are stored escaped and read back as they were.
import {
  RESERVED_TASK_IDS,
  type StoredWorkflow,
  type Workflow,
  type WorkflowSummary,
} from '../../contract/workflows';
import { escapeKeys, replaceFields, unescapeKeys } from '../../store/documents';
import { isDuplicateKey } from '../../store/errors';
import { ConsoleError } from '../../errors';
import type { Doc, Store } from '../../store/port';

export const WORKFLOWS_COLLECTION = 'workflows';

export class WorkflowExistsError extends ConsoleError {
  constructor(readonly workflowName: string) {
    super('conflict', `a workflow named "${workflowName}" exists already (import with overwrite=true to replace it)`, { name: workflowName });
  }
}

function toDoc(workflow: Workflow, created: string, lastUpdated: string): Doc {
  const { _id: _ignored, created: exported, lastUpdated: _u, ...body } = workflow as Workflow & { _id?: unknown; created?: unknown; lastUpdated?: unknown };
  // An export's own `created` (when the service created it) is kept as it is.
  return { ...escapeKeys(body), created: typeof exported === 'string' && exported ? exported : created, lastUpdated };
}

function fromDoc(doc: Doc): StoredWorkflow {
  const { _id: _ignored, ...rest } = doc;
  const workflow = unescapeKeys(rest) as StoredWorkflow;
  return { ...workflow, transitions: workflow.transitions ?? {} };
}

export function summarize(workflow: StoredWorkflow): Omit<WorkflowSummary, 'needs'> {
  const taskIds = Object.keys(workflow.tasks ?? {}).filter((id) => !(RESERVED_TASK_IDS as readonly string[]).includes(id));
  const transitionCount = Object.values(workflow.transitions ?? {}).reduce((n, targets) => n + Object.keys(targets).length, 0);
  return {
    name: workflow.name,
    ...(workflow.description !== undefined ? { description: workflow.description } : {}),
    taskCount: taskIds.length,
    transitionCount,
    hasInputSchema: workflow.inputSchema !== undefined,
    created: workflow.created,
    lastUpdated: workflow.lastUpdated,
  };
}

export async function listWorkflowDocs(store: Store): Promise<StoredWorkflow[]> {
  const docs = await store.collection(WORKFLOWS_COLLECTION).find({}, { sort: { name: 1 } });
  return docs.map(fromDoc);
}

/** Every stored workflow with its store `_id` first, as the service answers its documents. */
export async function listWorkflowDocsWithIds(store: Store): Promise<(StoredWorkflow & { _id: string })[]> {
  const docs = await store.collection(WORKFLOWS_COLLECTION).find({}, { sort: { name: 1 } });
  return docs.map((doc) => ({ _id: String(doc._id), ...fromDoc(doc) }));
}

/** One stored workflow by name with its store `_id` first, as the service answers its documents; null when none. */
export async function getWorkflowWithId(store: Store, name: string): Promise<(StoredWorkflow & { _id: string }) | null> {
  const doc = await store.collection(WORKFLOWS_COLLECTION).findOne({ name });
  return doc ? { _id: String(doc._id), ...fromDoc(doc) } : null;
}

export async function getWorkflow(store: Store, name: string): Promise<StoredWorkflow | null> {
  const doc = await store.collection(WORKFLOWS_COLLECTION).findOne({ name });
  return doc ? fromDoc(doc) : null;
}

/** A stored workflow's id as a childJob task may name it instead of its name (24 hex digits). */
export const isWorkflowId = (ref: string) => /^[0-9a-fA-F]{24}$/.test(ref);

/** The workflow a childJob task names: by name, else (24 hex digits) by its stored `_id`. */
export async function getWorkflowByRef(store: Store, ref: string): Promise<StoredWorkflow | null> {
  const byName = await getWorkflow(store, ref);
  if (byName || !isWorkflowId(ref)) return byName;
  const doc = await store.collection(WORKFLOWS_COLLECTION).findOne({ _id: ref });
  return doc ? fromDoc(doc) : null;
}

/** The names of the stored workflows with these ids (the childJob references a list could not resolve by name). */
export async function workflowNamesById(store: Store, ids: string[]): Promise<Map<string, string>> {
  const wanted = ids.filter(isWorkflowId);
  if (!wanted.length) return new Map();
  const docs = await store.collection(WORKFLOWS_COLLECTION).find({ _id: { $in: wanted } }, { projection: { _id: 1, name: 1 } });
  return new Map(docs.map((doc) => [String(doc._id), String(doc.name)]));
}

/** Saves a validated workflow. Throws `WorkflowExistsError` when the name is taken and `overwrite` is not set. */
export async function saveWorkflow(store: Store, workflow: Workflow, options: { overwrite?: boolean; now?: Date } = {}): Promise<StoredWorkflow> {
  const collection = store.collection(WORKFLOWS_COLLECTION);
  const now = (options.now ?? new Date()).toISOString();
  const existing = await collection.findOne({ name: workflow.name });
  if (existing) {
    if (!options.overwrite) throw new WorkflowExistsError(workflow.name);
    const doc = toDoc(workflow, String(existing.created ?? now), now);
    await replaceFields(collection, existing, doc);
    return fromDoc(doc);
  }
  const doc = toDoc(workflow, now, now);
  try {
    await collection.insertOne(doc);
  } catch (error) {
    // A unique index on name turns a concurrent import of the same name into a duplicate-key error.
    if (isDuplicateKey(error)) {
      throw new WorkflowExistsError(workflow.name);
    }
    throw error;
  }
  return fromDoc(doc);
}

/**
 * Replaces the workflow stored under `id` (its `_id` and `created` kept); its name may change, unless
 * another workflow has that name (WorkflowExistsError). Null when no workflow has that `_id`.
 */
export async function replaceWorkflowById(store: Store, id: string, workflow: Workflow, now = new Date()): Promise<(StoredWorkflow & { _id: string }) | null> {
  const collection = store.collection(WORKFLOWS_COLLECTION);
  const existing = await collection.findOne({ _id: id });
  if (!existing) return null;
  if (workflow.name !== existing.name && (await collection.findOne({ name: workflow.name }))) throw new WorkflowExistsError(workflow.name);
  const doc = toDoc(workflow, String(existing.created ?? now.toISOString()), now.toISOString());
  try {
    await replaceFields(collection, existing, doc);
  } catch (error) {
    // The unique index on name: another import took the new name meanwhile.
    if (isDuplicateKey(error)) throw new WorkflowExistsError(workflow.name);
    throw error;
  }
  return { _id: id, ...fromDoc(doc) };
}

export async function deleteWorkflow(store: Store, name: string): Promise<boolean> {
  return (await store.collection(WORKFLOWS_COLLECTION).deleteOne({ name })) > 0;
}
