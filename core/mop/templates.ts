// MOP's command templates: the `mop_templates` a pre-built or project brought (the MOP tasks run them),
// listed, read, created and updated as the service's MOP application answers its clients. They stop
// with the MOP application, as its tasks do.
import type { Handlers } from '../dispatch/dispatch';
import { ConsoleError } from '../errors';
import { escapeKeys, insertNamed, refuseTakenName, replaceFields, unescapeKeys } from '../store/documents';
import type { Collection } from '../store/port';

export const MOP_TEMPLATES = 'mop_templates';

export interface MopTemplatesDeps {
  /** The active profile's `mop_templates`. */
  templates: () => Collection;
  /** Throws (503) while the MOP application is stopped. */
  guard?: (what: string) => void;
  /** Who makes or changes a template (the console's operator). */
  operator: () => string;
}

const taken = (name: string) => new ConsoleError('conflict', `a command template named "${name}" exists already`, { name });

type Template = { name: string; [field: string]: unknown };
const asTemplate = (doc: Record<string, unknown>): Template => ({ ...unescapeKeys(doc), name: String(doc.name) });

export function mopTemplatesHandlers(deps: MopTemplatesDeps): Pick<Handlers, 'mop.listTemplates' | 'mop.listATemplate' | 'mop.createTemplate' | 'mop.updateTemplate'> {
  return {
    'mop.listTemplates': async () => {
      deps.guard?.('listing command templates');
      return (await deps.templates().find({}, { sort: { name: 1 } })).map(asTemplate);
    },
    'mop.listATemplate': async ({ params }) => {
      deps.guard?.('reading a command template');
      const found = await deps.templates().findOne({ name: params.name });
      return found ? [asTemplate(found)] : [];
    },
    'mop.createTemplate': async ({ body }) => {
      deps.guard?.('creating a command template');
      const { _id: _given, ...template } = body.mop;
      const name = template.name.trim();
      const now = Date.now();
      await insertNamed(deps.templates(), { ...escapeKeys(template), name, created: now, createdBy: deps.operator(), lastUpdated: now, lastUpdatedBy: deps.operator() }, () => taken(name));
      return { n: 1, ok: 1, nModified: 0 };
    },
    'mop.updateTemplate': async ({ params, body }) => {
      deps.guard?.('updating a command template');
      const existing = (await deps.templates().findOne({ name: params.mopID })) ?? (await deps.templates().findOne({ _id: params.mopID }));
      if (!existing) return { n: 0, ok: 1, nModified: 0 };
      const { _id: _given, ...template } = body.mop;
      const name = template.name.trim();
      await refuseTakenName(deps.templates(), existing, name, () => taken(name));
      const created = { created: existing.created, createdBy: existing.createdBy };
      await replaceFields(deps.templates(), existing, { ...escapeKeys(template), name, ...created, lastUpdated: Date.now(), lastUpdatedBy: deps.operator() });
      return { n: 1, ok: 1, nModified: 1 };
    },
  };
}
