// Automation Studio's templates (its Template Builder documents, kept in `templates` by an import), as
// the service answers them to its clients: the vendor's MCP server lists them (`get_templates`:
// `include=_id,name,group`, `sort=group`, `limit`, `skip`, `exclude-project-members`). Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { SafeId } from './ids';
import { ExcludeProjectMembers, ListFilters, SortOrder, StudioPage } from './list-query';

/** A template as sent: its name, and whatever else it carries (type, group, command, description, template, data). */
const TemplateBody = z.looseObject({ name: z.string({ error: 'a template needs a name' }).trim().min(1, 'a template needs a name') });
const StoredTemplate = z.looseObject({ _id: z.string(), name: z.string() });


export const templatesOperations = defineOperations({
  'templates.search': {
    method: 'GET',
    path: '/automation-studio/templates',
    summary:
      "The templates kept (Template Builder documents a pre-built or project brought), a page as the service answers it: `{ items, total, skip, limit, count }`, filtered by equals / contains / starts-with (on name unless a field is named), sorted (name unless named; order 1 or -1), `include` or `exclude` a comma-separated list of fields; limit 25 unless given (0 for all). The console keeps no project members, so `exclude-project-members` changes nothing",
    query: z.looseObject({ ...StudioPage, sort: z.string().optional(), order: SortOrder.optional(), 'exclude-project-members': ExcludeProjectMembers, ...ListFilters }),
    output: z.object({ items: z.array(z.record(z.string(), z.unknown())), total: z.number(), skip: z.number(), limit: z.number(), count: z.number() }),
  },
  'templates.create': {
    method: 'POST',
    path: '/automation-studio/templates',
    summary: "Create a template as the service's Automation Studio does (`{ template: { name, type, group, command, description, template, data } }`): `{ created, edit }`; 409 when a template has that name. The console keeps it (a project exports it) and renders none",
    body: z.object({ template: TemplateBody }, { error: 'send { "template": <the template> }' }),
    output: z.object({ created: StoredTemplate, edit: z.string() }),
  },
  'templates.update': {
    method: 'PUT',
    path: '/automation-studio/templates/:id',
    summary: 'Replace the template of this `_id` by `{ update: <template> }` (who made it and when kept): `{ updated, edit }`; 404 when none has the id, 409 when it is renamed to a name another template has',
    params: z.object({ id: SafeId }),
    body: z.object({ update: TemplateBody }, { error: 'send { "update": <the template> }' }),
    output: z.object({ updated: StoredTemplate, edit: z.string() }),
  },
  'templates.get': {
    method: 'GET',
    path: '/automation-studio/templates/:id',
    summary: 'One template by its _id, as stored (404 naming it when none)',
    params: z.object({ id: SafeId }),
    output: z.looseObject({ _id: z.string() }),
  },
});
