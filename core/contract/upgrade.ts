// Operations of the upgrade check: what a site must change before it moves to release 2022.1,
// found in a folder of its custom applications, adapters, service configs and workflows.
import { z } from 'zod';
import { RecordId } from './ids';
import { defineOperations } from './operation';

/** The rules of the check, in the order the report lists them. */
export const UPGRADE_RULES = {
  'activate-setting': {
    title: 'Legacy activate setting',
    section: '1.2 rule 5; 9.2',
  },
  'api-call': {
    title: 'Calls to deprecated or removed APIs',
    section: '9 rule 3; 9.1',
  },
  'npm-run-index': {
    title: 'npm run index (removed indexing script)',
    section: '4 rule 4; 9.1',
  },
  'ui-lib-src-js': {
    title: 'References to removed UI library JavaScript files',
    section: '1.3',
  },
  'codepointat-error': {
    title: 'codePointAt tasks without an error transition',
    section: '4.1',
  },
  'child-job-undefined': {
    title: 'Child-job variables that can be undefined',
    section: '1.1',
  },
} as const;
export type UpgradeRule = keyof typeof UPGRADE_RULES;
export const UpgradeRuleId = z.enum(Object.keys(UPGRADE_RULES) as [UpgradeRule, ...UpgradeRule[]]);

export const UpgradeFinding = z.object({
  rule: UpgradeRuleId,
  /** Path relative to the scanned folder, with `/` separators. */
  file: z.string(),
  line: z.number(),
  message: z.string(),
  fix: z.string(),
  /** The release-notes section that says why. */
  section: z.string(),
  /** True when the site must change this before it upgrades; false for a warning. */
  blocking: z.boolean(),
  /** `activate` findings: what the profiles' migration needs to carry the setting over. */
  migration: z
    .object({
      place: z.string(),
      releases: z.string(),
      jsonPath: z.string(),
      value: z.boolean(),
      /** The service config (or properties file) holding the setting; absent when too large to carry. */
      config: z.unknown().optional(),
    })
    .optional(),
});
export type UpgradeFinding = z.infer<typeof UpgradeFinding>;

export const UpgradeSummary = z.object({
  root: z.string(),
  release: z.string(),
  filesScanned: z.number(),
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
  findings: z.number(),
  blocking: z.number(),
  warnings: z.number(),
  byRule: z.record(z.string(), z.number()),
  /** True when at least one finding blocks the upgrade. */
  blocked: z.boolean(),
});
export type UpgradeSummary = z.infer<typeof UpgradeSummary>;

export const UpgradeReport = z.object({ findings: z.array(UpgradeFinding), summary: UpgradeSummary });
export type UpgradeReport = z.infer<typeof UpgradeReport>;

/** A check run in the background, read while it runs to show its progress. */
export const UpgradeRun = z.object({
  id: z.string(),
  path: z.string(),
  state: z.enum(['running', 'done', 'failed', 'canceled']),
  /** `listing`: finding the files to read (`done` counts them); `reading`: `done` of `total` read. */
  phase: z.enum(['listing', 'reading', 'finished']),
  done: z.number(),
  total: z.number(),
  /** The file read last. */
  file: z.string().optional(),
  report: UpgradeReport.optional(),
  error: z.string().optional(),
  /** The budget of the run: most files read, most seconds spent; what is left is listed as skipped. */
  limits: z.object({ maxFiles: z.number(), maxSeconds: z.number() }).optional(),
});
export type UpgradeRun = z.infer<typeof UpgradeRun>;

const UpgradePathBody = z.object({
  path: z.string({ error: 'must be a string' }).min(1, { message: 'must name a folder' }),
  /** Most files to read (at most 50,000). */
  maxFiles: z.number({ error: 'must be a number' }).int().min(1).max(50_000).optional(),
  /** Time budget in seconds (at most an hour; 120 unless given). */
  maxSeconds: z.number({ error: 'must be a number' }).min(1).max(3600).optional(),
});
const RunParams = z.object({ id: RecordId });

export const upgradeOperations = defineOperations({
  'upgrade.check': {
    method: 'POST',
    path: '/upgrade/check',
    summary:
      'Check a folder on the server (custom applications, adapters, service configs, workflows) for what must change before release 2022.1; answers the report when the check ends within a few seconds, else 202 with the run to follow (upgrade.run)',
    body: UpgradePathBody,
    output: z.union([UpgradeReport, UpgradeRun]),
  },
  'upgrade.start': {
    method: 'POST',
    path: '/upgrade/checks',
    summary: 'Start the upgrade check of a folder on the server in the background; read its progress and report with upgrade.run',
    body: UpgradePathBody,
    output: UpgradeRun,
  },
  'upgrade.run': {
    method: 'GET',
    path: '/upgrade/checks/:id',
    summary: 'Progress of an upgrade check started with upgrade.start, and its report once done',
    params: RunParams,
    output: UpgradeRun,
  },
  'upgrade.cancel': {
    method: 'POST',
    path: '/upgrade/checks/:id/cancel',
    summary: 'Cancel a running upgrade check; a check already ended is answered as it is',
    params: RunParams,
    output: UpgradeRun,
  },
});
