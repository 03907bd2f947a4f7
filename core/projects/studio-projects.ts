// Automation Studio's projects, as the service keeps and answers them. A project export imported is
// kept in `projects`: its own fields as exported (unknown ones too), each component naming its document
// by `reference`, the `_id` the console stored that document under. GET /automation-studio/projects
// lists them, /:id reads one and /:id/export answers it with each component's document as it is now,
// the form a project export has, so an exported project imports again. A project is named by its `_id`
// or its `iid` (the vendor's MCP server describes a project by iid).
import { randomBytes } from 'node:crypto';
import { ConsoleError } from '../errors';
import { escapeKeys, replaceFields, unescapeKeys } from '../store/documents';
import type { Store } from '../store/port';
import { projectionOf, queryPage, type ListQueryOf } from '../values/list-query';
import { COLLECTION_OF, kindOf, type ArtifactKind } from './kinds';
import type { Artifact } from './read';

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
const PROJECTS = 'projects';

/** A project as kept: its `_id`, and whatever else its export carried. */
export type ProjectDoc = { _id: string; [field: string]: unknown };
const asProject = (doc: Obj & { _id?: unknown }): ProjectDoc => ({ ...unescapeKeys(doc), _id: String(doc._id) });

/** Where a document of a kind is found again: a transformation by its `_id`, the others by name (as the import keys them). */
async function storedId(store: Store, kind: ArtifactKind, artifact: Artifact): Promise<string | undefined> {
  const data = isObject(artifact.data) ? artifact.data : {};
  const key = kind === 'transformation' ? { _id: data._id } : { name: artifact.name };
  const found = await store.collection(COLLECTION_OF[kind]).findOne(key);
  return typeof found?._id === 'string' ? found._id : undefined;
}

/**
 * Keeps an imported project (`project`: its document, components without documents, in the order of
 * `artifacts`), each component's `reference` set to the `_id` its document was stored under; replaces a
 * project of the same `_id`. A project with no `_id` gets one, and one with no `iid` the next number.
 */
export async function keepProject(store: Store, project: Obj, artifacts: Artifact[]): Promise<void> {
  const components = Array.isArray(project.components) ? project.components : [];
  const linked = await Promise.all(
    components.map(async (component, index) => {
      const artifact = artifacts[index];
      const kind = artifact?.kind;
      const id = kind && artifact && !artifact.skip ? await storedId(store, kind, artifact) : undefined;
      return isObject(component) && id ? { ...component, reference: id } : component;
    }),
  );
  const collection = store.collection(PROJECTS);
  const id = typeof project._id === 'string' && project._id ? project._id : randomBytes(12).toString('hex');
  const existing = await collection.findOne({ _id: id });
  const iid = typeof project.iid === 'number' ? project.iid : typeof existing?.iid === 'number' ? existing.iid : (await collection.count({})) + 1;
  const { _id: _given, ...body } = project;
  const doc = escapeKeys({ ...body, iid, components: linked });
  if (existing) await replaceFields(collection, existing, doc);
  else await collection.insertOne({ _id: id, ...doc });
}

/** A project by its `_id`, or by its `iid` when the id is a number (404 naming it otherwise). */
export async function findProject(store: Store, id: string): Promise<ProjectDoc> {
  const collection = store.collection(PROJECTS);
  const found = (await collection.findOne({ _id: id })) ?? (/^\d+$/.test(id) ? await collection.findOne({ iid: Number(id) }) : null);
  if (!found) throw new ConsoleError('not_found', `no project has the _id or iid "${id}" (projects are kept when a project export is imported)`);
  return asProject(found);
}

/** The projects, as the service's list query asks (by name unless a field is named). */
export async function listProjects(store: Store, query: ListQueryOf): Promise<{ items: ProjectDoc[]; total: number }> {
  const all = (await store.collection(PROJECTS).find({})).map(asProject);
  const page = queryPage(all, query);
  const project = projectionOf(query);
  // The projection keeps `_id` unless told to leave it out; a project is answered with it either way.
  return { items: page.items.map((doc) => ({ ...project(doc), _id: doc._id })), total: page.total };
}

/** The project with each component's document as it is now, and the components whose document is no longer stored. */
export async function exportProject(store: Store, id: string): Promise<{ project: ProjectDoc & { components: unknown[] }; missing: string[] }> {
  const project = await findProject(store, id);
  const components = Array.isArray(project.components) ? project.components : [];
  const missing: string[] = [];
  const withDocuments = await Promise.all(
    components.map(async (component) => {
      if (!isObject(component)) return component;
      const kind = kindOf(component.type);
      const found = kind && typeof component.reference === 'string' ? await store.collection(COLLECTION_OF[kind]).findOne({ _id: component.reference }) : null;
      if (!found) missing.push(`${String(component.type)} ${String(component.reference)}`);
      return found ? { ...component, document: unescapeKeys(found) } : component;
    }),
  );
  return { project: { ...project, components: withDocuments }, missing };
}
