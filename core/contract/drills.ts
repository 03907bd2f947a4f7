// Disaster-recovery drills: start a lab drill (two headless consoles on this machine on one
// database) or a drill between two sites given by URL and token (or this console), follow its
// timeline, list the drill history, read and export a report.
// Browser-safe: zod only.
import { z } from 'zod';
import { RecordId } from './ids';
import { defineOperations } from './operation';

const Step = z.object({ name: z.string(), startedAt: z.number(), endedAt: z.number().nullable(), ok: z.boolean(), detail: z.string().optional(), error: z.string().optional() });
const ReadinessItem = z.object({ id: z.string(), title: z.string(), state: z.enum(['pass', 'fail', 'warn', 'skipped']), detail: z.string(), fix: z.string().optional() });

export const DrillReport = z.object({
  id: z.string(),
  kind: z.enum(['lab', 'sites']),
  failure: z.enum(['kill', 'stop', 'gone']),
  failback: z.boolean(),
  persistProcessTasksOnStart: z.boolean().optional(),
  workflows: z.array(z.string()).optional(),
  load: z.enum(['ledger', 'workflows']).optional(),
  status: z.enum(['running', 'done', 'failed']),
  passed: z.boolean(),
  error: z.string().optional(),
  leftAs: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  database: z.string().optional(),
  jobs: z.number(),
  jobsCompleted: z.number(),
  tasksLost: z.number(),
  taskRecordsCompletedTwice: z.number(),
  sideEffects: z.number(),
  sideEffectsRepeated: z.number(),
  simulatedCalls: z.array(z.object({ instance: z.string(), method: z.string(), calls: z.number() })).optional(),
  rtoMs: z.number().nullable(),
  drainMs: z.number().nullable(),
  leaseMs: z.number(),
  targets: z.object({ rtoMs: z.number(), drainMs: z.number() }),
  readiness: z.array(ReadinessItem),
  sites: z.array(z.object({ name: z.string(), url: z.string(), serverId: z.string(), serverName: z.string(), store: z.string(), properties: z.record(z.string(), z.unknown()), changes: z.array(z.string()).optional() })),
  steps: z.array(Step),
});
export type DrillReport = z.infer<typeof DrillReport>;

export const DrillSummary = DrillReport.pick({ id: true, kind: true, status: true, passed: true, failure: true, startedAt: true, endedAt: true, jobs: true, rtoMs: true, drainMs: true, error: true });

const DrillParams = z.object({ id: RecordId });
const Millis = z.number().int().positive().max(3_600_000);

const common = {
  /** The operator's critical workflows: each must be on the standby with what it needs (the drill's own workflow is always checked). With load "workflows" (a lab drill's default when any is named), the drill also runs them. */
  workflows: z.array(z.string().min(1, 'a workflow name is not empty')).max(200).default([]),
  /**
   * What the load runs. ledger: the drill's own three-task workflow, each task a side effect in its ledger.
   * workflows: the named `workflows` of this console's profile, round-robin, on simulated adapter instances:
   * copied (with their child workflows and transformations) to each site that lacks them, what they lack
   * simulated there (POST /adapters/simulate), side effects counted per simulated call from the task records.
   * A site where a task would reach a real adapter instance, or whose profile does not let jobs use simulated
   * instances, stops the drill before any change. Default: workflows for a lab drill that names any, else ledger.
   */
  load: z.enum(['ledger', 'workflows'], { error: 'must be ledger (the drill\'s own workflow) or workflows (the named workflows, on simulated adapter instances)' })
    .optional()
    .describe('what the load runs: ledger (the drill\'s own workflow) or workflows (the named workflows of this console\'s profile, on simulated adapter instances)'),
  /** Failover writes processTasksOnStart: true into the standby's active profile; failback restores both. */
  persistProcessTasksOnStart: z.boolean().default(false),
};

/** A drill of the operator's own workflows (load: workflows): per workflow name, its jobs' variables (a sample of its inputSchema unless given). */
const ownWorkflows = {
  variables: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
};

