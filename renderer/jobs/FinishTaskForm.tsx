// The one form that finishes a manual task waiting for an operator, on the job page and
// in the work queue: its declared outgoing values (text, or JSON when asked) and the
// state it ends in. Unsaved edits are guarded; finishing refreshes every view of the task.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { useUnsavedChanges } from '../shell/unsaved';
import { Alert } from '../shell/Alert';
import { refreshAfter } from '../api/keys';

type EndState = 'success' | 'failure' | 'error';

export interface FinishTaskFormProps {
  jobId: string;
  taskId: string;
  /** The names of the task's declared outgoing variables, one input each. */
  outgoing: string[];
  /** The form's accessible name. */
  label: string;
  /** Called with the console's answer once the task is finished. */
  onFinished: (message: string) => void;
  /** Given, the form has a Close button that calls it. */
  onClose?: () => void;
}

const blank = (names: string[]) => Object.fromEntries(names.map((name) => [name, '']));

/** The outgoing values as typed, or parsed as JSON; a value that does not parse is named. */
function readValues(values: Record<string, string>, asJson: boolean): { out: Record<string, unknown> } | { problem: string } {
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(values)) {
    if (!asJson) out[name] = text;
    else {
      try {
        out[name] = JSON.parse(text);
      } catch {
        return { problem: `${name}: not valid JSON (write "text" with quotes, or untick "Values are JSON")` };
      }
    }
  }
  return { out };
}

/** Finishes a manual task with these values and state, then refreshes every view of it. */
export function useFinishTask(jobId: string, taskId: string, onFinished?: (message: string) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ values, state }: { values: Record<string, unknown>; state: EndState }) => call('jobs.finishTask', { params: { id: jobId, taskId }, body: { values, state } }),
    onSuccess: (answer) => {
      void refreshAfter(client, 'manualTask');
      onFinished?.(answer.message);
    },
  });
}

export function FinishTaskForm({ jobId, taskId, outgoing, label, onFinished, onClose }: FinishTaskFormProps) {
  const idBase = useId();
  const [values, setValues] = useState<Record<string, string>>(() => blank(outgoing));
  const [asJson, setAsJson] = useState(false);
  const [state, setState] = useState<EndState>('success');
  const [problem, setProblem] = useState('');
  const dirty = Object.values(values).some((v) => v !== '');
  useUnsavedChanges(dirty, `the form of task ${taskId}`);
  const finish = useFinishTask(jobId, taskId, (message) => {
    setValues(blank(outgoing));
    onFinished(message);
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readValues(values, asJson);
    if ('problem' in read) return setProblem(read.problem);
    setProblem('');
    finish.mutate({ values: read.out, state });
  };
  return (
    <form className="finish-task" onSubmit={submit} aria-label={label}>
      {outgoing.length === 0 && <p className="muted small">This task declares no outgoing values: finishing it only chooses how it ends.</p>}
      {outgoing.map((name) => (
        <div className="form-row" key={name}>
          <label htmlFor={`${idBase}-${name}`}>{name}</label>
          <input id={`${idBase}-${name}`} value={values[name] ?? ''} onChange={(e) => setValues({ ...values, [name]: e.target.value })} />
        </div>
      ))}
      <div className="form-row">
        <label>
          <input type="checkbox" checked={asJson} onChange={(e) => setAsJson(e.target.checked)} /> Values are JSON
        </label>
        <label>
          Ends in{' '}
          <select value={state} onChange={(e) => setState(e.target.value as EndState)}>
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
        {onClose && (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
        {dirty && <span className="muted small">Unsaved values</span>}
        {problem && (
          <Alert as="span">
            {problem}
          </Alert>
        )}
        {finish.isError && (
          <Alert as="span">
            Not finished: {finish.error.message}
          </Alert>
        )}
      </div>
    </form>
  );
}
