// Operations of the release model: the running release, the deprecation/removal table of the
// release notes (section 9.1) with each item's lifecycle, and the deprecation policy findings.
import { z } from 'zod';
import { defineOperations } from './operation';

export const ReplacementSchema = z.object({ text: z.string(), method: z.string().optional(), path: z.string().optional() });

export const ReleaseRowSchema = z.object({
  id: z.string(),
  item: z.string(),
  kind: z.enum(['property', 'api', 'command']),
  description: z.string(),
  deprecated: z.string().optional(),
  removal: z.string(),
  removalNote: z.string().optional(),
  method: z.string().optional(),
  path: z.string().optional(),
  command: z.string().optional(),
  sections: z.array(z.string()),
  replacements: z.array(ReplacementSchema),
  lifecycle: z.object({
    state: z.enum(['active', 'deprecated', 'removed']),
    deprecated: z.string().optional(),
    removal: z.string().optional(),
    replacements: z.array(ReplacementSchema),
  }),
});

export const PolicyFindingSchema = z.object({
  rowId: z.string(),
  item: z.string(),
  problem: z.string(),
  message: z.string(),
});

export const ReleaseTable = z.object({
  running: z.string(),
  policy: z.string(),
  rows: z.array(ReleaseRowSchema),
  findings: z.array(PolicyFindingSchema),
});
export type ReleaseTable = z.infer<typeof ReleaseTable>;

export const ApiLifecycle = z.object({
  method: z.string(),
  path: z.string(),
  release: z.string(),
  /** The table row the API is; absent for an API the table does not list (it is active). */
  item: z.string().optional(),
  state: z.enum(['active', 'deprecated', 'removed']),
  deprecated: z.string().optional(),
  removal: z.string().optional(),
  removalNote: z.string().optional(),
  replacements: z.array(ReplacementSchema),
  message: z.string(),
});
export type ApiLifecycle = z.infer<typeof ApiLifecycle>;

export const releaseOperations = defineOperations({
  'release.table': {
    method: 'GET',
    path: '/release',
    summary: 'The running release, the deprecation/removal table with each item at the running release, and the policy findings',
    output: ReleaseTable,
  },
  'release.lifecycle': {
    method: 'GET',
    path: '/release/lifecycle',
    summary: 'Where an API stands at a release (the running release by default): active, deprecated with its removal release, or removed, with its replacements',
    query: z.object({
      method: z.string().default('GET'),
      path: z.string({ error: 'must be the API path, e.g. /admin/services/health' }).min(1, { message: 'must be the API path, e.g. /admin/services/health' }),
      release: z.string().optional(),
    }),
    output: ApiLifecycle,
  },
});
