// A job drawn over its workflow: each task's status and iteration count, the path
// the job took, and the runs of the task clicked, their values with the job's secret variables
// masked like the rest of the job's page until the operator reveals them.
import { useMemo, useState } from 'react';
import type { Job, TaskRun } from '../../core/contract/jobs';
import { formatDuration, formatTime, formatValue } from '../jobs/format';
import { taskStatus } from '../shell/status';
import { StatusBadge } from '../shell/StatusBadge';
import { WorkflowDiagram, type TaskOverlay } from './WorkflowDiagram';
import { edgesOf } from './layout';
import { useMaskedValue } from '../jobs/SecretVariables';

/** The state a finished run ended in, which decides the transitions it fires. */
function endState(run: TaskRun): string | undefined {
  if (run.finishState) return run.finishState;
  if (run.status === 'complete') return 'success';
  if (run.status === 'error') return 'error';
  return undefined;
}

export function jobOverlay(job: Pick<Job, 'tasks' | 'transitions' | 'taskRuns'>) {
  const runs = new Map<string, TaskRun[]>();
  for (const run of job.taskRuns) runs.set(run.taskId, [...(runs.get(run.taskId) ?? []), run]);
  const overlay: Record<string, TaskOverlay> = {};
  for (const [taskId, list] of runs) {
    const latest = list.reduce((a, b) => (b.iteration >= a.iteration ? b : a));
    overlay[taskId] = { status: taskStatus(latest), iterations: list.length };
  }
  const taken = new Set<string>();
  for (const edge of edgesOf({ tasks: job.tasks, transitions: job.transitions })) {
    const fired = (runs.get(edge.source) ?? []).some((r) => endState(r) === edge.state);
    if (fired && runs.has(edge.target)) taken.add(edge.id);
  }
  return { overlay, taken, runs };
}

const ACTIVE = new Set(['running', 'queued', 'waiting', 'paused']);

/** The task a job is at: the latest run still going (running, queued, waiting), else the latest that failed. */
export function currentTask(job: Pick<Job, 'taskRuns'>): string | undefined {
  const latest = (runs: TaskRun[]) => runs.reduce<TaskRun | undefined>((a, b) => (!a || (b.metrics.start_time ?? b.queuedAt) >= (a.metrics.start_time ?? a.queuedAt) ? b : a), undefined);
  const going = latest(job.taskRuns.filter((r) => ACTIVE.has(r.status)));
  return (going ?? latest(job.taskRuns.filter((r) => r.status === 'error' || r.finishState === 'error' || r.finishState === 'failure')))?.taskId;
}

/** A run's incoming or outgoing values as the page shows them (secret variables masked until revealed). */
function RunValue({ value, label }: { value: unknown; label: string }) {
  const shown = useMaskedValue(value);
  return (
    <pre className="json-block job-value" aria-label={label}>
      {formatValue(shown)}
    </pre>
  );
}

export function JobDiagram({ job }: { job: Job }) {
  const { overlay, taken, runs } = useMemo(() => jobOverlay(job), [job]);
  const workflow = useMemo(() => ({ tasks: job.tasks, transitions: job.transitions }), [job.tasks, job.transitions]);
  // Where the diagram opens: fixed when the job page opens, not moved under the reader as the job goes on.
  const [focus] = useState(() => currentTask(job));
  const [open, setOpen] = useState<string>();
  const openRuns = open ? (runs.get(open) ?? []) : [];
  return (
    <section aria-label="Job diagram" className="job-diagram">
      <WorkflowDiagram workflow={workflow} overlay={overlay} taken={taken} onTaskClick={setOpen} focus={focus} label={`Diagram of job ${job._id}`} />
      {open && (
        <div className="diagram-detail" role="region" aria-label={`Task ${open} detail`}>
          <div className="page-header">
            <h3>
              {(job.tasks[open] as { summary?: string } | undefined)?.summary ?? job.tasks[open]?.name ?? open} <span className="muted small">task {open}</span>
            </h3>
            <button type="button" onClick={() => setOpen(undefined)}>
              Close
            </button>
          </div>
          {openRuns.length === 0 && <p className="muted">This task has not run in this job.</p>}
          {openRuns.map((run) => (
            <div key={run._id} className="diagram-run">
              <p>
                Iteration {run.iteration + 1}: <StatusBadge status={taskStatus(run)} label={`status of ${open} iteration ${run.iteration + 1}`} />{' '}
                <span className="muted small">
                  started {formatTime(run.metrics.start_time ?? run.queuedAt)} · took {formatDuration(run.metrics.start_time, run.metrics.end_time) || '—'}
                </span>
              </p>
              {run.error && <p className="error small">{run.error}</p>}
              <div className="task-values">
                <RunValue value={run.incoming ?? {}} label={`incoming of ${open} iteration ${run.iteration + 1}`} />
                <RunValue value={run.outgoing ?? {}} label={`outgoing of ${open} iteration ${run.iteration + 1}`} />
              </div>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