/** A site of a sites drill: this console ({ local: true }), or another by URL and API token. */
export const DrillSite = z
  .object({
    local: z.boolean().optional(),
    url: z
      .string()
      .regex(/^https?:\/\/[^\s/]+/, 'must be the http:// or https:// URL of the console (e.g. http://dr-site:4100)')
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    token: z.string().min(1, 'the API token of the console at the URL').optional(),
  })
  .strict()
  .superRefine((site, ctx) => {
    if (site.local === true) {
      if (site.url !== undefined || site.token !== undefined) ctx.addIssue({ code: 'custom', path: ['local'], message: 'a site is this console ({ "local": true }) or a URL and token, not both' });
      return;
    }
    if (site.url === undefined) ctx.addIssue({ code: 'custom', path: ['url'], message: 'the URL of the console (or { "local": true } for this console)' });
    if (site.token === undefined) ctx.addIssue({ code: 'custom', path: ['token'], message: 'the API token of the console at the URL' });
  });

export const StartLabDrill = z.object({
  jobs: z.number().int().min(1, 'a drill loads at least 1 job').max(5000, 'a lab drill loads at most 5000 jobs').default(200),
  /** A lab's active site fails by kill -9 of its process or a graceful stop of its worker and applications. */
  failure: z.enum(['kill', 'stop'], { error: "must be kill (kill -9 of the active site's process) or stop (its task worker and applications stopped)" }).default('kill'),
  failback: z.boolean().default(false),
  /** A misconfigured standby (processTasksOnStart true), to rehearse the readiness check catching it. */
  standbyProcessTasksOnStart: z.boolean().default(false),
  targets: z.object({ rtoMs: Millis.optional(), drainMs: Millis.optional() }).optional(),
  ...common,
  ...ownWorkflows,
  /** Both lab sites on this MongoDB instead of one embedded database file. */
  mongoUrl: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// or mongodb+srv:// URL').optional(),
});

export const StartSitesDrill = z.object({
  active: DrillSite,
  standby: DrillSite,
  jobs: z.number().int().min(1, 'a drill loads at least 1 job').max(5000, 'a drill loads at most 5000 jobs').default(50),
  /** The active site is stopped over its API, or gone: the operator cuts it off and the drill calls it no more. */
  failure: z.enum(['stop', 'gone'], { error: 'must be stop (its task worker and applications stopped over its API) or gone (no call to it after the failure: you cut it off)' }).default('stop'),
  failback: z.boolean().default(false),
  targets: z.object({ rtoMs: Millis.optional(), drainMs: Millis.optional() }).optional(),
  ...common,
  ...ownWorkflows,
  /** The address both sites reach this console's drill ledger at (127.0.0.1 unless given: sites on this machine). */
  ledgerHost: z.string().regex(/^[\w.:-]+$/, 'must be a host name or IP address').optional(),
  /** After "gone", how long failback waits for the active site to answer again. */
  failbackWaitMs: Millis.optional(),
});

export const drillsOperations = defineOperations({
  'drills.startLab': {
    method: 'POST',
    path: '/drills/lab',
    summary: 'Start a lab drill: two headless consoles on this machine on one database, a load, the failure of the active site, failover on the standby, verification; answers at once with the running report',
    body: StartLabDrill,
    output: DrillReport,
  },
  'drills.startSites': {
    method: 'POST',
    path: '/drills/sites',
    summary:
      'Start a drill between two sites on one database, each this console ({ local: true }) or a console by URL and token: readiness, a load, the failure of the active site (stop, or gone), failover on the standby, verification, optional failback; answers at once with the running report',
    body: StartSitesDrill,
    output: DrillReport,
  },
  'drills.list': {
    method: 'GET',
    path: '/drills',
    summary: 'The drill history, newest first',
    output: z.object({ results: z.array(DrillSummary), total: z.number() }),
  },
  'drills.get': {
    method: 'GET',
    path: '/drills/:id',
    summary: 'One drill: its live timeline while it runs, its report once it ended',
    params: DrillParams,
    output: DrillReport,
  },
  'drills.export': {
    method: 'GET',
    path: '/drills/:id/export',
    summary: 'A drill report as a self-contained HTML file or JSON',
    params: DrillParams,
    query: z.object({ format: z.enum(['html', 'json']).default('html') }),
    output: z.object({ filename: z.string(), contentType: z.string(), content: z.string() }),
  },
});
