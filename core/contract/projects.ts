// Projects and pre-built bundles: import a pre-built folder (artifact.json /
// manifest.json with bundles/) or a project export (*.project.json) in one step.
// Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';
import { SafeId } from './ids';
import { ListFilters, SortOrder, StudioPage } from './list-query';
import { MissingPart, WorkflowProblem } from './workflows';

export { MissingPart };

export const ImportItem = z.object({
  /** The type as the bundle wrote it (`workflow`, `json-forms`, `mopCommandTemplate`, ...). */
  type: z.string(),
  name: z.string(),
  /** The collection it was stored in (service names: workflows, transformations, json_forms, ...). */
  collection: z.string().optional(),
  /** Where it came from: a file of the folder, or a component of the project. */
  source: z.string(),
  outcome: z.enum(['imported', 'replaced', 'refused', 'skipped']),
  message: z.string().optional(),
  problems: z.array(WorkflowProblem).optional(),
});
export type ImportItem = z.infer<typeof ImportItem>;

export const ImportSummary = z.object({
  name: z.string(),
  format: z.enum(['prebuilt', 'project']),
  projectId: z.string().optional(),
  items: z.array(ImportItem),
  counts: z.object({ imported: z.number(), replaced: z.number(), refused: z.number(), skipped: z.number() }),
  /** `@<projectId>: Name` references rewritten to the names stored. */
  referencesResolved: z.number(),
  /** The imported workflows that need parts the profile lacks (child workflows' needs included). */
  needs: z.array(z.object({ workflow: z.string(), needs: z.array(MissingPart) })),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

/** An import run in the background, read while it runs to show its progress. */
export const ImportRun = z.object({
  id: z.string(),
  /** What is imported: the folder or file named, or `n files uploaded`. */
  source: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  done: z.number(),
  total: z.number(),
  /** The artifact being imported. */
  current: z.string().optional(),
  summary: ImportSummary.optional(),
  error: z.string().optional(),
});
export type ImportRun = z.infer<typeof ImportRun>;

export const UploadedFile = z.object({
  path: z.string().min(1, 'each file needs its path in the folder'),
  content: z.unknown(),
});

export const projectsOperations = defineOperations({
  'projects.import': {
    method: 'POST',
    path: '/projects/imports',
    summary:
      'Import a pre-built folder (artifact.json / manifest.json with bundles/) or a project export (*.project.json), sent as its JSON files; runs in the background (202), read it with projects.importRun',
    body: z.object({ files: z.array(UploadedFile).min(1, 'send at least one JSON file of the folder') }),
    output: ImportRun,
  },
  'projects.importPath': {
    method: 'POST',
    path: '/projects/imports/path',
    summary: "Import a pre-built folder or a *.project.json file on the console's machine, named by an absolute path (for scripts); 202, read it with projects.importRun",
    body: z.object({ path: z.string({ error: 'must be a string' }).min(1, { message: 'must name a folder or a file' }) }),
    output: ImportRun,
  },
  'projects.importExample': {
    method: 'POST',
    path: '/projects/imports/example',
    summary:
      "Import the example pre-built shipped with the console (Instance Check - Example: four workflows, their transformations, a JSON form, templates, automations), for a first run; 202, read it with projects.importRun",
    output: ImportRun,
  },
  'projects.studioList': {
    method: 'GET',
    path: '/automation-studio/projects',
    summary:
      "Automation Studio's projects, as the service lists them (`{ message, data, metadata: { skip, limit, total } }`): the projects of the project exports imported, each with its components naming their documents; the service's list filters (on name unless a field is named), sort and order, include or exclude, skip and limit (25 unless given, 0 for all)",
    query: z.looseObject({ ...StudioPage, sort: z.string().optional(), order: SortOrder.optional(), ...ListFilters }),
    output: z.object({ message: z.string(), data: z.array(z.looseObject({ _id: z.string() })), metadata: z.object({ skip: z.number(), limit: z.number(), total: z.number() }) }),
  },
  'projects.studioImport': {
    method: 'POST',
    path: '/automation-studio/projects/import',
    summary:
      "Import a project export now, as the service's Automation Studio does (`{ project }`): its components into their collections and the project kept; answers `{ message, data: <the project kept>, metadata: { failedComponents } }`, the components refused or left out with why",
    body: z.object({ project: z.looseObject({}) }, { error: 'send { "project": <the project export> }' }),
    output: z.object({ message: z.string(), data: z.looseObject({ _id: z.string() }), metadata: z.object({ failedComponents: z.array(ImportItem) }) }),
  },
  'projects.studioGet': {
    method: 'GET',
    path: '/automation-studio/projects/:id',
    summary: 'One project by its _id or its iid, its components naming their documents (404 naming it when none)',
    params: z.object({ id: SafeId }),
    output: z.object({ message: z.string(), data: z.looseObject({ _id: z.string() }) }),
  },
  'projects.studioExport': {
    method: 'GET',
    path: '/automation-studio/projects/:id/export',
    summary: "A project as the service exports it: each component with its `document` as it is now (the form a project export has, so it imports again); the message names any component whose document is no longer stored",
    params: z.object({ id: SafeId }),
    output: z.object({ message: z.string(), data: z.looseObject({ _id: z.string(), components: z.array(z.unknown()) }) }),
  },
  'projects.importRun': {
    method: 'GET',
    path: '/projects/imports/:id',
    summary: 'Progress of an import, and its summary (imported, replaced, refused, skipped, what is missing) once done',
    params: z.object({ id: SafeId }),
    output: ImportRun,
  },
});
