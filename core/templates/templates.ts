// Automation Studio's templates: the Template Builder documents (Jinja2, TextFSM) a pre-built or a
// project export brought, kept in the service's `templates` collection. The console renders none of
// them; it keeps them so a project exports them again and the service's clients can list and read them.
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { unescapeKeys } from '../store/documents';
import type { Store } from '../store/port';
import { projectionOf, queryPage } from '../values/list-query';

export interface TemplatesDeps {
  /** The active profile's store. */
  store(): Store;
}

const TEMPLATES = 'templates';

type Template = { _id: string; [field: string]: unknown };
const asTemplate = (doc: Record<string, unknown>): Template => ({ ...unescapeKeys(doc), _id: String(doc._id) });

export function templatesHandlers(deps: TemplatesDeps): Pick<Handlers, 'templates.search' | 'templates.get'> {
  return {
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
