// One job: its status, variables, parent and child jobs, the operator's actions,
// and each task run with its status, timings, incoming and outgoing values and
// error. Undefined values read `undefined`, apart from `null`.
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Job, TaskRun } from '../../core/contract/jobs';
import { call } from '../api/client';
import { formatDuration, formatTime, formatValue, initiatorOf, restoreUndefined, waitingUntilText } from './format';
import { declaredOutgoing, hasOwnPanel, ManualTaskPanel, useJobAction } from './ManualTask';
import { RetryForm } from './RetryForm';
import { jobStatus, taskStatus } from '../shell/status';
import { StatusBadge } from '../shell/StatusBadge';
import { JobDiagram } from '../diagrams/JobDiagram';
import { JobActions } from './JobActions';
import { JobErrors } from './JobErrors';
import { qk } from '../api/keys';
import { JobHistory } from './JobHistory';
import { LargeData } from './LargeData';
import { SecretVariables, secretValues, useMaskedValue } from './SecretVariables';

const ACTIVE_TASK = new Set(['queued', 'running', 'waiting']);

function Value({ value, label }: { value: unknown; label: string }) {
  // Secret variables (and values under their names) are masked until the operator reveals them.
  const shown = useMaskedValue(value);
  return (
    <pre className="json-block job-value" aria-label={label}>
      {formatValue(shown)}
    </pre>
  );
}

/** A task in error with no error transition can be retried (its latest run, while the job is active). */
const canRetry = (job: Job, run: TaskRun, jobActive: boolean) =>
  Boolean(job.tasks[run.taskId]) && run.status === 'error' && jobActive && !Object.values(job.transitions[run.taskId] ?? {}).some((t) => t.state === 'error');

