// Imports a bundle (pre-built or project) in one step: each artifact into the
// service's collection of its kind, parts before the workflows that use them,
// references between them resolved, and a summary of what was imported, replaced,
// refused or left out, with what the workflows still need.
import type { ImportItem, ImportSummary, MissingPart } from '../contract/projects';
import { ConsoleError } from '../errors';
import { escapeKeys, replaceFields } from '../store/documents';
import type { Store } from '../store/port';
import { COLLECTION_OF, IMPORT_ORDER, type ArtifactKind } from './kinds';
import type { Artifact, Bundle } from './read';
import { resolveProjectNames } from './resolve';
import { keepProject } from './studio-projects';

/** What the import needs of the workflows capability. */
export interface WorkflowImporter {
  importWorkflow(doc: unknown, options: { overwrite?: boolean }): Promise<{ replaced: boolean; warnings?: { message: string }[] }>;
  needs(name: string): Promise<MissingPart[] | null>;
}

/** What the import needs of the transformations capability (its own checks and storage), when present. */
export interface TransformationImporter {
  has(id: string): Promise<boolean>;
  importTransformations(docs: unknown[], options: { overwrite?: boolean }): Promise<{ imported: unknown[]; problems: { message: string }[]; warnings: string[] }>;
}

/** What the import needs of the automations capability: an exported automation stored with its triggers. */
export interface AutomationImporter {
  importOne(doc: Record<string, unknown>): Promise<{ replaced: boolean; warnings: string[] }>;
}

export interface ImportDeps {
  store(): Store;
  /** Without it, automations are stored as they are in the `automations` collection. */
  automations?: AutomationImporter;
  workflows: WorkflowImporter;
  /** Without it, transformations are stored as they are in the `transformations` collection. */
  transformations?: TransformationImporter;
}

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Saves a non-workflow document: transformations by `_id`, the others by name. Answers whether it replaced one. */
async function saveDocument(store: Store, kind: ArtifactKind, data: Obj): Promise<boolean> {
  const collection = store.collection(COLLECTION_OF[kind]);
  const { _id: givenId, ...body } = data;
  const doc = escapeKeys(body);
  const id = typeof givenId === 'string' && givenId ? givenId : undefined;
  const key = kind === 'transformation' ? { _id: id } : { name: data.name };
  const existing = await collection.findOne(key);
  if (existing) {
    await replaceFields(collection, existing, doc);
    return true;
  }
  await collection.insertOne(id ? { _id: id, ...doc } : doc);
  return false;
}

export async function importBundle(
  deps: ImportDeps,
  bundle: Bundle,
  onProgress: (done: number, total: number, current: string) => void = () => undefined,
): Promise<ImportSummary> {
  const items: ImportItem[] = [];
  const names = new Set(bundle.artifacts.map((a) => a.name));
  let referencesResolved = 0;
  const ordered = [...bundle.artifacts].sort(
    (a, b) => (a.kind ? IMPORT_ORDER.indexOf(a.kind) : IMPORT_ORDER.length) - (b.kind ? IMPORT_ORDER.indexOf(b.kind) : IMPORT_ORDER.length),
  );
  const base = (a: Artifact) => ({ type: a.type, name: a.name, source: a.source, ...(a.kind ? { collection: COLLECTION_OF[a.kind] } : {}) });

  let done = 0;
  for (const artifact of ordered) {
    onProgress(done, ordered.length, artifact.name);
    if (artifact.skip !== undefined) {
      items.push({ ...base(artifact), outcome: 'skipped', message: artifact.skip });
    } else if (!artifact.kind) {
      items.push({ ...base(artifact), outcome: 'skipped', message: `the console does not keep artifacts of type "${artifact.type}"` });
    } else if (!isObject(artifact.data)) {
      items.push({ ...base(artifact), outcome: 'skipped', message: `its file (${artifact.source}) was not among the files given` });
    } else {
      const data = structuredClone(artifact.data);
      referencesResolved += resolveProjectNames(data, names);
      try {
        if (artifact.kind === 'workflow') {
          const { replaced, warnings } = await deps.workflows.importWorkflow(data, { overwrite: true });
          // What the console doubts is said, never a refusal (as for transformations).
          const doubts = (warnings ?? []).map((w) => w.message).join('; ');
          items.push({ ...base(artifact), outcome: replaced ? 'replaced' : 'imported', ...(doubts ? { message: doubts } : {}) });
        } else if (artifact.kind === 'transformation' && (typeof data._id !== 'string' || !data._id)) {
          items.push({ ...base(artifact), outcome: 'refused', message: 'a transformation needs its _id (workflows name it by tr_id)' });
        } else if (artifact.kind === 'transformation' && deps.transformations) {
          const existed = await deps.transformations.has(data._id as string);
          const outcome = await deps.transformations.importTransformations([data], { overwrite: true });
          if (outcome.problems.length) items.push({ ...base(artifact), outcome: 'refused', message: outcome.problems.map((p) => p.message).join('; ') });
          else items.push({ ...base(artifact), outcome: existed ? 'replaced' : 'imported', ...(outcome.warnings.length ? { message: outcome.warnings.join('; ') } : {}) });
        } else if (artifact.kind === 'automation' && deps.automations) {
          // Stored as the service keeps them: the automation, and each of its triggers as a document naming it.
          const { replaced, warnings } = await deps.automations.importOne(data);
          items.push({ ...base(artifact), outcome: replaced ? 'replaced' : 'imported', ...(warnings.length ? { message: warnings.join('; ') } : {}) });
        } else if (artifact.kind !== 'transformation' && (typeof data.name !== 'string' || !data.name)) {
          items.push({ ...base(artifact), outcome: 'refused', message: 'it has no name' });
        } else {
          const replaced = await saveDocument(deps.store(), artifact.kind, data);
          items.push({ ...base(artifact), outcome: replaced ? 'replaced' : 'imported' });
        }
      } catch (error) {
        // A refused workflow (400 with problems) is part of the summary; anything else stops the import.
        if (!(error instanceof ConsoleError) || error.code !== 'bad_input') throw error;
        items.push({ ...base(artifact), outcome: 'refused', message: error.message, problems: error.details.problems as ImportItem['problems'] });
      }
    }
    done++;
  }
  onProgress(done, ordered.length, '');
  // A project export: the project itself is kept too, as Automation Studio keeps it.
  if (bundle.project) await keepProject(deps.store(), bundle.project, bundle.artifacts);

  const needs: ImportSummary['needs'] = [];
  for (const item of items) {
    if (item.collection !== COLLECTION_OF.workflow || (item.outcome !== 'imported' && item.outcome !== 'replaced')) continue;
    const missing = await deps.workflows.needs(item.name);
    if (missing?.length) needs.push({ workflow: item.name, needs: missing });
  }
  const count = (outcome: ImportItem['outcome']) => items.filter((i) => i.outcome === outcome).length;
  return {
    name: bundle.name,
    format: bundle.format,
    ...(bundle.projectId ? { projectId: bundle.projectId } : {}),
    items,
    counts: { imported: count('imported'), replaced: count('replaced'), refused: count('refused'), skipped: count('skipped') },
    referencesResolved,
    needs,
  };
}
