// What a workflow needs, its child workflows' needs folded in: a workflow is ready only
// when every workflow it starts (childJob, recursively) can run too. The list folds from
// the workflows it has read already; a single workflow's check reads its children as it goes.
import type { MissingPart, StoredWorkflow } from '../../contract/workflows';
import { labelled, missingParts, withoutProjectPrefix, type PartsCatalog } from './parts';

/** Finds a stored workflow by name (the list's own documents, or the store). */
export type WorkflowLookup = (name: string) => StoredWorkflow | null | undefined | Promise<StoredWorkflow | null | undefined>;

/** The literal child workflow names a workflow's childJob tasks start (a `$var.` reference is known only at run time). */
export function childWorkflowNames(workflow: StoredWorkflow): string[] {
  const names: string[] = [];
  for (const task of Object.values(workflow.tasks)) {
    const child = task.name === 'childJob' ? task.variables?.incoming?.workflow : undefined;
    if (typeof child === 'string' && !child.startsWith('$var.')) names.push(child);
  }
  return names;
}

/** The parts a workflow and the child workflows it starts need (each child once); a child's tasks read `Child: task`. */
export async function needsWithChildren(root: StoredWorkflow, parts: PartsCatalog, lookup: WorkflowLookup): Promise<MissingPart[]> {
  const merged = new Map<string, MissingPart>();
  const seen = new Set<string>([root.name]);
  const queue: { workflow: StoredWorkflow; via?: string }[] = [{ workflow: root }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { workflow, via } = next;
    for (const part of missingParts(workflow.tasks, parts)) {
      const key = `${part.kind}\u0000${part.name}`;
      const into = merged.get(key) ?? { ...part, tasks: [] };
      into.tasks.push(...part.tasks.map((task) => (via ? `${via}: ${task}` : task)));
      merged.set(key, into);
    }
    for (const child of childWorkflowNames(workflow)) {
      const name = withoutProjectPrefix(child);
      if (seen.has(name)) continue;
      seen.add(name);
      const doc = (await lookup(name)) ?? (await lookup(child));
      // Its tasks read `Child: task` by the name people know it by, whatever form the reference took.
      if (doc) queue.push({ workflow: doc, via: doc.name });
    }
  }
  // The same order as one workflow's own needs: what to install first (adapters), then the rest.
  const order: MissingPart['kind'][] = ['adapter', 'application', 'method', 'input', 'workflow', 'transformation'];
  return [...merged.values()].map(labelled).sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || a.name.localeCompare(b.name));
}

/** A workflow and every workflow it starts (childJob, recursively), each once, read with `lookup` as `needsWithChildren` finds them. */
export async function workflowTree(root: StoredWorkflow, lookup: WorkflowLookup): Promise<Map<string, StoredWorkflow>> {
  const tree = new Map<string, StoredWorkflow>([[root.name, root]]);
  const seen = new Set<string>([root.name]);
  const queue = [root];
  for (let workflow = queue.shift(); workflow; workflow = queue.shift()) {
    for (const child of childWorkflowNames(workflow)) {
      const name = withoutProjectPrefix(child);
      if (seen.has(name)) continue;
      seen.add(name);
      const byName = await lookup(name);
      const doc = byName ?? (await lookup(child));
      if (!doc) continue;
      tree.set(byName ? name : child, doc);
      queue.push(doc);
    }
  }
  return tree;
}

/** Every listed workflow's needs with its children's folded in, from the listed documents alone (`idNames`: a stored `_id` a childJob names → that workflow's name). */
export async function listNeeds(docs: StoredWorkflow[], parts: PartsCatalog, idNames: ReadonlyMap<string, string> = new Map()): Promise<Map<string, MissingPart[]>> {
  const byName = new Map(docs.map((doc) => [doc.name, doc]));
  const needs = new Map<string, MissingPart[]>();
  const lookup = (ref: string) => byName.get(ref) ?? byName.get(idNames.get(ref) ?? '');
  for (const doc of docs) needs.set(doc.name, await needsWithChildren(doc, parts, lookup));
  return needs;
}

/** The childJob references of these workflows no listed workflow has as its name (candidates for a stored `_id`). */
export function unresolvedChildren(docs: StoredWorkflow[]): string[] {
  const names = new Set(docs.map((doc) => doc.name));
  return [...new Set(docs.flatMap(childWorkflowNames))].filter((ref) => !names.has(ref) && !names.has(withoutProjectPrefix(ref)));
}
