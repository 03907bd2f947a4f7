// The form that finishes a manual task in place: its declared outgoing values (text,
// or JSON when asked) and the state it ends in. Unsaved edits are guarded.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WorkItem } from '../../core/contract/worklist';
import { call } from '../api/client';
import { useUnsavedChanges } from '../shell/unsaved';

export function FinishTaskForm({ item, onFinished }: { item: WorkItem; onFinished: (message: string) => void }) {
  const client = useQueryClient();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(item.outgoing.map((name) => [name, ''])));
  const [asJson, setAsJson] = useState(false);
  const [state, setState] = useState<'success' | 'failure' | 'error'>('success');
  const [problem, setProblem] = useState('');
  const dirty = Object.values(values).some((v) => v !== '');
  useUnsavedChanges(dirty, `the form of task ${item.taskId}`);
  const finish = useMutation({
    mutationFn: (out: Record<string, unknown>) => call('jobs.finishTask', { params: { id: item.jobId, taskId: item.taskId }, body: { values: out, state } }),
    onSuccess: (answer) => {
      setValues(Object.fromEntries(item.outgoing.map((name) => [name, ''])));
      void client.invalidateQueries({ queryKey: ['tasks.worklist'] });
      void client.invalidateQueries({ queryKey: ['console.attention'] });
      void client.invalidateQueries({ queryKey: ['jobs.list'] });
      onFinished(`${answer.message} (job ${item.jobId})`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const out: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(values)) {
      if (!asJson) out[name] = text;
      else {
        try {
          out[name] = JSON.parse(text);
        } catch {
          setProblem(`${name}: not valid JSON (write "text" with quotes, or untick "Values are JSON")`);
          return;
        }
      }
    }
    setProblem('');
    finish.mutate(out);
  };
  return (
    <form className="finish-task" onSubmit={submit} aria-label={`Finish task ${item.taskId} of job ${item.jobId}`}>
      {item.outgoing.length === 0 && <p className="muted small">This task declares no outgoing values: finishing it only chooses how it ends.</p>}
      {item.outgoing.map((name) => (
        <div className="form-row" key={name}>
          <label htmlFor={`work-${item._id}-${name}`}>{name}</label>
          <input id={`work-${item._id}-${name}`} value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
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
      <div className="form-actions sticky-actions">
        <button type="submit" className="primary" disabled={finish.isPending}>
          {finish.isPending ? 'Finishing…' : 'Finish task'}
        </button>
        {dirty && <span className="muted small">Unsaved values</span>}
        {problem && (
          <span className="error" role="alert">
            {problem}
          </span>
        )}
        {finish.isError && (
          <span className="error" role="alert">
            Not finished: {finish.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