/** A task that ran more than once (a revert loop, forEach) has a row per iteration: "iteration 2 of 3". */
function TaskRow({ job, run, jobActive, iterations, latest }: { job: Job; run: TaskRun; jobActive: boolean; iterations: number; latest: boolean }) {
  const [open, setOpen] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const [editing, setEditing] = useState(false);
  const action = useJobAction(job._id);
  const manual = run.status === 'waiting' && !run.childJob && jobActive && latest;
  // ViewData, ErrorHandling and ShowJsonForm show their own panel at once; another manual task its form on "Finish…".
  const ownPanel = manual && hasOwnPanel(run);
  const retry = latest && canRetry(job, run, jobActive);
  const autoRetries = (run.autoRetries as number | undefined) ?? 0;
  const label = iterations > 1 ? `Task ${run.taskId} iteration ${run.iteration + 1}` : `Task ${run.taskId}`;
  return (
    <>
      <tr aria-label={label}>
        <td>
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'} {run.taskId}
          </button>
          {iterations > 1 && (
            <span className="muted small" aria-label={`iteration of ${run.taskId}`}>
              {' '}
              iteration {run.iteration + 1} of {iterations}
            </span>
          )}
        </td>
        <td>
          {run.name} <span className="muted small">{run.app}</span>
          {run.simulated && (
            <span className="badge stub" aria-label={`${run.taskId} answered by a simulated adapter`} title={`Answered by the simulated adapter ${run.simulated}, not a live system`}>
              SIMULATED
            </span>
          )}
        </td>
        <td>{run.type}</td>
        <td>
          <StatusBadge status={taskStatus(run)} label={`status of ${run.taskId}`} />
          {run.attempt > 1 && <span className="muted small"> attempt {run.attempt}</span>}
          {autoRetries > 0 && <span className="muted small"> (retried {autoRetries}× by its retrySettings)</span>}
          {run.waitingUntil !== undefined && (
            <span className="small" aria-label={`timer of ${run.taskId}`} title={formatTime(run.waitingUntil)}>
              {' '}
              {waitingUntilText(run.waitingUntil)}
            </span>
          )}
        </td>
        <td className="small">{formatTime(run.metrics.start_time ?? run.queuedAt)}</td>
        <td className="small">{formatDuration(run.metrics.start_time, run.metrics.end_time)}</td>
        <td>
          {Array.isArray(run.childJobs) ? (
            <span aria-label={`child jobs of ${run.taskId}`}>
              {(run.childJobs as string[]).map((child, i) => (
                <a key={child} href={`#/jobs/${encodeURIComponent(child)}`} className="small">
                  {i === 0 ? '' : ' · '}child {i + 1}
                </a>
              ))}
            </span>
          ) : (
            run.childJob && (
              <a href={`#/jobs/${encodeURIComponent(run.childJob)}`} aria-label={`child job of ${run.taskId}`}>
                child job
              </a>
            )
          )}
          {manual && !ownPanel && !finishing && (
            <button type="button" className="primary" onClick={() => (setFinishing(true), setOpen(true))}>
              Finish…
            </button>
          )}
          {retry && (
            <button type="button" disabled={action.isPending} onClick={() => action.mutate({ kind: 'retry', taskId: run.taskId })}>
              Retry
            </button>
          )}
          {retry && !editing && (
            <button type="button" onClick={() => setEditing(true)}>
              Edit and retry…
            </button>
          )}
          {action.isError && <span className="error small"> {action.error.message}</span>}
        </td>
      </tr>
      {run.error && (
        <tr className="task-error-row">
          <td colSpan={7} className="error small">
            {run.error}
          </td>
        </tr>
      )}
      {retry && editing && (
        <tr className="task-detail-row">
          <td colSpan={7}>
            <RetryForm jobId={job._id} taskId={run.taskId} incoming={run.incoming ?? {}} variables={job.variables} onDone={() => setEditing(false)} />
          </td>
        </tr>
      )}
      {ownPanel && (
        <tr className="task-detail-row">
          <td colSpan={7}>
            <ManualTaskPanel jobId={job._id} taskId={run.taskId} name={run.name} app={run.app} incoming={run.incoming ?? {}} outgoing={declaredOutgoing(job, run.taskId)} />
          </td>
        </tr>
      )}
      {open && (
        <tr className="task-detail-row">
          <td colSpan={7}>
            <div className="task-values">
              <div>
                <h4>Incoming</h4>
                {run.incoming ? <Value value={run.incoming} label={`incoming of ${run.taskId}`} /> : <p className="muted">Not resolved yet.</p>}
              </div>
              <div>
                <h4>Outgoing</h4>
                {run.outgoing ? <Value value={run.outgoing} label={`outgoing of ${run.taskId}`} /> : <p className="muted">None yet.</p>}
              </div>
            </div>
            {finishing && (
              <ManualTaskPanel
                jobId={job._id}
                taskId={run.taskId}
                name={run.name}
                app={run.app}
                incoming={run.incoming ?? {}}
                outgoing={declaredOutgoing(job, run.taskId)}
                formLabel={`Finish task ${run.taskId}`}
                onFinished={() => setFinishing(false)}
                onClose={() => setFinishing(false)}
              />
            )}
            {autoRetries > 0 && (
              <ul className="small error" aria-label={`retried errors of ${run.taskId}`}>
                {((run.retryErrors as string[] | undefined) ?? []).map((error, i) => (
                  <li key={i}>
                    attempt {i + 1}: {error}
                  </li>
                ))}
              </ul>
            )}
            <p className="muted small">
              Queued {formatTime(run.queuedAt)} · started {formatTime(run.metrics.start_time)} · ended {formatTime(run.metrics.end_time)}
              {run.workerId ? ` · worker ${run.workerId}` : ''}
            </p>
          </td>
        </tr>
      )}
    </>
  );
}

