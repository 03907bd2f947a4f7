// The service's aggregate job and task metrics computed from the console's own jobs and task
// records, as it reads them (the service keeps them up to date in wfe_job_metrics and
// wfe_task_metrics; the console computes them on read, adding no write to a job's run).
// A workflow's jobs count once complete; a task's runs once ended, complete (a success) or in
// error. Each result's periods are UTC days, each from the first start that day. Pure functions.
import { createHash } from 'node:crypto';
import type { AggregateJobMetrics, AggregateTaskMetrics } from '../../contract/engine-metrics';

/** What a completed job brings to its workflow's metrics. */
export interface CompletedJob {
  name: string;
  metrics: { start_time?: unknown; end_time?: unknown };
}

/** What an ended task run brings to its task's metrics; `workflow`: the name of its job's workflow, when that job is known. */
export interface EndedTaskRun {
  taskId: string;
  name: string;
  app: string;
  type: string;
  status: 'complete' | 'error';
  metrics: { start_time?: unknown; end_time?: unknown };
  workflow?: string;
}

/** A stable id of 24 hex digits (the service's are ObjectIds) for the aggregate of `key` in `collection`. */
export function aggregateId(collection: string, key: string[]): string {
  return createHash('sha1').update([collection, ...key].join('\u0000')).digest('hex').slice(0, 24);
}

const time = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const runTime = (start: number | undefined, end: number | undefined) => (start !== undefined && end !== undefined ? Math.max(0, end - start) : 0);

/** Periods (UTC days) of one aggregate, each keeping its earliest start. */
class Periods<T extends object> {
  private readonly days = new Map<string, { start: number; tally: T }>();
  constructor(private readonly empty: () => T) {}

  at(ms: number): T {
    const day = utcDay(ms);
    const found = this.days.get(day);
    if (found) {
      found.start = Math.min(found.start, ms);
      return found.tally;
    }
    const tally = this.empty();
    this.days.set(day, { start: ms, tally });
    return tally;
  }

  /** Oldest first, each with its `startDate` as an ISO date. */
  list(): (T & { startDate: string })[] {
    return [...this.days.values()].sort((a, b) => a.start - b.start).map(({ start, tally }) => ({ startDate: new Date(start).toISOString(), ...tally }));
  }
}

/** One result per workflow with a completed job. */
export function aggregateJobMetrics(jobs: Iterable<CompletedJob>): AggregateJobMetrics[] {
  const byWorkflow = new Map<string, Periods<{ jobsComplete: number; totalRunTime: number }>>();
  for (const job of jobs) {
    const start = time(job.metrics.start_time);
    if (start === undefined) continue;
    let periods = byWorkflow.get(job.name);
    if (!periods) byWorkflow.set(job.name, (periods = new Periods(() => ({ jobsComplete: 0, totalRunTime: 0 }))));
    const tally = periods.at(start);
    tally.jobsComplete += 1;
    tally.totalRunTime += runTime(start, time(job.metrics.end_time));
  }
  return [...byWorkflow].map(([name, periods]) => {
    const metrics = periods.list().map(({ startDate, jobsComplete, totalRunTime }) => ({ startDate, jobsComplete, totalRunTime }));
    return {
      _id: aggregateId('wfe_job_metrics', [name]),
      workflow: { name },
      metrics,
      jobsComplete: metrics.reduce((sum, m) => sum + m.jobsComplete, 0),
      totalRunTime: metrics.reduce((sum, m) => sum + m.totalRunTime, 0),
    };
  });
}

interface TaskTally {
  totalSuccesses: number;
  totalErrors: number;
  totalSuccessRunTime: number;
  totalErrorRunTime: number;
}
const emptyTaskTally = (): TaskTally => ({ totalSuccesses: 0, totalErrors: 0, totalSuccessRunTime: 0, totalErrorRunTime: 0 });

interface TaskRow {
  head: Omit<AggregateTaskMetrics, 'metrics' | 'taskType'>;
  /** The type of the latest run (by start), as its row answers it. */
  type: { type: string; at: number };
  periods: Periods<TaskTally>;
}

/** A global row per application and task method, and a row per task of a workflow (its id and method). */
export function aggregateTaskMetrics(runs: Iterable<EndedTaskRun>): AggregateTaskMetrics[] {
  const rows = new Map<string, TaskRow>();
  const rowOf = (key: string[], head: TaskRow['head'], run: EndedTaskRun, at: number) => {
    const id = aggregateId('wfe_task_metrics', key);
    let row = rows.get(id);
    if (!row) rows.set(id, (row = { head: { ...head, _id: id }, type: { type: run.type, at }, periods: new Periods(emptyTaskTally) }));
    if (at >= row.type.at) row.type = { type: run.type, at };
    return row;
  };
  for (const run of runs) {
    const start = time(run.metrics.start_time);
    const end = time(run.metrics.end_time);
    const at = start ?? end;
    if (at === undefined) continue;
    const { app, name } = run;
    const touched = [rowOf(['global', app, name], { _id: '', global: true, name, app }, run, at)];
    if (run.workflow !== undefined) {
      const head = { _id: '', global: false, name, app, taskId: run.taskId, workflow: { name: run.workflow } };
      touched.push(rowOf(['workflow', run.workflow, run.taskId, app, name], head, run, at));
    }
    for (const row of touched) {
      const tally = row.periods.at(at);
      if (run.status === 'error') {
        tally.totalErrors += 1;
        tally.totalErrorRunTime += runTime(start, end);
      } else {
        tally.totalSuccesses += 1;
        tally.totalSuccessRunTime += runTime(start, end);
      }
    }
  }
  return [...rows.values()].map(({ head, type, periods }) => ({ ...head, taskType: type.type, metrics: periods.list() }));
}
