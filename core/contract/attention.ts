// What needs an operator now: the Overview's dashboard and the status bar's colour,
// computed in one call. Browser-safe: zod only.
import { z } from 'zod';
import { defineOperations } from './operation';

/** ok: nothing to do; warn: look soon; bad: something is broken or blocked; unknown: could not be read. */
export const AttentionLevel = z.enum(['ok', 'warn', 'bad', 'unknown']);
export type AttentionLevel = z.infer<typeof AttentionLevel>;

export const AttentionEntry = z.object({
  label: z.string(),
  count: z.number().optional(),
  detail: z.string().optional(),
  /** A moment the entry is about (the oldest waiting task), ms since the epoch. */
  since: z.number().optional(),
  link: z.string(),
});
export type AttentionEntry = z.infer<typeof AttentionEntry>;

export const AttentionItem = z.object({
  id: z.enum(['jobs-error', 'operator-tasks', 'adapters', 'applications', 'indexes', 'deprecated-callers', 'worker-role', 'last-drill', 'workflows-blocked', 'store']),
  title: z.string(),
  level: AttentionLevel,
  /** How many things need the operator (0 when all is well). */
  count: z.number(),
  /** One line for the status bar and the card: what is wrong, or that all is well. */
  summary: z.string(),
  /** The console route (`#/...`) of the list filtered to these things. */
  link: z.string(),
  entries: z.array(AttentionEntry),
  /** Why the item could not be read (level unknown). */
  error: z.string().optional(),
});
export type AttentionItem = z.infer<typeof AttentionItem>;

export const Attention = z.object({
  /** The worst level of the items. */
  level: AttentionLevel,
  items: z.array(AttentionItem),
  checkedAt: z.number(),
});
export type Attention = z.infer<typeof Attention>;

export const attentionOperations = defineOperations({
  'console.attention': {
    method: 'GET',
    path: '/console/attention',
    summary:
      'What needs an operator: jobs in error by workflow, manual tasks waiting, adapters not ONLINE, applications not RUNNING, collections not indexed, deprecated API callers, the task worker against the profile role, the last DR drill, workflows that cannot run (they or a child workflow need a part the profile lacks), a store that takes no writes (with the newest backup to restore)',
    output: Attention,
  },
});