export function JobView({ id }: { id: string }) {
  const query = useQuery({
    queryKey: qk.job(id),
    queryFn: () => call('jobs.get', { params: { id } }),
    refetchInterval: (q) => {
      const job = q.state.data?.data;
      return !job || ['running', 'paused'].includes(job.status) || job.taskRuns.some((r) => ACTIVE_TASK.has(r.status)) ? 1000 : false;
    },
  });
  const job = useMemo(() => (query.data ? restoreUndefined(query.data.data, query.data.data.undefinedPaths) : undefined), [query.data]);
  if (query.isPending) return <p>Loading job {id}…</p>;
  if (query.isError)
    return (
      <section>
        <p>
          <a href="#/jobs">← Jobs</a>
        </p>
        <p className="error">Cannot read job {id}: {query.error.message}</p>
      </section>
    );
  const j = job!;
  const jobActive = j.status !== 'complete' && j.status !== 'canceled';
  const runs = j.taskRuns.filter((r) => r.taskId !== 'workflow_start' && r.taskId !== 'workflow_end');
  // Task runs waiting on a timer (delay, reattempt, a retry's delay).
  const timers = runs.filter((r) => r.waitingUntil !== undefined);
  const iterations = new Map<string, number>();
  for (const r of runs) iterations.set(r.taskId, Math.max(iterations.get(r.taskId) ?? 0, r.iteration + 1));
  const retryable = runs.filter((r) => r.iteration + 1 === iterations.get(r.taskId) && canRetry(j, r, jobActive));
  return (
    <section aria-label={`Job ${j._id}`}>
      <p>
        <a href="#/jobs">← Jobs</a>
      </p>
      <div className="profile-header">
        <h1>
          {j.name} <StatusBadge status={jobStatus(j.status, j.taskRuns.filter((r) => r.status === 'waiting' && !r.childJob).length)} label="Job status" />
          {j.simulated === true && (
            <span className="badge stub" title="A simulated adapter answered some of its tasks (marked SIMULATED below): a rehearsal, not a live run">
              SIMULATED
            </span>
          )}
        </h1>
        <div className="profile-actions" data-page-actions aria-label="Job actions" role="group">
          <JobActions job={j} retryable={retryable.map((run) => run.taskId)} />
        </div>
      </div>
      {!!j.error?.length && <JobErrors errors={j.error} />}
      <dl className="facts">
        <dt>Id</dt>
        <dd>{j._id}</dd>
        {j.description && (
          <>
            <dt>Description</dt>
            <dd>{j.description}</dd>
          </>
        )}
        <dt>Started</dt>
        <dd>
          {formatTime(j.metrics.start_time)} {j.metrics.user && <span className="muted small">by {initiatorOf(j.metrics.user)}</span>}
        </dd>
        <dt>Ended</dt>
        <dd>
          {formatTime(j.metrics.end_time)} <span className="muted small">{formatDuration(j.metrics.start_time, j.metrics.end_time)}</span>
        </dd>
        {jobActive && timers.length > 0 && (
          <>
            <dt>Timer</dt>
            <dd aria-label="job timer">
              {waitingUntilText(Math.min(...timers.map((r) => r.waitingUntil!)))} <span className="muted small">({timers.map((r) => r.taskId).join(', ')}; no worker slot is held meanwhile)</span>
            </dd>
          </>
        )}
        {j.parent && (
          <>
            <dt>Parent job</dt>
            <dd>
              <a href={`#/jobs/${encodeURIComponent(j.parent.job)}`}>{j.parent.job}</a> <span className="muted small">task {j.parent.task}</span>
            </dd>
          </>
        )}
        {j.children.length > 0 && (
          <>
            <dt>Child jobs</dt>
            <dd>
              <ul className="plain-list" aria-label="Child jobs">
                {j.children.map((child) => (
                  <li key={child}>
                    <a href={`#/jobs/${encodeURIComponent(child)}`}>{child}</a>
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {(j.history?.length ?? 0) > 0 && (
        <>
          <h2>History</h2>
          <JobHistory history={j.history!} />
        </>
      )}
      <SecretVariables key={j._id} jobId={j._id} names={j.secretVariables ?? []} values={secretValues(j.variables, j.secretVariables ?? [])}>
        <h2>Diagram</h2>
        <JobDiagram job={j} />
        <h2>Variables</h2>
        <Value value={j.variables} label="Job variables" />
        {j.largeData && <LargeData items={j.largeData} />}
        <h2>Tasks</h2>
        {runs.length === 0 ? (
          <p className="muted">No task has been queued yet.</p>
        ) : (
          <table aria-label="Tasks" className="job-tasks">
            <thead>
              <tr>
                <th>Task</th>
                <th>Method</th>
                <th>Type</th>
                <th>Status</th>
                <th>Started</th>
                <th>Took</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <TaskRow key={run._id} job={j} run={run} jobActive={jobActive} iterations={iterations.get(run.taskId) ?? 1} latest={run.iteration + 1 === iterations.get(run.taskId)} />
              ))}
            </tbody>
          </table>
        )}
      </SecretVariables>
    </section>
  );
}
