// A manual task waiting for an operator: the generic finish form (outgoing values
// and the state to end in), and ViewData's panel, whose two buttons (labelled by
// btn_success and btn_failure) end it in success or failure.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Job, TaskRun } from '../../core/contract/jobs';
import { call } from '../api/client';
import { formatValue } from './format';
import { useUnsavedChanges } from '../shell/unsaved';

export function useJobAction(id: string) {
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

export function FinishForm({ job, run, onDone }: { job: Job; run: TaskRun; onDone: () => void }) {
  const action = useJobAction(job._id);
  const declared = Object.keys((job.tasks[run.taskId] as { variables?: { outgoing?: Record<string, unknown> } } | undefined)?.variables?.outgoing ?? {});
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(declared.map((name) => [name, ''])));
  const [asJson, setAsJson] = useState(false);
  const [state, setState] = useState<'success' | 'failure' | 'error'>('success');
  const [problem, setProblem] = useState('');
  useUnsavedChanges(Object.values(values).some((v) => v !== ''), `the form of task ${run.taskId}`);
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

const text = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

export function ViewDataPanel({ job, run }: { job: Job; run: TaskRun }) {
  const action = useJobAction(job._id);
  const incoming = run.incoming ?? {};
  const body = incoming.body;
  const finish = (state: 'success' | 'failure') => action.mutate({ kind: 'finish', taskId: run.taskId, values: {}, state });
  return (
    <div className="view-data" role="group" aria-label={`View data of ${run.taskId}`}>
      <h4>{text(incoming.header, 'View data')}</h4>
      {text(incoming.message, '') && <p className="view-data-message">{String(incoming.message)}</p>}
      {body !== undefined && body !== '' && (
        <pre className="json-block job-value" aria-label={`body of ${run.taskId}`}>
          {typeof body === 'string' ? body : formatValue(body)}
        </pre>
      )}
      <div className="form-actions">
        <button type="button" className="primary" disabled={action.isPending} onClick={() => finish('success')}>
          {text(incoming.btn_success, 'Success')}
        </button>
        <button type="button" disabled={action.isPending} onClick={() => finish('failure')}>
          {text(incoming.btn_failure, 'Failure')}
        </button>
        {action.isError && <span className="error">{action.error.message}</span>}
      </div>
    </div>
  );
}
