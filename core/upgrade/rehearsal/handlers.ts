// POST /upgrade/rehearsals and its runs: a rehearsal runs in the background so the console can
// show its progress and cancel it; the request answers the report when it ends within a few
// seconds, else 202 with the rehearsal to follow (background-runs.ts keeps the last few).
import { randomUUID } from 'node:crypto';
import type { Rehearsal, RehearseBody } from '../../contract/rehearsal';
import { ConsoleError, errorMessage } from '../../errors';
import { rehearse, type RehearsalDeps } from './run';
import { BackgroundRuns } from '../background-runs';

/** How long POST /upgrade/rehearsals waits for the report before it answers 202. */
export const REHEARSAL_SYNC_MS = 5_000;

export class Rehearsals extends BackgroundRuns<Rehearsal> {
  constructor(private readonly deps: RehearsalDeps) {
    super();
  }

  /** Starts a rehearsal; a bad body (an unknown workflow) is refused before anything runs. */
  async start(body: RehearseBody): Promise<Rehearsal> {
    const run: Rehearsal = { id: randomUUID(), state: 'running', done: 0, total: 0 };
    const abort = new AbortController();
    let resolveStarted!: () => void;
    let rejectStarted!: (error: unknown) => void;
    const started = new Promise<void>((resolve, reject) => ((resolveStarted = resolve), (rejectStarted = reject)));
    const finished = rehearse(this.deps, body, {
      signal: abort.signal,
      onWorkflow: (workflow, done, total) => {
        resolveStarted();
        Object.assign(run, { done, total, ...(workflow ? { workflow } : {}) });
      },
    }).then(
      (report) => {
        resolveStarted();
        Object.assign(run, { state: 'done', report, done: report.workflows, total: report.workflows });
        delete run.workflow;
      },
      (error: unknown) => {
        rejectStarted(error);
        Object.assign(run, abort.signal.aborted ? { state: 'canceled' } : { state: 'failed', error: errorMessage(error) });
      },
    );
    // A refusal (unknown workflow) before the first workflow runs is the request's answer.
    await started.catch((error: unknown) => {
      if (error instanceof ConsoleError) throw error;
      throw new ConsoleError('unprocessable', `the rehearsal could not start: ${errorMessage(error)}`);
    });
    return this.keep(run, abort, finished);
  }
}

type Ctx = { setStatus(code: number): void; setHeader(name: string, value: string): void };

export function rehearsalHandlers(rehearsals: Rehearsals) {
  const notFound = (id: string): never => {
    throw new ConsoleError('not_found', `no upgrade rehearsal ${id}: it was never started here, or is older than the last few kept`, { id });
  };
  return {
    'upgrade.rehearse': async ({ body }: { body: RehearseBody }, ctx: Ctx) => {
      const started = await rehearsals.start(body);
      const run = (await rehearsals.settle(started.id, REHEARSAL_SYNC_MS)) ?? started;
      if (run.state === 'done' && run.report) return run.report;
      if (run.state === 'failed') throw new ConsoleError('unprocessable', `the rehearsal failed: ${run.error ?? 'unknown error'}`);
      ctx.setStatus(202);
      ctx.setHeader('Location', `/upgrade/rehearsals/${run.id}`);
      return run;
    },
    'upgrade.rehearsal': async ({ params }: { params: { id: string } }) => rehearsals.get(params.id) ?? notFound(params.id),
    'upgrade.rehearsalCancel': async ({ params }: { params: { id: string } }) => (await rehearsals.cancel(params.id)) ?? notFound(params.id),
  };
}
