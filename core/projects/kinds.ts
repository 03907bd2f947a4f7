// The kinds of artifact a pre-built bundle or a project carries, each stored in the
// service's collection of that name. The names differ between a pre-built's manifest
// (`json-forms`, `mop-template`) and a project's components (`jsonForm`,
// `mopCommandTemplate`); both lead to the same kind.

export type ArtifactKind = 'workflow' | 'transformation' | 'json_form' | 'template' | 'mop_template' | 'mop_analytic_template' | 'automation';

export const COLLECTION_OF: Record<ArtifactKind, string> = {
  workflow: 'workflows',
  transformation: 'transformations',
  json_form: 'json_forms',
  template: 'templates',
  mop_template: 'mop_templates',
  mop_analytic_template: 'mop_analytic_templates',
  automation: 'automations',
};

/** Parts first, so the workflows that use them find them; automations (which start workflows) last. */
export const IMPORT_ORDER: ArtifactKind[] = ['transformation', 'json_form', 'template', 'mop_template', 'mop_analytic_template', 'workflow', 'automation'];

const ALIASES: Record<string, ArtifactKind> = {
  workflow: 'workflow',
  workflows: 'workflow',
  transformation: 'transformation',
  transformations: 'transformation',
  jst: 'transformation',
  'json-forms': 'json_form',
  'json-form': 'json_form',
  json_forms: 'json_form',
  jsonform: 'json_form',
  jsonforms: 'json_form',
  template: 'template',
  templates: 'template',
  'mop-template': 'mop_template',
  mop_templates: 'mop_template',
  mopcommandtemplate: 'mop_template',
  'mop-analytic-template': 'mop_analytic_template',
  mop_analytic_templates: 'mop_analytic_template',
  mopanalytictemplate: 'mop_analytic_template',
  automation: 'automation',
  automations: 'automation',
};

/** The kind of a manifest `type`, a project component `type` or a `bundles/<folder>` name; undefined when unknown. */
export function kindOf(type: unknown): ArtifactKind | undefined {
  return typeof type === 'string' ? ALIASES[type.toLowerCase()] ?? ALIASES[type] : undefined;
}
