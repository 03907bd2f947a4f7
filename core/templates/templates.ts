// Automation Studio's templates: the Template Builder documents (Jinja2, TextFSM) a pre-built or a
// project export brought, kept in the service's `templates` collection, or made by the service's
// clients. The console renders none of them; it keeps them so a project exports them again and the
// service's clients can list, read, create and change them.
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { escapeKeys, insertNamed, refuseTakenName, replaceFields, unescapeKeys } from '../store/documents';
import type { Store } from '../store/port';
import { projectionOf, queryPage } from '../values/list-query';

export interface TemplatesDeps {
  /** The active profile's store. */
  store(): Store;
  /** Who makes or changes a template (the console's operator). */
  operator(): string;
}

const TEMPLATES = 'templates';

type Template = { _id: string; name: string; [field: string]: unknown };
const asTemplate = (doc: Record<string, unknown>): Template => ({ ...unescapeKeys(doc), _id: String(doc._id), name: String(doc.name) });

/** Where a template is read again: the console has no page for templates (it renders none), so its route. */
const edit = (id: string) => `/automation-studio/templates/${encodeURIComponent(id)}`;

export function templatesHandlers(deps: TemplatesDeps): Pick<Handlers, 'templates.search' | 'templates.get' | 'templates.create' | 'templates.update'> {
  const taken = (name: string) => new ConsoleError('conflict', `a template named "${name}" exists already`, { name });
  return {
    'templates.create': async ({ body }) => {
      const { _id: _given, ...template } = body.template;
      const name = template.name.trim();
      const now = new Date().toISOString();
      const doc = { ...escapeKeys(template), name, created: now, createdBy: deps.operator(), lastUpdated: now, lastUpdatedBy: deps.operator() };
      const id = await insertNamed(deps.store().collection(TEMPLATES), doc, () => taken(name));
      return { created: asTemplate({ ...doc, _id: id }), edit: edit(id) };
    },
    'templates.update': async ({ params, body }) => {
      const collection = deps.store().collection(TEMPLATES);
      const existing = await collection.findOne({ _id: params.id });
      if (!existing) throw new ConsoleError('not_found', `no template has the _id "${params.id}"`);
      const { _id: _given, created: _c, createdBy: _cb, ...template } = body.update;
      const name = template.name.trim();
      await refuseTakenName(collection, existing, name, () => taken(name));
      const doc = { ...escapeKeys(template), name, created: existing.created, createdBy: existing.createdBy, lastUpdated: new Date().toISOString(), lastUpdatedBy: deps.operator() };
      await replaceFields(collection, existing, doc);
      return { updated: asTemplate({ ...doc, _id: params.id }), edit: edit(params.id) };
    },
    'templates.search': async ({ query }) => {
      const all = (await deps.store().collection(TEMPLATES).find({})).map(asTemplate);
      const { items, total } = queryPage(all, query);
      const project = projectionOf(query);
      const page = items.map(project);
      return { items: page, total, skip: query.skip, limit: query.limit, count: page.length };
    },
    'templates.get': async ({ params }) => {
      const found = await deps.store().collection(TEMPLATES).findOne({ _id: params.id });
      if (!found) throw new ConsoleError('not_found', `no template has the _id "${params.id}" (templates are kept when a pre-built or project export that carries them is imported)`);
      return asTemplate(found);
    },
  };
}
