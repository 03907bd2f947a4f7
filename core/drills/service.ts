// The drills capability: runs lab drills in the background (one at a time on a console), keeps
// each report in the store (`drill_reports`: the history) as it changes, and exports reports.
import { OpError, type Handlers } from '../dispatch/dispatch';
import type { Store } from '../store/port';
import { runLabDrill } from './run';
import { reportHtml, reportJson } from './report';
import type { DrillReport, LabDrillOptions } from './types';
import { randomUUID } from 'node:crypto';

export interface DrillsDeps {
  store(): Store;
  /** Runs one drill (the lab runner unless given: tests replace it). */
  run?: typeof runLabDrill;
}

export function createDrillsService(deps: DrillsDeps) {
  const run = deps.run ?? runLabDrill;
  const live = new Map<string, DrillReport>();
  const collection = () => deps.store().collection('drill_reports');

  async function save(report: DrillReport) {
    const result = await collection().updateOne({ _id: report.id }, { $set: { ...report } });
    if (!result.matched) await collection().insertOne({ ...report, _id: report.id });
  }

  return {
    /** Starts a lab drill and answers with its first report; the rest runs in the background. */
    async startLab(options: Omit<LabDrillOptions, 'id'>): Promise<DrillReport> {
      const running = [...live.values()].find((r) => r.status === 'running');
      if (running) throw new OpError(409, `drill ${running.id} is running on this console: wait for it to end (GET /drills/${running.id})`);
      const id = randomUUID();
      let first: DrillReport | undefined;
      let saving = Promise.resolve();
      const ready = new Promise<DrillReport>((resolve) => {
        void run({ ...options, id }, (report) => {
          live.set(id, report);
          // Saves are chained so the last state written is the last one seen.
          saving = saving.then(() => save(report)).catch((error: Error) => console.warn(`drill ${id}: saving its report failed: ${error.message}`));
          if (!first) resolve((first = report));
        }).then(async (final) => {
          live.set(id, final);
          await saving;
          await save(final).catch((error: Error) => console.warn(`drill ${id}: saving its final report failed: ${error.message}`));
          live.delete(id);
        });
      });
      return ready;
    },

    async get(id: string): Promise<DrillReport> {
      const current = live.get(id);
      if (current) return current;
      const doc = await collection().findOne({ _id: id });
      if (!doc) throw new OpError(404, `no drill "${id}" in the drill history`);
      const { _id, ...report } = doc;
      return report as unknown as DrillReport;
    },

    async list() {
      const docs = (await collection().find({}, { sort: { startedAt: -1 }, limit: 200 })) as unknown as DrillReport[];
      const byId = new Map(docs.map((d) => [d.id, d]));
      for (const report of live.values()) byId.set(report.id, report);
      const results = [...byId.values()]
        .sort((a, b) => b.startedAt - a.startedAt)
        .map(({ id, status, passed, failure, startedAt, endedAt, jobs, rtoMs, drainMs, error }) => ({ id, status, passed, failure, startedAt, endedAt, jobs, rtoMs, drainMs, error }));
      return { results, total: results.length };
    },
  };
}

export type DrillsService = ReturnType<typeof createDrillsService>;

export function drillsHandlers(service: DrillsService): Pick<Handlers, 'drills.startLab' | 'drills.list' | 'drills.get' | 'drills.export'> {
  return {
    'drills.startLab': ({ body }, ctx) => {
      ctx.setStatus(202);
      return service.startLab(body);
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
