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

export const releaseOperations = defineOperations({
  'release.table': {
    method: 'GET',
    path: '/release',
    summary: 'The running release, the deprecation/removal table with each item at the running release, and the policy findings',
    output: ReleaseTable,
  },
});
