// The drills capability: runs lab and sites drills in the background (one at a time on a
// console), keeps each report in the store (`drill_reports`: the history) as it changes, and
// exports reports.
import { ConsoleError } from '../errors';
import type { Handlers } from '../dispatch/dispatch';
import type { Logger } from 'pino';
import type { Store } from '../store/port';
import { runLabDrill } from './run';
import { runSitesDrill } from './sites';
import { reportHtml, reportJson } from './report';
import type { DrillReport, LabDrillOptions, SiteAddress, SitesDrillOptions } from './types';
import { randomUUID } from 'node:crypto';
import { Site } from './site';
import { siteSource, unknownWorkflows, type WorkflowSource } from './own-workflows';

/** What a drill's load runs (the operation's `load`). */
type Load = 'ledger' | 'workflows';

export interface DrillsDeps {
  store(): Store;
  /** Where a report that cannot be saved is logged (the drill goes on; its live report is still answered). */
  log: Pick<Logger, 'warn'>;
  /** Runs one lab drill (the lab runner unless given: tests replace it). */
  run?: typeof runLabDrill;
  /** Runs one sites drill (the sites runner unless given). */
  runSites?: typeof runSitesDrill;
  /** This console's own API (URL and token), for a site given as { local: true }; undefined until it listens. */
  localSite?: () => SiteAddress | undefined;
}

/** A site as the operation takes it. */
export type SiteChoice = { local?: boolean; url?: string; token?: string };

export function createDrillsService(deps: DrillsDeps) {
  const run = deps.run ?? runLabDrill;
  const runSites = deps.runSites ?? runSitesDrill;
  const live = new Map<string, DrillReport>();
  /** A report as kept: under its id. */
  const collection = () => deps.store().collection<DrillReport & { _id: string }>('drill_reports');

  async function save(report: DrillReport) {
    const result = await collection().updateOne({ _id: report.id }, { $set: { ...report } });
    if (!result.matched) await collection().insertOne({ ...report, _id: report.id });
  }

  /** Starts a drill and answers with its first report; the rest runs in the background. */
  function start(runner: (id: string, onChange: (report: DrillReport) => void) => Promise<DrillReport>): Promise<DrillReport> {
    const running = [...live.values()].find((r) => r.status === 'running');
    if (running) throw new ConsoleError('conflict', `drill ${running.id} is running on this console: wait for it to end (GET /drills/${running.id})`);
    const id = randomUUID();
    let first: DrillReport | undefined;
    let saving = Promise.resolve();
    return new Promise<DrillReport>((resolve) => {
      void runner(id, (report) => {
        live.set(id, report);
        // Saves are chained so the last state written is the last one seen.
        saving = saving.then(() => save(report)).catch((error: Error) => deps.log.warn({ err: error, drill: id }, `drill ${id}: saving its report failed: ${error.message}`));
        if (!first) resolve((first = report));
      }).then(async (final) => {
        live.set(id, final);
        await saving;
        await save(final).catch((error: Error) => deps.log.warn({ err: error, drill: id }, `drill ${id}: saving its final report failed: ${error.message}`));
        live.delete(id);
      });
    });
  }

  function site(choice: SiteChoice, field: string): SiteAddress {
    if (!choice.local) {
      // The contract asks for both when the site is not this console.
      if (!choice.url || !choice.token) throw new ConsoleError('bad_input', `${field}: give the site's url and token, or local: true`);
      return { url: choice.url, token: choice.token };
    }
    const self = deps.localSite?.();
    if (!self) throw new ConsoleError('conflict', `${field}: this console does not know its own API address yet; give its URL and token instead`);
    return self;
  }

  /**
   * With load "workflows", where the chosen workflows are read from: this console's profile, each
   * name checked there (400 naming body.workflows); undefined for the ledger workflow.
   */
  async function workflowSource(load: Load, names: string[]): Promise<WorkflowSource | undefined> {
    if (load === 'ledger') return undefined;
    if (!names.length) throw new ConsoleError('bad_input', 'body.workflows: name the workflows of this console\'s profile the load runs (load: "workflows")');
    const source = siteSource(new Site({ name: 'this console', ...site({ local: true }, 'body.workflows') }));
    const unknown = await unknownWorkflows(source, names);
    if (unknown.length) throw new ConsoleError('bad_input', `body.workflows: the active profile has no workflow named ${unknown.map((n) => `"${n}"`).join(', ')}`);
    return source;
  }

  return {
    async startLab(options: Omit<LabDrillOptions, 'id' | 'source'> & { load?: Load }): Promise<DrillReport> {
      const { load, ...rest } = options;
      // A lab is made for the drill: naming workflows runs them there unless the load says ledger.
      const source = await workflowSource(load ?? (rest.workflows?.length ? 'workflows' : 'ledger'), rest.workflows ?? []);
      return start((id, onChange) => run({ ...rest, source, id }, onChange));
    },

    /** A drill between two sites, each this console or one by URL and token. */
    async startSites(options: Omit<SitesDrillOptions, 'id' | 'active' | 'standby' | 'source'> & { active: SiteChoice; standby: SiteChoice; load?: Load }): Promise<DrillReport> {
      const { load, ...rest } = options;
      const active = site(options.active, 'body.active');
      const standby = site(options.standby, 'body.standby');
      if (active.url === standby.url) throw new ConsoleError('bad_input', `body.standby: the standby is the same console as the active site (${active.url}): give two sites`);
      // Real sites: their critical workflows are only checked unless the load names them (load: "workflows").
      const source = await workflowSource(load ?? 'ledger', rest.workflows ?? []);
      return start((id, onChange) => runSites({ ...rest, active, standby, source, id }, onChange));
    },

    async get(id: string): Promise<DrillReport> {
      const current = live.get(id);
      if (current) return current;
      const doc = await collection().findOne({ _id: id });
      if (!doc) throw new ConsoleError('not_found', `no drill "${id}" in the drill history`);
      const { _id, ...report } = doc;
      return report;
    },

    async list() {
      const docs: DrillReport[] = await collection().find({}, { sort: { startedAt: -1 }, limit: 200 });
      const byId = new Map(docs.map((d) => [d.id, d]));
      for (const report of live.values()) byId.set(report.id, report);
      const results = [...byId.values()]
        .sort((a, b) => b.startedAt - a.startedAt)
        .map(({ id, kind, status, passed, failure, startedAt, endedAt, jobs, rtoMs, drainMs, error }) => ({ id, kind: kind ?? 'lab', status, passed, failure, startedAt, endedAt, jobs, rtoMs, drainMs, error }));
      return { results, total: results.length };
    },
  };
}

export type DrillsService = ReturnType<typeof createDrillsService>;

export function drillsHandlers(service: DrillsService): Pick<Handlers, 'drills.startLab' | 'drills.startSites' | 'drills.list' | 'drills.get' | 'drills.export'> {
  return {
    'drills.startLab': ({ body }, ctx) => {
      ctx.setStatus(202);
      return service.startLab(body);
    },
    'drills.startSites': ({ body }, ctx) => {
      ctx.setStatus(202);
      return service.startSites(body);
    },
    'drills.list': () => service.list(),
    'drills.get': ({ params }) => service.get(params.id),
    'drills.export': async ({ params, query }, ctx) => {
      const report = await service.get(params.id);
      const filename = `dr-drill-${report.id}.${query.format}`;
      ctx.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
      return query.format === 'json'
        ? { filename, contentType: 'application/json', content: reportJson(report) }
        : { filename, contentType: 'text/html', content: reportHtml(report) };
    },
  };
}
