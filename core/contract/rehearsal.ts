// Operations of the upgrade rehearsal (issue 44): the console's workflows run twice, under the
// release a site upgrades from and under 2022.1, in a scratch store, and every workflow whose run
// changes is reported with the first task where it does.
import { z } from 'zod';
import { RecordId } from './ids';
import { defineOperations } from './operation';

/** The releases a rehearsal can start from (their semantics: core/release/semantics.ts). */
export const REHEARSAL_FROM = ['2021.1', '2021.2'] as const;

/**
 * One task of one run as the divergence shows it. Values are as the store holds them: undefined is
 * the service's marker "~4undefined" (null before 2021.1.10), so undefined and null are told apart.
 */
export const RehearsalTaskState = z.object({
  /** False when this run never reached the task. */
  reached: z.boolean(),
  status: z.string().optional(),
  finishState: z.string().optional(),
  /** The tasks this task's transitions started. */
  transition: z.array(z.string()).optional(),
  outgoing: z.unknown().optional(),
  error: z.string().optional(),
});
export type RehearsalTaskState = z.infer<typeof RehearsalTaskState>;

const JobOutcome = z.object({ status: z.string(), error: z.string().optional(), variables: z.unknown().optional() });

export const RehearsalDiffer = z.object({
  workflow: z.string(),
  firstDivergence: z.object({
    task: z.string(),
    /** What differs there: the status, the transition taken, the outgoing values. */
    differs: z.array(z.enum(['status', 'transition', 'outgoing'])),
    before: RehearsalTaskState,
    after: RehearsalTaskState,
  }),
  outcome: z.object({ before: JobOutcome, after: JobOutcome }),
});
export type RehearsalDiffer = z.infer<typeof RehearsalDiffer>;

export const RehearsalReport = z.object({
  from: z.enum(REHEARSAL_FROM),
  to: z.literal('2022.1'),
  workflows: z.number(),
  same: z.number(),
  differ: z.array(RehearsalDiffer),
  couldNotRun: z.array(z.object({ workflow: z.string(), why: z.string() })),
  /** Workflows whose inputs were built from their inputSchema (no variables given). */
  inputsBuilt: z.array(z.string()),
});
export type RehearsalReport = z.infer<typeof RehearsalReport>;

export const Rehearsal = z.object({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed', 'canceled']),
  done: z.number(),
  total: z.number(),
  /** The workflow being run. */
  workflow: z.string().optional(),
  report: RehearsalReport.optional(),
  error: z.string().optional(),
});
export type Rehearsal = z.infer<typeof Rehearsal>;

export const RehearseBody = z
  .object({
    workflows: z.array(z.string().min(1, { message: 'must name a workflow' })).min(1).optional(),
    all: z.boolean().optional(),
    from: z.enum(REHEARSAL_FROM, { error: 'must be "2021.1" or "2021.2"' }),
    /** Job variables per workflow name; a workflow without is given values built from its inputSchema. */
    variables: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  })
  .refine((b) => b.all === true || (b.workflows?.length ?? 0) > 0, { message: 'give { "workflows": [names] } or { "all": true }', path: ['workflows'] });
export type RehearseBody = z.infer<typeof RehearseBody>;

export const rehearsalOperations = defineOperations({
  'upgrade.rehearse': {
    method: 'POST',
    path: '/upgrade/rehearsals',
    summary:
      "Run the console's workflows (the named ones, or all) twice, under the release given as `from` and under 2022.1, in a scratch store on simulated adapter instances, and report every workflow whose run changes with its first divergence; answers the report when it ends within a few seconds, else 202 with the rehearsal to follow (upgrade.rehearsal)",
    body: RehearseBody,
    output: z.union([RehearsalReport, Rehearsal]),
  },
  'upgrade.rehearsal': {
    method: 'GET',
    path: '/upgrade/rehearsals/:id',
    summary: 'Progress of an upgrade rehearsal, and its report once done',
    params: z.object({ id: RecordId }),
    output: Rehearsal,
  },
  'upgrade.rehearsalCancel': {
    method: 'POST',
    path: '/upgrade/rehearsals/:id/cancel',
    summary: 'Cancel a running upgrade rehearsal (its scratch store is removed)',
    params: z.object({ id: RecordId }),
    output: Rehearsal,
  },
});
