// One job: its status, variables, parent and child jobs, the operator's actions,
// and each task run with its status, timings, incoming and outgoing values and
// error. Undefined values read `undefined`, apart from `null`.
import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Job, TaskRun } from '../../core/contract/jobs';
import { call } from '../api/client';
import { formatDuration, formatTime, formatValue, restoreUndefined } from './format';
import { jobStatus, taskStatus } from '../shell/status';
import { StatusBadge } from '../shell/StatusBadge';
import { JobDiagram } from '../diagrams/JobDiagram';

const ACTIVE_TASK = new Set(['queued', 'running', 'waiting']);

function Value({ value, label }: { value: unknown; label: string }) {
  return (
    <pre className="json-block job-value" aria-label={label}>
      {formatValue(value)}
    </pre>
  );
}

function useJobAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (action: { kind: 'cancel' | 'pause' | 'resume' } | { kind: 'retry'; taskId: string } | { kind: 'finish'; taskId: string; values: Record<string, unknown>; state: 'success' | 'failure' | 'error' }) => {
      if (action.kind === 'retry') return call('jobs.retryTask', { params: { id, taskId: action.taskId } });
      if (action.kind === 'finish') return call('jobs.finishTask', { params: { id, taskId: action.taskId }, body: { values: action.values, state: action.state } });
      return call(action.kind === 'cancel' ? 'jobs.cancel' : action.kind === 'pause' ? 'jobs.pause' : 'jobs.resume', { params: { id } });
    },
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['jobs.get', id] });
      void client.invalidateQueries({ queryKey: ['jobs.list'] });
    },
  });
}

function FinishForm({ job, run, onDone }: { job: Job; run: TaskRun; onDone: () => void }) {
  const action = useJobAction(job._id);
  const declared = Object.keys((job.tasks[run.taskId] as { variables?: { outgoing?: Record<string, unknown> } } | undefined)?.variables?.outgoing ?? {});
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(declared.map((name) => [name, ''])));
  const [asJson, setAsJson] = useState(false);
  const [state, setState] = useState<'success' | 'failure' | 'error'>('success');
  const [problem, setProblem] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const out: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(values)) {
      if (!asJson) out[name] = text;
      else {
        try {
          out[name] = JSON.parse(text);
        } catch {
          setProblem(`${name}: not valid JSON`);
          return;
        }
      }
    }
    setProblem('');
    action.mutate({ kind: 'finish', taskId: run.taskId, values: out, state }, { onSuccess: onDone });
  };
  return (
    <form className="finish-task" onSubmit={submit} aria-label={`Finish task ${run.taskId}`}>
      {declared.length === 0 && <p className="muted small">This task declares no outgoing values.</p>}
      {declared.map((name) => (
        <div className="form-row" key={name}>
          <label htmlFor={`finish-${run.taskId}-${name}`}>{name}</label>
          <input id={`finish-${run.taskId}-${name}`} value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
        </div>
      ))}
      <div className="form-row">
        <label>
          <input type="checkbox" checked={asJson} onChange={(e) => setAsJson(e.target.checked)} /> Values are JSON
        </label>
        <label>
          Ends in{' '}
          <select value={state} onChange={(e) => setState(e.target.value as typeof state)}>
            <option value="success">success</option>
            <option value="failure">failure</option>
            <option value="error">error</option>
          </select>
        </label>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={action.isPending}>
          Finish task
        </button>
        <button type="button" onClick={onDone}>
          Close
        </button>
        {problem && <span className="error">{problem}</span>}
        {action.isError && <span className="error">{action.error.message}</span>}
      </div>
    </form>
  );
}

function TaskRow({ job, run, jobActive }: { job: Job; run: TaskRun; jobActive: boolean }) {
  const [open, setOpen] = useState(false);
  const [finishing, setFinishing] = useState(false);
  const action = useJobAction(job._id);
  const manual = run.status === 'waiting' && !run.childJob && jobActive;
  const retry = run.status === 'error' && jobActive && !Object.values(job.transitions[run.taskId] ?? {}).some((t) => t.state === 'error');
  return (
    <>
      <tr aria-label={`Task ${run.taskId}`}>
        <td>
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? '▾' : '▸'} {run.taskId}
          </button>
          {run.iteration > 0 && <span className="muted small"> #{run.iteration + 1}</span>}
        </td>
        <td>
          {run.name} <span className="muted small">{run.app}</span>
        </td>
        <td>{run.type}</td>
        <td>
          <StatusBadge status={taskStatus(run)} label={`status of ${run.taskId}`} />
          {run.attempt > 1 && <span className="muted small"> attempt {run.attempt}</span>}
        </td>
        <td className="small">{formatTime(run.metrics.start_time ?? run.queuedAt)}</td>
        <td className="small">{formatDuration(run.metrics.start_time, run.metrics.end_time)}</td>
        <td>
          {run.childJob && (
            <a href={`#/jobs/${encodeURIComponent(run.childJob)}`} aria-label={`child job of ${run.taskId}`}>
              child job
            </a>
          )}
          {manual && !finishing && (
            <button type="button" className="primary" onClick={() => (setFinishing(true), setOpen(true))}>
              Finish…
            </button>
          )}
          {retry && (
            <button type="button" disabled={action.isPending} onClick={() => action.mutate({ kind: 'retry', taskId: run.taskId })}>
              Retry
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
            {finishing && <FinishForm job={job} run={run} onDone={() => setFinishing(false)} />}
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
    queryKey: ['jobs.get', id],
    queryFn: () => call('jobs.get', { params: { id } }),
    refetchInterval: (q) => {
      const job = q.state.data?.data;
      return !job || ['running', 'paused'].includes(job.status) || job.taskRuns.some((r) => ACTIVE_TASK.has(r.status)) ? 1000 : false;
    },
  });
  const action = useJobAction(id);
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
  return (
    <section aria-label={`Job ${j._id}`}>
      <p>
        <a href="#/jobs">← Jobs</a>
      </p>
      <div className="profile-header">
        <h1>
          {j.name} <StatusBadge status={jobStatus(j.status, j.taskRuns.filter((r) => r.status === 'waiting' && !r.childJob).length)} label="Job status" />
        </h1>
        <div className="profile-actions">
          {j.status === 'running' && (
            <button type="button" onClick={() => action.mutate({ kind: 'pause' })} disabled={action.isPending}>
              Pause
            </button>
          )}
          {j.status === 'paused' && (
            <button type="button" onClick={() => action.mutate({ kind: 'resume' })} disabled={action.isPending}>
              Resume
            </button>
          )}
          {jobActive && (
            <button type="button" className="danger" onClick={() => action.mutate({ kind: 'cancel' })} disabled={action.isPending}>
              Cancel job
            </button>
          )}
          {action.isError && <span className="error">{action.error.message}</span>}
        </div>
      </div>
      {j.error && (
        <p className="banner error" role="alert">
          {j.error}
        </p>
      )}
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
          {formatTime(j.metrics.start_time)} {j.metrics.user && <span className="muted small">by {j.metrics.user}</span>}
        </dd>
        <dt>Ended</dt>
        <dd>
          {formatTime(j.metrics.end_time)} <span className="muted small">{formatDuration(j.metrics.start_time, j.metrics.end_time)}</span>
        </dd>
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
      <h2>Diagram</h2>
      <JobDiagram job={j} />
      <h2>Variables</h2>
      <Value value={j.variables} label="Job variables" />
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
              <TaskRow key={run._id} job={j} run={run} jobActive={jobActive} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
